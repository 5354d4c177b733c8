#pragma once
// The options of a transformer training (or inference) estimate: parallel layout, batch and
// sequence, precision, recompute, ZeRO stage, attention kernel and optimizer.
#include <algorithm>
#include <cstdint>
#include <string>

#include "core/cluster/collectives.h"
#include "core/efficiency/kernel_efficiency.h"
#include "core/cost/layer_cost.h"
#include "core/precision/precision_policy.h"
#include "core/transformer/transformer_config.h"

namespace paleo {

// Korthikanti et al. 2022 (selective: the attention core; full: every layer), and torchtitan's
// selective op-level checkpointing (kSelectiveOp: keeps the matrix products' and the attention
// kernel's outputs, except every second product's, and reruns everything else).
enum class Recompute { kNone, kSelective, kSelectiveOp, kFull };
enum class Zero3Gather { kLayerPrefetched, kTensorBlocking };
// Which passes run their sequence-parallel TP collectives under the linear layers' GEMMs:
// none; the forward only (torchtitan's async TP: its post reports ~20-29 % faster forward passes
// and ~8 % end to end); forward and backward (Transformer Engine's userbuffers, Megatron-Core's
// --tp-comm-overlap: the fprop, dgrad and wgrad overlaps).
enum class TpCommOverlap { kNone, kForward, kForwardBackward };
enum class AttentionKernel { kFlash, kMaterialized };  // fused (Dao 2022) or s x s scores in memory

struct ParallelLayout {
  std::int64_t tp = 1;              // tensor parallel (Megatron column/row split)
  std::int64_t pp = 1;              // pipeline stages
  std::int64_t dp = 1;              // data-parallel replicas
  std::int64_t cp = 1;              // context parallel: the sequence split across devices
  std::int64_t ep = 1;              // expert parallel (MoE) over a stage's tp x cp x dp ranks
  std::int64_t virtual_stages = 1;  // interleaved 1F1B chunks per device (1 = plain schedule)
  bool sequence_parallel = false;  // norms and dropout split along the sequence under TP
  // Expert tensor parallelism: the ranks one expert's width is split over; 0 = tp (Megatron-LM's
  // default). Below tp the experts fold over the TP ranks too ("parallel folding": a stage's
  // tp x cp x dp ranks are also expert_tp x ep x expert data-parallel ranks). Last, so that
  // brace-initialised layouts keep their order.
  std::int64_t expert_tp = 0;
  std::int64_t devices() const { return tp * pp * dp * cp; }
  std::int64_t etp() const { return expert_tp > 0 ? expert_tp : tp; }
  // Ranks holding the same experts (their gradients are reduced over them).
  std::int64_t expert_dp() const { return std::max<std::int64_t>(1, tp * cp * dp / (etp() * ep)); }
};

struct TrainingOptions {
  ParallelLayout parallel;
  PrecisionPolicy precision = precision_policy("bf16", "precision");
  std::int64_t seq_len = 2048;
  std::int64_t micro_batch = 1;      // sequences per micro-batch per replica
  std::int64_t global_batch = 1;     // sequences per step, all replicas
  std::string schedule = "1f1b";  // "gpipe" or "1f1b" (interleaved when virtual_stages > 1)
  Recompute recompute = Recompute::kNone;
  int zero = 0;              // ZeRO stage 0..3 (3 = FSDP)
  AttentionKernel attention = AttentionKernel::kFlash;
  Optimizer optimizer = Optimizer::kAdam;
  bool overlap = true;       // gradient reduction overlapped with the last backward pass
  // ZeRO-3 / FSDP: free each layer's gathered weights after its forward pass and gather them again
  // for its backward (FSDP's reshard_after_forward, DeepSpeed ZeRO-3); false keeps them to the
  // backward pass (FSDP's SHARD_GRAD_OP keeps them across micro-batches).
  bool reshard_after_forward = true;
  // torchtitan's default policy, reshard_after_forward = not pp_enabled: the choice follows the
  // layout's pipeline (reshards_after_forward), whichever layout the options are priced with.
  bool reshard_unless_pipeline = false;
  bool reshards_after_forward() const { return reshard_unless_pipeline ? parallel.pp == 1 : reshard_after_forward; }
  // ZeRO-3: how the stack gathers a layer's weights (zero3_exposure.h). Prefetched per layer
  // (FSDP's flat parameters, one layer ahead of the compute), or per weight tensor and blocking
  // (DeepSpeed's ZeRO-3 of 2021: each sub-module's gathers wait for the device before and after).
  // Per layer is FSDP's wrapping, whose root unit (embedding, output layer) stays gathered.
  Zero3Gather zero3_gather = Zero3Gather::kLayerPrefetched;
  // Under a pipeline, weights kept after the forward pass stay gathered through every micro-batch
  // of the step and the gradients accumulate unsharded until the last one (PyTorch's pipeline
  // stages turn off FSDP's resharding after backward and its gradient sync for all but the last
  // micro-batch): one gather and one reduce-scatter per step.
  bool zero3_once_per_step() const { return zero >= 3 && !reshards_after_forward() && parallel.pp > 1; }
  // fp8: a cached fp8 copy of every weight (Transformer Engine keeps it across micro-batches);
  // false: cast at each use and dropped (torchao's float8 training).
  bool fp8_weight_copy = true;
  // The loss over the vocabulary in one fused kernel on the low-precision logits (Megatron's
  // vocabulary-parallel cross-entropy); false: the logits cast to an fp32 copy first, live beside
  // them while the loss runs (torchtitan's cross_entropy(pred.float(), labels)).
  bool fused_cross_entropy = true;
  // RMSNorm, the rotary embedding and gated activations each one kernel each way (Megatron's and
  // Transformer Engine's fused kernels, or torch.compile's); false: PyTorch's eager composites,
  // one kernel per elementary operator (transformer/eager_elementwise.h).
  bool fused_elementwise = true;
  // With sequence parallelism, each TP all-gather and reduce-scatter split into pieces that run
  // under the linear layer's GEMM next to it (transformer/layer_communication.h).
  TpCommOverlap tp_comm_overlap = TpCommOverlap::kNone;
  bool pp_scatter_gather = true;  // pipeline messages split over the TP group (Narayanan 2021)
  KernelEfficiency efficiency;    // of the software era (core/efficiency/software_era.h)
  // The stack's collective library (the era's, e.g. NCCL under torch.distributed): which
  // algorithms its TP, CP, EP, DP and ZeRO collectives may run; kAny: the fastest of all.
  CollectiveLibrary collective_library = CollectiveLibrary::kAny;
  std::int64_t micro_batches() const { return global_batch / (parallel.dp * micro_batch); }
};

const char* recompute_name(Recompute r);
Recompute parse_recompute(const std::string& s, const std::string& field);
const char* attention_name(AttentionKernel a);
AttentionKernel parse_attention(const std::string& s, const std::string& field);
const char* zero3_gather_name(Zero3Gather g);
// "layer_prefetched" or "tensor_blocking"; throws paleo::Error naming `field`.
Zero3Gather parse_zero3_gather(const std::string& s, const std::string& field);
TpCommOverlap parse_tp_comm_overlap(const std::string& s, const std::string& field);

}  // namespace paleo
