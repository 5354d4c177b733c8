#include "core/memory_footprint.h"

#include <algorithm>

namespace paleo {

MemoryFootprint memory_footprint(const Network& net, const NetworkCost& cost, Optimizer optimizer,
                                 double capacity_bytes, std::size_t first, std::size_t last,
                                 double activation_copies) {
  MemoryFootprint m;
  m.capacity_bytes = capacity_bytes;
  last = std::min(last, net.layers.size());
  for (std::size_t i = first; i < last; ++i) {
    const Layer& l = net.layers[i];
    m.weights_bytes += static_cast<double>(l.weights_bytes);
    m.activations_bytes += product(l.output) * 4 * activation_copies;
    const LayerCost& c = cost.layers[i];
    m.workspace_bytes = std::max({m.workspace_bytes, c.forward.workspace_bytes, c.backward_data.workspace_bytes,
                                  c.backward_filter.workspace_bytes});
  }
  m.gradients_bytes = m.weights_bytes;
  const double states = optimizer == Optimizer::kAdam ? 2 : optimizer == Optimizer::kMomentum ? 1 : 0;
  m.optimizer_bytes = states * m.weights_bytes;
  return m;
}

}  // namespace paleo
