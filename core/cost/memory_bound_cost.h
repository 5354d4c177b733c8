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

// A batch norm that also performs the ReLU after it, or the residual add and the ReLU
// (core/cost/batchnorm_activation_fusion.h), as the one kernel each way of MXNet's NHWC batch norm
// (nhwc_batch_norm_fwd / _bwd_relu / _bwd_add_relu, the kernels of NVIDIA apex's groupbn). Forward:
// read x twice (the statistics, then the normalization, which reads again what the kernel could not
// keep on chip), with the add read the addend z, write y, and with the add write the ReLU's bitmask
// (one bit an element). Backward, the scale and shift gradients in the same kernel: read x and dy
// for the statistics and again for dx, write dx; the ReLU's mask is recomputed from x, or, with the
// add, read from the bitmask, and the masked dy is written as the addend's gradient dz and read
// back in place of dy for dx. All of it in backward_data; backward_filter launches nothing.
PassCosts fused_batchnorm_activation_kernels(const Layer& batch_norm, bool with_add, const CostModel& model);

}  // namespace paleo
