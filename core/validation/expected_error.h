#pragma once
// validation/: the expected error of an estimate. Every estimate response carries the figures of
// its family in the validation suite (docs/validation.md) as "expected_error": transformer
// estimates those of "transformers" ("moe_training" for a mixture of experts), CNN estimates
// those of "cnn_single_gpu", or of "cnn_data_parallel" with a cluster. The figures are recorded
// in presets/error_bands.json (the suite is far too slow to run per estimate);
// tests/test_expected_error.cpp fails when they disagree with what `validate` computes today.
#include <string>

#include "core/base/json.h"

namespace paleo {

// {"family", "median_abs_error", "max_abs_error", "cases", "cross_validated", "cross_validation",
// "summary", "source"}: the recorded band of `family` ("source": docs/validation.md, always). Throws paleo::Error for a
// family the file does not hold.
Json expected_error_json(const std::string& family);

// presets/error_bands.json as compiled in: {"families": {name: {...}}, ...}.
const Json& error_bands();

}  // namespace paleo
