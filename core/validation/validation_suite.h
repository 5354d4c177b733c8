#pragma once
// validation/: the `validate` command. Runs every validation case (or one family's) through
// `run` (the API hands in handle_request, the same dispatch as any request), and compares the prediction with the
// published measurement: error = predicted / measured - 1, summarised per family and overall
// (docs/validation.md, docs/api.md).
#include <vector>

#include "core/base/json.h"
#include "core/base/request_runner.h"
#include "core/validation/validation_case.h"

namespace paleo {

// request: {"command": "validate", "family"?: name}, over the embedded case files. Throws
// paleo::Error for a bad request; a case whose own request fails becomes an error row (counted
// as failed), not an exception.
Json validation_response(const Json& request, const RequestRunner& run);
// The same over the given cases (tests hand in their own).
Json validation_response(const Json& request, const std::vector<ValidationCase>& all, const RequestRunner& run);

}  // namespace paleo
