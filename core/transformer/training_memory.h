#pragma once
// Memory per device of transformer training: model states per precision and ZeRO stage
// (Rajbhandari et al. 2020: (2 + 2 + K) x params, K = 12 for mixed-precision Adam, partitioned
// over the Nd data-parallel ranks by stage), activations of the micro-batches in flight in the
// pipeline (Korthikanti et al. 2022), fp8 scaling state and workspaces.
#include <cstdint>

#include "core/transformer/stage_plan.h"

namespace paleo {

struct ModelStateBytes {
  double params = 0;
  double gradients = 0;
  double optimizer = 0;  // fp32 master copy + optimizer moments
};

int optimizer_moments(Optimizer o);

// Stage 1 partitions the optimizer state, 2 also the gradients, 3 also the parameters.
ModelStateBytes model_state_bytes(double params, const PrecisionPolicy& p, Optimizer o, int zero, std::int64_t shards);

// Micro-batches whose activations stage `stage` (0-based) of `pp` keeps at its peak: GPipe all
// m; 1F1B min(m, pp - stage); interleaved 1F1B with v chunks adds (pp - 1) / v on top
// (Korthikanti 2022 section 4.2.3: the first stage keeps pp x (1 + (pp - 1) / (pp v))).
double in_flight_micro_batches(const std::string& schedule, std::int64_t stage, std::int64_t pp, std::int64_t v, std::int64_t m);

// Bytes per logit the loss holds at its peak beside the saved fp32 log-softmax output (counted
// with the activations): the low-precision logits when the loss is fused, else the backward's fp32
// gradients beside the logits' block (freed, yet still reserved by the caching allocator).
double loss_transient_bytes_per_logit(const TrainingOptions& o, const OpContext& x);

// The CUDA context with the kernels loaded into it, which takes device memory outside the
// framework's allocator: 1343 MiB, measured by Hugging Face's single-GPU training guide (V100,
// driver 460.91, CUDA 11.2) as nvidia-smi's used memory after one tiny tensor is moved to the GPU.
// The one published figure at hand; it depends on driver, CUDA version and the libraries loaded.
constexpr double kCudaRuntimeBytes = 1343.0 * 1024 * 1024;

struct TransformerMemory {
  double params_bytes = 0;
  double gradients_bytes = 0;
  double optimizer_bytes = 0;
  double activations_bytes = 0;
  double fp8_state_bytes = 0;
  double workspace_bytes = 0;
  double runtime_bytes = 0;   // CUDA context and kernels: not the allocator's (kCudaRuntimeBytes)
  double capacity_bytes = 0;  // 0 = unknown
  std::int64_t stage = 0;             // the pipeline stage these figures are for
  // What the framework's caching allocator holds at the peak: the live tensors (PyTorch's
  // torch.cuda.max_memory_reserved; of its reserve beyond them only the unfused loss's freed
  // logits, whose block it cannot reuse, is priced: loss_transient_bytes_per_logit).
  double allocator_reserved_bytes() const {
    return params_bytes + gradients_bytes + optimizer_bytes + activations_bytes + fp8_state_bytes + workspace_bytes;
  }
  // Everything that occupies the device (nvidia-smi's used memory): what fits is judged on.
  double total_bytes() const { return allocator_reserved_bytes() + runtime_bytes; }
  bool fits() const { return capacity_bytes <= 0 || total_bytes() <= capacity_bytes; }
};

// Activations one micro-batch leaves on a stage (its layers, and the embedding or head).
double stage_activation_bytes(const StagePlan& s, const ModelOps& ops, const TransformerConfig& c,
                              const OpContext& x, Recompute r);

// The stage whose footprint is largest.
TransformerMemory training_memory(const TransformerConfig& c, const TrainingOptions& o, const ModelOps& ops,
                                  const OpContext& x, const std::vector<StagePlan>& stages, double capacity_bytes);

}  // namespace paleo
