#include "core/transformer/training_memory.h"

#include <algorithm>

namespace paleo {
namespace {

constexpr double kCublasWorkspaceBytes = 32.0 * 1024 * 1024;
constexpr double kAmaxHistory = 1024;  // Transformer Engine's default amax history length

double ops_saved(const std::vector<TransformerOp>& ops) {
  double b = 0;
  for (const TransformerOp& op : ops) b += op.saved_bytes;
  return b;
}

}  // namespace

double loss_transient_bytes_per_logit(const TrainingOptions& o, const OpContext& x) {
  const double low = dtype_bytes(x.activations);
  if (o.fused_cross_entropy) return low;  // the low-precision logits, read by one fused kernel
  // cross_entropy(logits.float(), labels) in autograd: the forward holds the logits and their fp32
  // copy while log-softmax writes its (saved) fp32 output; the backward holds nll_loss's fp32
  // gradient and log-softmax's fp32 gradient beside that saved output. The low-precision logits
  // still take their bytes then: torchtitan's train.py frees them ("del pred" before
  // loss.backward()), but the caching allocator keeps their block reserved and cannot hand it to
  // the backward's fp32 gradients, each twice its size (nll_loss's reuses the fp32 copy's block,
  // log-softmax's needs a new one); under a pipeline the stage holds its output until that
  // micro-batch's backward (torch/distributed/pipelining/stage.py: backward_one_chunk takes it
  // back with self.fwd_cache.pop(bwd_chunk_id)). The backward is the larger.
  if (x.tp <= 1) return low + 4.0 + 4.0;
  // Vocabulary-parallel (PyTorch's loss_parallel, torch/distributed/tensor/parallel/loss.py):
  // _log_softmax writes `shifted = x - x_max` and `torch.exp(shifted)` beside the fp32 copy
  // before its result; the fused backward returns `(grad_input + torch.exp(x)) * grad_output`
  // with grad_input a zeros_like(x): three fp32 tensors beside the saved output (and the logits).
  return low + 4.0 + 4.0 + 4.0;
}

int optimizer_moments(Optimizer o) { return o == Optimizer::kAdam ? 2 : o == Optimizer::kMomentum ? 1 : 0; }

ModelStateBytes model_state_bytes(double params, const PrecisionPolicy& p, Optimizer o, int zero, std::int64_t shards) {
  const double nd = static_cast<double>(std::max<std::int64_t>(1, shards));
  ModelStateBytes m;
  m.params = params * dtype_bytes(p.params) / (zero >= 3 ? nd : 1);
  m.gradients = params * dtype_bytes(p.gradients) / (zero >= 2 ? nd : 1);
  m.optimizer = params * p.optimizer_bytes_per_param(optimizer_moments(o)) / (zero >= 1 ? nd : 1);
  return m;
}

double in_flight_micro_batches(const std::string& schedule, std::int64_t stage, std::int64_t pp, std::int64_t v, std::int64_t m) {
  if (schedule == "gpipe") return static_cast<double>(m);
  double kept = static_cast<double>(pp - stage);
  if (v > 1) kept += static_cast<double>(pp - 1) / static_cast<double>(v);
  return std::min(static_cast<double>(m), kept);
}

double stage_activation_bytes(const StagePlan& s, const ModelOps& ops, const TransformerConfig& c,
                              const OpContext& x, Recompute r) {
  double bytes = static_cast<double>(s.layers - s.moe_layers) * layer_saved_bytes(ops.dense_layer, r, x, c);
  if (s.moe_layers) bytes += static_cast<double>(s.moe_layers) * layer_saved_bytes(ops.moe_layer, r, x, c);
  if (s.embedding) bytes += ops_saved(ops.embedding);
  if (s.head) bytes += ops_saved(ops.head);
  return bytes;
}

TransformerMemory training_memory(const TransformerConfig& c, const TrainingOptions& o, const ModelOps& ops,
                                  const OpContext& x, const std::vector<StagePlan>& stages, double capacity_bytes) {
  const ParallelLayout& p = o.parallel;
  const std::int64_t shards = p.dp * p.cp;
  TransformerMemory worst;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const StagePlan& s = stages[i];
    TransformerMemory m;
    m.stage = static_cast<std::int64_t>(i);
    m.capacity_bytes = capacity_bytes;
    m.runtime_bytes = kCudaRuntimeBytes;
    // Experts are replicated over the expert data-parallel ranks only: ZeRO shards them that many ways.
    const ModelStateBytes dense =
        model_state_bytes(s.params - s.expert_params, o.precision, o.optimizer, o.zero, shards);
    const ModelStateBytes experts = model_state_bytes(s.expert_params, o.precision, o.optimizer, o.zero, p.expert_dp());
    m.params_bytes = dense.params + experts.params;
    m.gradients_bytes = dense.gradients + experts.gradients;
    m.optimizer_bytes = dense.optimizer + experts.optimizer;
    const double in_flight = in_flight_micro_batches(o.schedule, m.stage, p.pp, p.virtual_stages, o.micro_batches());
    m.activations_bytes = in_flight * stage_activation_bytes(s, ops, c, x, o.recompute);
    if (o.precision.fp8 && o.fp8_weight_copy) {
      // An fp8 copy of every weight, and per linear operator three amax histories (input,
      // weight, gradient) with their scales (Transformer Engine's delayed scaling).
      double linears = 0;
      for (const TransformerOp& op : ops.dense_layer) linears += op.op_class == OpClass::kMatmul ? 1 : 0;
      m.fp8_state_bytes = s.params + static_cast<double>(s.layers) * linears * 3 * (kAmaxHistory + 2) * 4;
    }
    // Transient buffers: cuBLAS workspace; full recompute rebuilds one layer's activations; the
    // loss's buffers beside its saved fp32 output; ZeRO-3 gathers two layers' weights ahead.
    double transient = 0;
    if (o.recompute != Recompute::kNone) transient = layer_saved_bytes(ops.dense_layer, Recompute::kNone, x, c);
    if (s.head)
      for (const TransformerOp& op : ops.head)
        if (op.name == "head.logits") transient = std::max(transient, op.m * op.n * loss_transient_bytes_per_logit(o, x));
    m.workspace_bytes = kCublasWorkspaceBytes + transient;
    if (o.zero >= 3) m.workspace_bytes += 2 * ops_params(ops.dense_layer) * dtype_bytes(o.precision.params);
    // Weights kept after the forward pass stay gathered, the whole stage's, until the backward.
    if (o.zero >= 3 && !o.reshards_after_forward()) m.params_bytes += s.params * dtype_bytes(o.precision.params);
    // FSDP never reshards its root unit after the forward (the embedding, final norm and output
    // layer that wrapping each layer leaves to it): they stay gathered through the backward.
    // FSDP2's FSDPState._lazy_init: "For the root, do not reshard after forward since for
    // training, the parameters would be freed and all-gathered immediately"; FSDP1's
    // _post_forward_reshard: "Do not free the root's parameters in the post-forward".
    if (o.zero >= 3 && o.reshards_after_forward() && o.zero3_gather == Zero3Gather::kLayerPrefetched)
      m.params_bytes += ((s.embedding ? ops_params(ops.embedding) : 0) + (s.head ? ops_params(ops.head) : 0)) *
                        dtype_bytes(o.precision.params);
    // ... and under a pipeline the gradients accumulate unsharded until the last micro-batch, in
    // the reduction's format when it is wider (FSDP2's to_accumulated_grad_if_needed:
    // "self.unsharded_accumulated_grad = unsharded_grad.to(self.reduce_dtype)").
    if (o.zero3_once_per_step())
      m.gradients_bytes +=
          s.params * std::max(dtype_bytes(o.precision.gradients), dtype_bytes(o.precision.grad_reduce));
    if (i == 0 || m.total_bytes() > worst.total_bytes()) worst = m;
  }
  return worst;
}

}  // namespace paleo
