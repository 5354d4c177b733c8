#pragma once
// The JSON of the cluster model: the `cluster` section of estimate and the `collective` command.
#include "core/api_request.h"
#include "core/json.h"

namespace paleo {

// The cluster step of an estimate request with a cluster (docs/api.md, "cluster").
Json cluster_step_json(const Request& request);

// The `collective` command: one collective's cost, and every algorithm's for comparison.
Json collective_response(const Request& request);

}  // namespace paleo
