#pragma once
// The `search` command: the layer-wise parallel strategy of a network on a cluster
// (docs/layerwise.md, docs/api.md).
#include <string>
#include <vector>

#include "core/api/request.h"
#include "core/base/json.h"

#include <string>
#include <vector>

namespace paleo {

// Without a cluster, the search prices the device's node preset's links and says so in `warnings`,
// with whatever else the answer assumed that the request may not have meant.
Json search_response(const Request& request, std::vector<std::string>& warnings);

}  // namespace paleo
