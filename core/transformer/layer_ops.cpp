#include "core/transformer/layer_ops.h"

#include <algorithm>
#include <cmath>

#include "core/transformer/eager_elementwise.h"

namespace paleo {
namespace {

constexpr double kMaskBytes = 1;  // dropout masks are kept as bytes (Korthikanti 2022)
constexpr double kStatBytes = 4;  // fp32 softmax statistics and probabilities

struct Dims {
  double tokens;     // T: tokens of the micro-batch on this device (sequence split by cp)
  double h, t, ab;   // hidden, tensor-parallel degree, activation bytes
  double rep;        // divisor of tensors replicated under TP: tp with sequence parallelism, else 1
  double mask;       // bytes of a dropout mask per element (0 without dropout)
  bool eager;        // PyTorch's eager composites for RMSNorm, rotary and gated activations
};

Dims dims(const TransformerConfig& c, const OpContext& x) {
  Dims d;
  d.tokens = x.micro_batch * x.seq_len / static_cast<double>(x.cp);
  d.h = static_cast<double>(c.hidden);
  d.t = static_cast<double>(x.tp);
  d.ab = dtype_bytes(x.activations);
  d.rep = x.sequence_parallel ? d.t : 1;
  d.mask = c.dropout > 0 ? kMaskBytes : 0;
  d.eager = !x.fused_elementwise;
  return d;
}

double norm_params(const TransformerConfig& c) {
  return c.norm == NormKind::kLayerNorm ? 2.0 * static_cast<double>(c.hidden) : static_cast<double>(c.hidden);
}

TransformerOp linear(const std::string& name, double m, double n, double k, double params, double saved) {
  TransformerOp op;
  op.name = name;
  op.type = "Linear";
  op.op_class = OpClass::kMatmul;
  op.fp8_eligible = true;
  op.m = m;
  op.n = n;
  op.k = k;
  op.params = params;
  op.saved_bytes = saved;
  return op;
}

TransformerOp memory_op(const std::string& name, const std::string& type, double fwd_bytes, double bwd_bytes,
                        double saved, double params = 0) {
  TransformerOp op;
  op.name = name;
  op.type = type;
  op.fwd_bytes = fwd_bytes;
  op.bwd_bytes = bwd_bytes;
  op.saved_bytes = saved;
  op.params = params;
  return op;
}

// An element-wise operator over `elements` run as PyTorch's eager composite.
TransformerOp eager_op(const std::string& name, const std::string& type, double elements, const EagerCost& cost,
                       double saved, double params = 0) {
  TransformerOp op = memory_op(name, type, elements * cost.fwd_bytes_per_element, elements * cost.bwd_bytes_per_element,
                               saved, params);
  op.fwd_kernels = cost.fwd_kernels;
  op.bwd_kernels = cost.bwd_kernels;
  return op;
}

// A norm over T x h (replicated under TP unless sequence parallel): reads x, writes y; the
// backward reads x and dy and writes dx. It keeps its input.
TransformerOp norm_op(const std::string& name, const TransformerConfig& c, const Dims& d) {
  const double elems = d.tokens * d.h / d.rep;
  if (d.eager && c.norm == NormKind::kRmsNorm)
    return eager_op(name, "RMSNorm", elems, eager_rms_norm(d.ab), elems * d.ab, norm_params(c));
  return memory_op(name, c.norm == NormKind::kRmsNorm ? "RMSNorm" : "LayerNorm", 2 * elems * d.ab, 3 * elems * d.ab,
                   elems * d.ab, norm_params(c));
}

// Megatron's fused bias-dropout-add: reads the branch and the residual, writes the sum (and the
// mask); the backward applies the mask to the gradient (nothing to do without dropout).
TransformerOp dropout_add_op(const std::string& name, const Dims& d) {
  const double elems = d.tokens * d.h / d.rep;
  const double bwd = d.mask > 0 ? elems * (2 * d.ab + d.mask) : 0;
  return memory_op(name, "DropoutAdd", elems * (3 * d.ab + d.mask), bwd, elems * d.mask);
}

// The MLP's activation over `elements` outputs; a gated one (SwiGLU, GeGLU) reads both halves of
// the up-projection.
TransformerOp activation_op(const std::string& name, const TransformerConfig& c, const Dims& d, double elements) {
  if (!c.gated())
    return memory_op(name, c.activation == Activation::kRelu ? "ReLU" : "GELU", 2 * elements * d.ab,
                     3 * elements * d.ab, elements * d.ab);
  const std::string type = c.activation == Activation::kSwiglu ? "SwiGLU" : "GeGLU";
  if (d.eager) return eager_op(name, type, elements, eager_gated_activation(d.ab), 2 * elements * d.ab);
  return memory_op(name, type, 3 * elements * d.ab, 5 * elements * d.ab, 2 * elements * d.ab);
}

// `width_split`: the ranks the MLP's inner size is split over (tp; an expert's: expert_tp).
void add_mlp(std::vector<TransformerOp>& ops, const std::string& prefix, const TransformerConfig& c, const Dims& d,
             double tokens, double ffn, double width_split, double matrices, double params_scale, bool moe) {
  const double f = ffn / width_split;
  const double up_n = (c.gated() ? 2 : 1) * f;
  const double bias = c.bias ? 1 : 0;
  TransformerOp up = linear(prefix + ".up", tokens / matrices, up_n, d.h,
                            params_scale * (d.h * up_n + bias * up_n), moe ? tokens * d.h * d.ab : 0);
  up.batches = matrices;
  TransformerOp act = activation_op(prefix + ".act", c, d, tokens * f);
  TransformerOp down = linear(prefix + ".down", tokens / matrices, d.h, f, params_scale * (f * d.h + bias * d.h),
                              tokens * f * d.ab);
  down.batches = matrices;
  for (TransformerOp* op : {&up, &act, &down}) op->moe = moe;
  ops.push_back(up);
  ops.push_back(act);
  ops.push_back(down);
}

void add_moe_mlp(std::vector<TransformerOp>& ops, const TransformerConfig& c, const OpContext& x, const Dims& d) {
  const double experts = static_cast<double>(c.moe.experts), k = static_cast<double>(c.moe.top_k);
  const double local_experts = experts / static_cast<double>(x.ep);
  // Tokens this device's experts process (balanced routing): each of the tp ranks routes its
  // slice of the micro-batch, and an expert's expert_tp ranks all see its tokens; T k at expert_tp = tp.
  const double etp = static_cast<double>(x.etp);
  const double routed = d.tokens * k * etp / d.t;
  TransformerOp router = linear("mlp.router", d.tokens, experts, d.h, d.h * experts, 0);
  router.fp8_eligible = false;  // Megatron-Core keeps the router in fp32/bf16 under fp8
  ops.push_back(router);
  ops.push_back(memory_op("mlp.dispatch", "Permute", 2 * routed * d.h * d.ab, 2 * routed * d.h * d.ab, 0));
  add_mlp(ops, "mlp.experts", c, d, routed, static_cast<double>(c.expert_ffn()), etp, local_experts, local_experts,
          true);
  if (c.moe.shared_experts > 0) {
    const double shared = static_cast<double>(c.moe.shared_experts);
    add_mlp(ops, "mlp.shared", c, d, d.tokens, shared * static_cast<double>(c.expert_ffn()), d.t, 1, 1, false);
  }
  ops.push_back(memory_op("mlp.combine", "Combine", (routed + d.tokens) * d.h * d.ab, (routed + d.tokens) * d.h * d.ab,
                          routed * d.h * d.ab));
}

}  // namespace

namespace {

double product_flops(const TransformerOp& op) {
  if (op.op_class == OpClass::kMatmul) return 2 * op.m * op.n * op.k * op.batches;
  if (op.op_class == OpClass::kAttention) return 2 * (2 * op.m * op.n * op.k * op.batches);  // scores and context
  return 0;
}

}  // namespace

double TransformerOp::model_flops_fwd() const { return product_flops(*this) * model_scale; }

double TransformerOp::fwd_flops() const { return product_flops(*this) * causal_fraction; }

double TransformerOp::bwd_flops() const {
  if (op_class == OpClass::kMatmul) return 2 * fwd_flops();
  // Flash attention's backward recomputes the scores: 5 products against the forward's 2.
  if (op_class == OpClass::kAttention) return (flash ? 2.5 : 2.0) * fwd_flops();
  return 0;
}

double padded_vocab(std::int64_t vocab, std::int64_t tp) {
  const double multiple = 128.0 * static_cast<double>(tp);
  return std::ceil(static_cast<double>(vocab) / multiple) * multiple;
}

OpContext op_context(const TransformerConfig& c, const TrainingOptions& o) {
  OpContext x;
  x.micro_batch = static_cast<double>(o.micro_batch);
  x.seq_len = static_cast<double>(o.seq_len);
  x.tp = o.parallel.tp;
  x.cp = o.parallel.cp;
  x.ep = o.parallel.ep;
  x.etp = o.parallel.etp();
  x.sequence_parallel = o.parallel.sequence_parallel && o.parallel.tp > 1;
  x.activations = o.precision.activations;
  x.attention = o.attention;
  x.vocab_padded = padded_vocab(c.vocab, o.parallel.tp);
  x.fused_elementwise = o.fused_elementwise;
  return x;
}

std::vector<TransformerOp> layer_ops(const TransformerConfig& c, const OpContext& x, bool moe_layer) {
  const Dims d = dims(c, x);
  // With fewer key/value heads than TP ranks each rank keeps (a replica of) one.
  const double q = static_cast<double>(c.q_size()) / d.t;
  const double kv = std::max(static_cast<double>(c.kv_size()) / d.t, static_cast<double>(c.head_dim));
  const double bias = c.bias ? 1 : 0, qkv_bias = (c.bias || c.qkv_bias) ? 1 : 0;
  std::vector<TransformerOp> ops;
  ops.push_back(norm_op("attention.norm", c, d));
  // Keeps its input and its outputs Q, K, V for the attention backward.
  TransformerOp qkv = linear("attention.qkv", d.tokens, q + 2 * kv, d.h, d.h * (q + 2 * kv) + qkv_bias * (q + 2 * kv),
                             d.tokens * d.h * d.ab / d.rep + d.tokens * (q + 2 * kv) * d.ab);
  qkv.fp8_input_from_norm = true;
  ops.push_back(qkv);
  if (c.position == PositionKind::kRotary && d.eager)
    ops.push_back(eager_op("attention.rotary", "Rotary", d.tokens * (q + kv), eager_rotary(d.ab), 0));
  else if (c.position == PositionKind::kRotary)
    ops.push_back(memory_op("attention.rotary", "Rotary", 2 * d.tokens * (q + kv) * d.ab, 2 * d.tokens * (q + kv) * d.ab, 0));

  TransformerOp core;
  core.name = "attention.core";
  core.type = x.attention == AttentionKernel::kFlash ? "FlashAttention" : "Attention";
  core.op_class = OpClass::kAttention;
  const double heads = static_cast<double>(c.heads) / d.t, head_dim = static_cast<double>(c.head_dim);
  core.m = x.seq_len / static_cast<double>(x.cp);
  core.n = x.seq_len;
  core.k = head_dim;
  core.batches = x.micro_batch * heads;
  core.attention_core = true;
  const double scores = core.batches * core.m * core.n;  // s x s elements per device
  if (x.attention == AttentionKernel::kFlash) {
    core.flash = true;
    core.causal_fraction = c.causal ? 0.5 : 1;
    core.saved_bytes = core.batches * core.m * kStatBytes;  // the row log-sum-exp
    ops.push_back(core);
  } else {
    ops.push_back(core);
    const double mask = d.mask;
    const double fwd = scores * (2 * d.ab) + (mask > 0 ? scores * (2 * d.ab + mask) : 0);
    const double bwd = scores * (3 * d.ab) + (mask > 0 ? scores * (2 * d.ab + mask) : 0);
    const double saved = scores * d.ab + (mask > 0 ? scores * (mask + d.ab) : 0);
    TransformerOp softmax = memory_op("attention.softmax", mask > 0 ? "SoftmaxDropout" : "Softmax", fwd, bwd, saved);
    softmax.attention_core = true;
    ops.push_back(softmax);
  }
  ops.push_back(linear("attention.out", d.tokens, d.h, q, q * d.h + bias * d.h, d.tokens * q * d.ab));
  ops.push_back(dropout_add_op("attention.dropout_add", d));
  ops.push_back(norm_op("mlp.norm", c, d));
  if (moe_layer) {
    add_moe_mlp(ops, c, x, d);
  } else {
    // The up-projection keeps its input (the norm's output).
    std::vector<TransformerOp> mlp;
    add_mlp(mlp, "mlp", c, d, d.tokens, static_cast<double>(c.ffn_hidden), d.t, 1, 1, false);
    mlp[0].saved_bytes = d.tokens * d.h * d.ab / d.rep;
    mlp[0].fp8_input_from_norm = true;
    ops.insert(ops.end(), mlp.begin(), mlp.end());
  }
  ops.push_back(dropout_add_op("mlp.dropout_add", d));
  return ops;
}

std::vector<TransformerOp> embedding_ops(const TransformerConfig& c, const OpContext& x) {
  const Dims d = dims(c, x);
  double params = x.vocab_padded * d.h / d.t;  // vocabulary-parallel
  if (c.position == PositionKind::kLearned)
    params += static_cast<double>(c.max_positions ? c.max_positions : c.seq_len) * d.h;
  params += static_cast<double>(c.type_vocab) * d.h + (c.type_vocab ? norm_params(c) : 0);
  std::vector<TransformerOp> ops;
  ops.push_back(memory_op("embedding.lookup", "Embedding", 2 * d.tokens * d.h * d.ab, 3 * d.tokens * d.h * d.ab, 0, params));
  if (d.mask > 0) {
    const double elems = d.tokens * d.h / d.rep;
    ops.push_back(memory_op("embedding.dropout", "Dropout", elems * (2 * d.ab + d.mask), elems * (2 * d.ab + d.mask),
                            elems * d.mask));
  }
  return ops;
}

std::vector<TransformerOp> head_ops(const TransformerConfig& c, const OpContext& x) {
  const Dims d = dims(c, x);
  std::vector<TransformerOp> ops;
  if (!(c.type_vocab && !c.causal)) ops.push_back(norm_op("head.norm", c, d));
  const double v = x.vocab_padded / d.t;
  // A tied head shares the embedding's weights (the pipeline's last stage keeps a copy: see
  // transformer/stage_plan.h); an untied one owns them.
  TransformerOp logits = linear("head.logits", d.tokens, v, d.h, c.tied_embeddings ? 0 : v * d.h, d.tokens * d.h * d.ab / d.rep);
  logits.model_scale = static_cast<double>(c.vocab) / x.vocab_padded;
  logits.fp8_eligible = false;  // the output layer stays in bf16 under Transformer Engine's fp8 recipe
  ops.push_back(logits);
  // Vocabulary-parallel cross-entropy on fp32 logits: keeps the fp32 probabilities.
  const double elems = d.tokens * v;
  ops.push_back(memory_op("head.cross_entropy", "CrossEntropy", elems * (d.ab + kStatBytes), elems * (kStatBytes + d.ab),
                          elems * kStatBytes));
  return ops;
}

namespace {

// Output columns of the unfused products an operator stands for, in the order a block issues
// them: the fused QKV projection is wq, wk, wv; a gated up-projection is w1 then w3.
std::vector<double> product_columns(const TransformerOp& op, const TransformerConfig& c, const Dims& d) {
  const auto ends_with = [&](const std::string& tail) {
    return op.name.size() >= tail.size() && op.name.compare(op.name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends_with(".qkv")) {
    const double q = static_cast<double>(c.q_size()) / d.t, kv = (op.n - q) / 2;
    return {q, kv, kv};
  }
  if (ends_with(".up") && c.gated()) return {op.n / 2, op.n / 2};
  return {op.n};
}

}  // namespace

double selective_op_saved_bytes(const std::vector<TransformerOp>& ops, const OpContext& x, const TransformerConfig& c) {
  // torchtitan's op-level policy (parallelize_llama.py, _custom_policy: "Saves output of all
  // compute ops, except every second mm", counted per block): the block's input (checkpoint's),
  // the flash kernel's output and row statistics, and the outputs of products 1, 3, 5, ... in the
  // block's order (Llama: wq, wv, w1, w2 of wq, wk, wv, wo, w1, w3, w2). Under sequence
  // parallelism its reduce-scatters' outputs (after wo and w2) are in the saved list too.
  const Dims d = dims(c, x);
  double bytes = d.tokens * d.h * d.ab / d.rep;
  int products = 0;
  for (const TransformerOp& op : ops) {
    if (op.op_class == OpClass::kAttention && op.flash)
      bytes += op.saved_bytes + d.tokens * static_cast<double>(c.q_size()) / d.t * d.ab;
    if (op.op_class != OpClass::kMatmul) continue;
    for (const double columns : product_columns(op, c, d))
      if (++products % 2 == 1) bytes += op.m * op.batches * columns * d.ab;
  }
  if (x.sequence_parallel) bytes += 2 * d.tokens * d.h * d.ab / d.t;
  return bytes;
}

bool recomputed(const TransformerOp& op, Recompute r) { return recompute_share(op, r) > 0; }

double recompute_share(const TransformerOp& op, Recompute r) {
  switch (r) {
    case Recompute::kFull: return 1;
    case Recompute::kSelective: return op.attention_core && !op.flash ? 1 : 0;
    case Recompute::kSelectiveOp:
      if (op.op_class == OpClass::kMemory) return op.fwd_bytes > 0 ? 1 : 0;
      return op.op_class == OpClass::kMatmul ? 0.5 : 0;
    case Recompute::kNone: break;
  }
  return 0;
}

double layer_saved_bytes(const std::vector<TransformerOp>& ops, Recompute r, const OpContext& x,
                         const TransformerConfig& c) {
  if (r == Recompute::kFull) {
    const Dims d = dims(c, x);
    return d.tokens * d.h * d.ab / d.rep;  // the layer's input only
  }
  if (r == Recompute::kSelectiveOp) return selective_op_saved_bytes(ops, x, c);
  double bytes = 0;
  for (const TransformerOp& op : ops)
    if (!(r == Recompute::kSelective && op.attention_core)) bytes += op.saved_bytes;
  return bytes;
}

}  // namespace paleo
