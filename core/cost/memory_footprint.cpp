#include "core/cost/memory_footprint.h"

#include <algorithm>

#include "core/cost/recurrent_cost.h"

namespace paleo {

MemoryFootprint memory_footprint(const Network& net, const NetworkCost& cost, Optimizer optimizer,
                                 double capacity_bytes, std::size_t first, std::size_t last,
                                 double activation_copies) {
  MemoryFootprint m;
  m.capacity_bytes = capacity_bytes;
  last = std::min(last, net.layers.size());
  const PrecisionPolicy& precision = cost.precision;
  double params = 0;
  for (std::size_t i = first; i < last; ++i) {
    const Layer& l = net.layers[i];
    params += static_cast<double>(l.params);
    // Backpropagation through time keeps a recurrent layer's gates (and cell) of every step too.
    m.activations_bytes += (product(l.output) + recurrent_saved_values(l)) * dtype_bytes(precision.activations) *
                           activation_copies;
    const LayerCost& c = cost.layers[i];
    m.workspace_bytes = std::max({m.workspace_bytes, c.forward.workspace_bytes, c.backward_data.workspace_bytes,
                                  c.backward_filter.workspace_bytes});
  }
  // Every format of the precision policy; fp32 (the default) keeps 4 bytes each.
  m.weights_bytes = params * dtype_bytes(precision.params);
  m.gradients_bytes = params * dtype_bytes(precision.gradients);
  const int states = optimizer == Optimizer::kAdam ? 2 : optimizer == Optimizer::kMomentum ? 1 : 0;
  m.optimizer_bytes = params * precision.optimizer_bytes_per_param(states);
  return m;
}

}  // namespace paleo
