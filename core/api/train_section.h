#pragma once
// api/: the time and cost to train of a CNN `estimate` (docs/api.md, "Time to train"): every
// setup the response priced (one device; each worker count of the PALEO 2017 simulation at its
// fastest scheme; the cluster), trained for the request's epochs over its dataset.
#include "core/api/request.h"
#include "core/base/json.h"

namespace paleo {

// The `train` section of `estimate`, the response built so far; null when the request names no
// dataset_samples.
Json cnn_train_json(const Request& r, const Json& estimate);

}  // namespace paleo
