#pragma once
// A built network at another batch size without reading its spec again: only the sample
// dimension of each shape follows the batch (docs/model.md), so the layers are re-shaped in place.
#include "core/spec/layer_graph.h"
#include "core/spec/model_profile.h"
#include "core/spec/net_spec.h"
#include "core/spec/network.h"

namespace paleo {

// Turns `net`, built by build_network(spec, graph, any batch, profile), into what
// build_network(spec, graph, batch_size, profile) returns, field for field. Where a shape at the
// new batch would be out of range, the network is built from the spec instead, which throws the
// same error build_network does.
void rebatch(Network& net, const NetSpec& spec, const LayerGraph& graph, Dim batch_size,
             const ModelProfile& profile = default_profile());

}  // namespace paleo
