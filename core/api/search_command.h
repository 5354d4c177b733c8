#pragma once
// The `search` command: the layer-wise parallel strategy of a network on a cluster
// (docs/layerwise.md, docs/api.md).
#include "core/api/request.h"
#include "core/base/json.h"

namespace paleo {

Json search_response(const Request& request);

}  // namespace paleo
