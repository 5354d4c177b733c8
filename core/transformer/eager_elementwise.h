#pragma once
// What an element-wise operator of a transformer block costs when PyTorch runs it eagerly, as
// its composite of elementary operators (torchtitan and Hugging Face model code without
// torch.compile), against one fused kernel (Megatron's and Transformer Engine's fused kernels,
// or the kernels torch.compile generates). Each elementary operator is a kernel of its own that
// reads its inputs from memory and writes its output back; its backward is autograd's, one or
// more kernels per elementary operator. Bytes per element of the operator's output, for
// activations of `activation_bytes` computed in fp32 where the code upcasts (docs/transformer.md,
// "Eager element-wise operators").
//
// Only the operators PyTorch has no single kernel for differ: RMSNorm, the rotary embedding and
// the gated activations (SwiGLU, GeGLU). LayerNorm, GELU, ReLU and the residual add are one
// native kernel each way, as the fused pricing already has them.

namespace paleo {

struct EagerCost {
  double fwd_bytes_per_element = 0;
  double bwd_bytes_per_element = 0;
  double fwd_kernels = 0;
  double bwd_kernels = 0;
};

// torchtitan's RMSNorm (models/norms.py, 2024; Hugging Face's LlamaRMSNorm is the same chain):
// x.float(), pow(2), mean(-1), + eps, rsqrt, x * rsqrt, type_as(x), * weight.
EagerCost eager_rms_norm(double activation_bytes);
// torchtitan's apply_rotary_emb, per element of Q or K: x.float() viewed as complex, times the
// position's complex frequencies, type_as(x).
EagerCost eager_rotary(double activation_bytes);
// F.silu(w1(x)) * w3(x) (or gelu): per element of the activation's output.
EagerCost eager_gated_activation(double activation_bytes);

}  // namespace paleo
