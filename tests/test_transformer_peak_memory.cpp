// The peak-memory terms that depend on the training stack, against bytes counted by hand from the
// stack's code: torchtitan's op-level selective checkpointing, the unfused and vocabulary-parallel
// losses, FSDP's root unit kept gathered, FSDP2's unsharded gradient accumulation under a
// pipeline, and the CUDA context that nvidia-smi counts beyond the allocator.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/transformer/training_memory.h"
#include "core/transformer/training_step.h"
#include "llama3_shape.h"
#include "training_layout.h"

namespace {

paleo::TrainingOptions bf16_layout(long tp, long pp, long dp, long micro, long global) {
  paleo::TrainingOptions o = training_layout(tp, pp, dp, micro, global, 8192, "bf16");
  o.attention = paleo::AttentionKernel::kFlash;
  return o;
}

double rel(double a, double b) { return std::fabs(a / b - 1); }

}  // namespace

TEST_CASE("torchtitan's op-level checkpointing keeps the outputs of every other product", "[transformer][memory]") {
  // Per token, bf16: the block's input (4096), wq's output (4096), wv's (1024), the flash
  // kernel's output (4096) and its fp32 log-sum-exp per head (32 x 4 bytes), w1's (14336) and
  // w2's (4096); wk, wo and w3 (products 2, 4, 6) are recomputed.
  const paleo::TransformerConfig c = llama3_8b_layers(32);
  const paleo::TrainingOptions o = bf16_layout(1, 1, 8, 2, 16);
  const paleo::OpContext x = paleo::op_context(c, o);
  const std::vector<paleo::TransformerOp> ops = paleo::layer_ops(c, x, false);
  const double tokens = 2 * 8192;
  const double by_hand = tokens * (2 * (4096 + 4096 + 1024 + 4096 + 14336 + 4096) + 32 * 4);
  CHECK(rel(paleo::layer_saved_bytes(ops, paleo::Recompute::kSelectiveOp, x, c), by_hand) < 1e-12);
  // 994 MiB a layer at 16,384 tokens.
  CHECK(std::fabs(by_hand / (1 << 20) - 994) < 0.01);
}

TEST_CASE("The unfused loss's bytes per logit beside its saved fp32 output", "[transformer][memory]") {
  const paleo::TransformerConfig c = llama3_8b_layers(2);
  paleo::TrainingOptions o = bf16_layout(1, 1, 1, 1, 1);
  o.fused_cross_entropy = true;
  CHECK(paleo::loss_transient_bytes_per_logit(o, paleo::op_context(c, o)) == 2);  // the bf16 logits
  o.fused_cross_entropy = false;
  // Backward: nll_loss's and log-softmax's fp32 gradients beside the freed bf16 logits' block,
  // which the allocator keeps reserved: 2 + 4 + 4 (the forward's 2 + 4 is smaller).
  CHECK(paleo::loss_transient_bytes_per_logit(o, paleo::op_context(c, o)) == 10);
  o.parallel.tp = 8;
  o.parallel.dp = 1;
  // loss_parallel's backward: zeros_like(x), exp(x) and their sum beside the bf16 logits' block,
  // 2 + 4 + 4 + 4 (the forward's bf16 logits, fp32 copy and exp(shifted), 2 + 4 + 4, is smaller).
  CHECK(paleo::loss_transient_bytes_per_logit(o, paleo::op_context(c, o)) == 14);
}

TEST_CASE("FSDP2 accumulates a pipeline stage's gradients unsharded in the reduction's format",
          "[transformer][memory]") {
  const paleo::TransformerConfig c = llama3_8b_layers(8);
  paleo::TrainingOptions o = bf16_layout(1, 2, 4, 1, 4);  // one micro-batch: stages differ by their ends
  o.zero = 3;
  o.reshard_after_forward = false;
  const paleo::TransformerMemory bf16 = paleo::estimate_training_memory(c, o, 0);
  o.precision.grad_reduce = paleo::Dtype::kFp32;
  const paleo::TransformerMemory fp32 = paleo::estimate_training_memory(c, o, 0);
  // The fullest stage is the last (the loss's logits; 4 layers and the 128256 x 4096 output layer); its
  // parameters: 4 x (4096 x (4096 + 2 x 1024) + 4096 x 4096 + 3 x 4096 x 14336 + 2 x 4096) and
  // the head's 525 M and final norm's 4096. fp32 accumulation adds 2 bytes each over bf16.
  const double layer = 4096.0 * (4096 + 2 * 1024) + 4096.0 * 4096 + 3 * 4096.0 * 14336 + 2 * 4096.0;
  const double stage = 4 * layer + 128256.0 * 4096 + 4096;
  REQUIRE(bf16.stage == 1);
  REQUIRE(fp32.stage == 1);
  CHECK(rel(fp32.gradients_bytes - bf16.gradients_bytes, 2 * stage) < 1e-9);
}

TEST_CASE("FSDP keeps its root unit, the embedding and the output layer, gathered through the step",
          "[transformer][memory]") {
  const paleo::TransformerConfig c = llama3_8b_layers(4);
  paleo::TrainingOptions o = bf16_layout(1, 1, 8, 1, 8);
  o.zero = 3;
  o.zero3_gather = paleo::Zero3Gather::kTensorBlocking;  // DeepSpeed's ZeRO-3: no root unit
  const paleo::TransformerMemory deepspeed = paleo::estimate_training_memory(c, o, 0);
  o.zero3_gather = paleo::Zero3Gather::kLayerPrefetched;
  const paleo::TransformerMemory fsdp = paleo::estimate_training_memory(c, o, 0);
  // In bf16: the 128256 x 4096 embedding, the 4096 x 128256 output layer and the final norm's
  // 4096 weights, unsharded.
  CHECK(rel(fsdp.params_bytes - deepspeed.params_bytes, 2 * (2 * 128256.0 * 4096 + 4096)) < 1e-12);
  // Without resharding after the forward every weight of the stage is gathered already.
  o.reshard_after_forward = false;
  const paleo::TransformerMemory kept = paleo::estimate_training_memory(c, o, 0);
  o.zero3_gather = paleo::Zero3Gather::kTensorBlocking;
  CHECK(paleo::estimate_training_memory(c, o, 0).params_bytes == kept.params_bytes);
}

TEST_CASE("The device's total is the allocator's bytes plus the CUDA context", "[transformer][memory]") {
  const paleo::TransformerConfig c = llama3_8b_layers(4);
  const paleo::TransformerMemory m = paleo::estimate_training_memory(c, bf16_layout(1, 1, 1, 1, 1), 80e9);
  const double tensors = m.params_bytes + m.gradients_bytes + m.optimizer_bytes + m.activations_bytes +
                         m.fp8_state_bytes + m.workspace_bytes;
  CHECK(m.allocator_reserved_bytes() == tensors);
  // Hugging Face's guide: 1343 MiB occupied after one 1 x 1 tensor is moved to a V100.
  CHECK(m.runtime_bytes == 1343.0 * 1048576);
  CHECK(m.total_bytes() == tensors + 1343.0 * 1048576);
  // fits counts the context: a capacity just above the allocator's bytes is not enough.
  paleo::TransformerMemory tight = m;
  tight.capacity_bytes = tensors + 1e6;
  CHECK_FALSE(tight.fits());
}
