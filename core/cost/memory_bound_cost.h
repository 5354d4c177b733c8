#pragma once
// Costs of the layers the original treats as free (activations, batch norm, LRN, softmax,
// element-wise, concat, up-sampling) and of a convolution's fused epilogue, for profiles with
// cost_memory_bound_layers. Each reads its inputs and writes its output once per pass, with a
// few FLOPs per element (docs/model.md, "Memory-bound layers").
#include "core/cost/cost_model.h"
#include "core/spec/network.h"

namespace paleo {

struct PassCosts {
  PassCost forward, backward_data, backward_filter;
};

// Adds the layer's own cost when it is one of the memory-bound kinds; returns false otherwise.
bool add_memory_bound_cost(const Layer& layer, const CostModel& model, PassCosts& costs);

// A convolution's fused batch norm and activation, one entry per kernel they run as (at most two).
struct EpilogueKernels {
  PassCosts kernels[2];
  int count = 0;
  PassCosts* begin() { return kernels; }
  PassCosts* end() { return kernels + count; }
  const PassCosts* begin() const { return kernels; }
  const PassCosts* end() const { return kernels + count; }
};
EpilogueKernels fused_epilogue_kernels(const Layer& layer, const CostModel& model);
// A convolution's bias as a kernel of its own: forward adds it to the output (read, write);
// the filter gradient reduces the output gradient (read).
PassCosts unfused_bias_kernel(const Layer& layer, const CostModel& model);
// Adds a convolution's fused activation and batch norm, applied to its output.
void add_fused_epilogue(const Layer& layer, const CostModel& model, PassCosts& costs);

}  // namespace paleo
