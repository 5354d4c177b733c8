#pragma once
// Per-layer time of the forward pass and the two gradients (original FlopsProfiler.profile),
// including the cross-device fetch of model-parallel splits.
#include <optional>
#include <vector>

#include "core/cost/batchnorm_activation_fusion.h"
#include "core/cost/conv_algorithms.h"
#include "core/cost/cost_model.h"
#include "core/spec/network.h"

namespace paleo {

enum class Optimizer { kSgd, kMomentum, kAdam };

struct CostOptions {
  Optimizer optimizer = Optimizer::kSgd;  // the weight update's state and traffic
  ConvAlgorithm algorithm = ConvAlgorithm::kGemm;
  ConvCandidates auto_candidates;  // what kAuto may pick besides GEMM (a software era's library)
  double workspace_limit_bytes = 4294967296.0;  // the original's cuDNN limit, 1 << 32
  // Bandwidth of cross-device fetches; unset = the device's memory bandwidth (original).
  std::optional<double> fetch_bandwidth_gb_per_s;
  // A layer pass takes max(compute, memory) instead of their sum (a roofline).
  bool roofline = false;
  // Layers fed by the input image also compute its gradient (a "full" backprop: adversarial
  // examples, saliency; some benchmarks time it). Off: the input needs no gradient.
  bool input_gradient = false;
  // Activations stored NCHW (PyTorch's default memory format), not channels-last: under a software
  // era each tensor-core convolution pass adds cuDNN's layout conversions (core/cost/layout_conversion.h).
  bool nchw_tensors = false;
  // The time asked for is the device time of the kernels launched back to back (a benchmark loop
  // of one kernel, a profiler's kernel time), not a framework's step: under a software era each
  // kernel's launch then overlaps the kernel before it (CostModel::launch_ms), and no step overhead.
  bool kernel_timing = false;
  // The step's kernels are replayed from a captured CUDA graph, not issued one by one by the
  // framework: under a software era each costs the device's own launch time
  // (core/efficiency/cuda_graph_launch.h) instead of the era's kernel_overhead_ms.
  bool cuda_graph_step = false;
  // The framework's batch norm also performs the ReLU after it, or the residual add and the ReLU
  // (MXNet's --fuse-bn-relu / --fuse-bn-add-relu, cuDNN's BN_ACTIVATION / BN_ADD_ACTIVATION ops):
  // one kernel each way for the chain, none for the ReLU and the add (core/cost/batchnorm_activation_fusion.h).
  bool fused_batchnorm_activation = false;
};

struct LayerCost {
  // Each as the original's `profile` command reports it: including the layer's fetch time.
  PassCost forward, backward_data, backward_filter;
  // Both gradients with the fetch counted once (the original's backward pass).
  PassCost backward;
  double fetch_ms = 0;
};

// Original _profile_innerproduct: X [a, b] times W [b, c] into Y [a, c]. `weight` names the
// operand that is the weight matrix (0: none, 1: X, 2: W, 3: Y) for its storage format.
PassCost matmul_cost(const CostModel& model, double a, double b, double c, int weight);

// `fusion`: the layer's part in a fused batch-norm chain (layer_fusion), priced only by profiles that
// cost memory-bound layers. No default: a caller that left it out would drop the request's fusion.
LayerCost layer_cost(const Network& net, const Layer& layer, const CostModel& model, const CostOptions& options,
                     BatchNormFusion fusion);

// The same without any cross-device fetch: the layer alone, at the shapes it holds (usable for
// a layer whose shapes were cut for a parallel configuration).
LayerCost layer_compute_cost(const Layer& layer, const CostModel& model, const CostOptions& options,
                             BatchNormFusion fusion);

// Each layer's part in a fused chain under options.fused_batchnorm_activation; all kNone without it.
std::vector<BatchNormFusion> layer_fusion(const Network& net, const CostOptions& options);

}  // namespace paleo
