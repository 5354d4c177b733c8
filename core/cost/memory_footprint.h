#pragma once
// Memory per device: weights, gradients, optimizer state, activations kept for the backward
// pass, and the largest convolution workspace; against the device's capacity.
#include <cstdint>

#include "core/spec/network.h"
#include "core/cost/network_cost.h"

namespace paleo {

struct MemoryFootprint {
  double weights_bytes = 0;
  double gradients_bytes = 0;
  double optimizer_bytes = 0;
  double activations_bytes = 0;  // every layer's output at the batch, kept for backward
  double workspace_bytes = 0;    // the largest workspace of the chosen convolution algorithms
  double capacity_bytes = 0;     // 0 = unknown
  double total_bytes() const {
    return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes + workspace_bytes;
  }
  bool fits() const { return capacity_bytes <= 0 || total_bytes() <= capacity_bytes; }
};

// For the layers [first, last) of `net` (a pipeline stage; all layers by default), keeping the
// activations of `activation_copies` micro-batches.
MemoryFootprint memory_footprint(const Network& net, const NetworkCost& cost, Optimizer optimizer,
                                 double capacity_bytes, std::size_t first = 0, std::size_t last = SIZE_MAX,
                                 double activation_copies = 1);

}  // namespace paleo
