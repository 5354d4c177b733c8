#pragma once
// The JSON of the cluster model: the `cluster` section of estimate and the `collective` command.
#include <string>
#include <vector>

#include "core/api/request.h"
#include "core/base/json.h"
#include "core/cluster/cluster_step.h"
#include "core/cost/network_pricer.h"

namespace paleo {

// The cluster step of an estimate request with a cluster (docs/api.md, "cluster"). A point of
// the node sweep that cannot be priced is left out, and `warnings` says which and why.
// `step`, when given, receives the typed step the section is written from.
// The cluster options a request sets (collective, buckets, overlap, pipeline, servers).
ClusterOptions cluster_options(const Request& request);

// `pricer`, when given, prices the net (one the caller has priced the request's batch with).
Json cluster_step_json(const Request& request, std::vector<std::string>& warnings, ClusterStep* step = nullptr,
                       NetworkPricer* pricer = nullptr);

// The `collective` command: one collective's cost, and every algorithm's for comparison.
Json collective_response(const Request& request);

}  // namespace paleo
