#pragma once
// The layout conversions cuDNN adds around a tensor-core convolution of NCHW tensors: its
// tensor-core kernels take channels-last (NHWC) operands, so a framework that stores NCHW
// tensors (PyTorch's default memory format) has each pass's input, output and filter transposed
// to NHWC and back (docs/model.md, "Per-kernel efficiency"). Channels-last tensors, and
// convolutions on the CUDA cores, need none.
#include "core/cost/memory_bound_cost.h"

namespace paleo {

// One transpose kernel per pass of the convolution (or deconvolution) `layer` that has work
// (`passes`), when its product runs on the matrix units: each reads and writes the pass's input
// and output activations and the filter. All zero when it runs on the CUDA cores.
PassCosts nchw_conversion_kernels(const Layer& layer, const CostModel& model, const PassCosts& passes);

}  // namespace paleo
