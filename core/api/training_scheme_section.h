#pragma once
// The JSON of training schemes (docs/api.md, "training_scheme"; docs/training-schemes.md): the
// request's `training_scheme` object read into a TrainingScheme, and the `training_scheme`
// section of an estimate: the step under the scheme and, when asked, the comparison of schemes
// over worker counts that the page plots.
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/training_scheme/training_scheme.h"

namespace paleo {

struct Request;

// Throws paleo::Error naming "training_scheme.<member>".
TrainingScheme read_training_scheme(const Json& value);

// The `training_scheme` section of an estimate request with a cluster and a training scheme;
// what the scheme priced differently from what was asked goes to `warnings`.
Json training_scheme_json(const Request& request, std::vector<std::string>& warnings);

}  // namespace paleo
