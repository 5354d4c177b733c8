#pragma once
// The `search` command: the layer-wise parallel strategy of a network on a cluster
// (docs/layerwise.md, docs/api.md).
#include <string>
#include <vector>

#include "core/api/request.h"
#include "core/base/json.h"

namespace paleo {

// Adds to `warnings` what the answer assumed that the request may not have meant.
Json search_response(const Request& request, std::vector<std::string>& warnings);

}  // namespace paleo
