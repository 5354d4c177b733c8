#pragma once
// The operators of a transformer, per device and per micro-batch, under tensor, sequence,
// context and expert parallelism: their FLOPs (executed, and counted the conventional way for
// MFU), memory traffic, parameters and the activations each keeps for the backward pass
// (Korthikanti et al. 2022, section 4, generalised to GQA, gated MLPs, flash attention and
// other formats). Communication is not here (transformer/tp_communication.h).
#include <cstdint>
#include <string>
#include <vector>

#include "core/transformer/training_options.h"

namespace paleo {

enum class OpClass { kMatmul, kAttention, kMemory };

struct TransformerOp {
  std::string name;          // "attention.qkv"
  std::string type;          // "Linear", "Attention", "LayerNorm", ...
  OpClass op_class = OpClass::kMemory;
  // kMatmul: `batches` products of (m x k) by (k x n). kAttention: per (batch x head), queries m,
  // keys n, head size k; two products (scores and context).
  double m = 0, n = 0, k = 0, batches = 1;
  double causal_fraction = 1;  // kAttention with a causal flash kernel skips masked blocks
  double fwd_bytes = 0;      // memory traffic of kMemory ops (kMatmul: derived from the shape)
  double bwd_bytes = 0;
  // The kernels each way. kMemory: an operator PyTorch runs eagerly as a composite launches one
  // per elementary operator (transformer/eager_elementwise.h). kMatmul, forward only: a product
  // run in pieces launches one per piece (overlapped TP communication, training_step.cpp).
  double fwd_kernels = 1, bwd_kernels = 1;
  double params = 0;         // on this device
  double saved_bytes = 0;    // activations kept for the backward pass (no recompute)
  bool attention_core = false;  // recomputed (and its activations dropped) by selective recompute
  bool moe = false;          // an expert MLP operator
  bool flash = false;        // kAttention as one fused kernel that recomputes scores backward
  double model_scale = 1;    // share of the FLOPs the model counts (the head: vocab / padded vocab)
  // A linear layer of a transformer block, which Transformer Engine's fp8 recipe runs in fp8 (the
  // head, the router, the attention core and everything else stay in the higher format).
  bool fp8_eligible = false;
  // Its input comes straight from a norm that writes the fp8 copy itself (TE's LayerNormLinear),
  // so the forward pass needs no cast of its own.
  bool fp8_input_from_norm = false;
  // FLOPs in the model convention (full s x s attention, unpadded vocabulary; 2 per
  // multiply-add), forward.
  double model_flops_fwd() const;
  // Executed FLOPs: forward, backward (data + weight gradients).
  double fwd_flops() const;
  double bwd_flops() const;
};

struct OpContext {
  double micro_batch = 1;
  double seq_len = 2048;
  std::int64_t tp = 1, cp = 1, ep = 1;
  std::int64_t etp = 1;  // the ranks an expert's width is split over (ParallelLayout::etp)
  bool sequence_parallel = false;
  Dtype activations = Dtype::kBf16;
  AttentionKernel attention = AttentionKernel::kFlash;
  double vocab_padded = 0;   // Megatron pads the vocabulary to a multiple of 128 x tp
  // RMSNorm, the rotary embedding and gated activations as one kernel each way; false: PyTorch's
  // eager composites of them (TrainingOptions::fused_elementwise).
  bool fused_elementwise = true;
};

OpContext op_context(const TransformerConfig& c, const TrainingOptions& o);
double padded_vocab(std::int64_t vocab, std::int64_t tp);

// One transformer layer (dense or MoE MLP), the input embedding, the output head with its loss.
std::vector<TransformerOp> layer_ops(const TransformerConfig& c, const OpContext& x, bool moe_layer);
std::vector<TransformerOp> embedding_ops(const TransformerConfig& c, const OpContext& x);
std::vector<TransformerOp> head_ops(const TransformerConfig& c, const OpContext& x);

// Whether the backward pass reruns the operator's forward: every operator of a layer under full
// recompute; the attention core under selective recompute, unless a flash kernel (whose backward
// already recomputes its scores) leaves nothing more to redo.
bool recomputed(const TransformerOp& op, Recompute r);
// The share of the operator's forward the backward pass reruns: 1 when recomputed; under
// selective_op, every element-wise operator and half of each linear layer's work (torchtitan
// reruns every second matrix product of a block, in the order the block runs them).
double recompute_share(const TransformerOp& op, Recompute r);

// Bytes a layer keeps under torchtitan's op-level selective checkpointing (selective_op).
double selective_op_saved_bytes(const std::vector<TransformerOp>& ops, const OpContext& x, const TransformerConfig& c);

// Bytes a layer keeps for its backward pass under a recompute policy.
double layer_saved_bytes(const std::vector<TransformerOp>& ops, Recompute r, const OpContext& x,
                         const TransformerConfig& c);

}  // namespace paleo
