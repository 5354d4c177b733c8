#pragma once
// Time of each transformer operator on a device: a per-kernel roofline with the efficiency
// model of core/efficiency/ (matrix products at the precision's matrix peak when eligible;
// element-wise work memory-bound), plus a per-kernel overhead.
//
// Under an fp8 policy only the linear layers of the transformer blocks run in fp8, as Transformer
// Engine's recipe does (Micikevicius et al. 2022, "FP8 Formats for Deep Learning"; NVIDIA
// Transformer Engine docs): the attention core, the output layer, the router and every non-GEMM
// operator stay in the higher format (the activations' format), and each fp8 linear pays the casts
// of its operands (see fp8_cast_bytes).
#include "core/efficiency/kernel_efficiency.h"
#include "core/hardware/device.h"
#include "core/precision/precision_policy.h"
#include "core/transformer/layer_ops.h"

namespace paleo {

struct OpTime {
  double fwd_ms = 0;
  double bwd_ms = 0;  // data and weight gradients
};

// The format an operator's products run in under policy `p`.
Dtype op_compute_dtype(const TransformerOp& op, const PrecisionPolicy& p);

// The bytes an fp8 linear moves to cast its operands, per pass. Transformer Engine's
// cast-transpose kernels read the higher-format tensor once and write its fp8 copy and the fp8
// transpose the weight gradient needs: the forward casts the input (unless a norm wrote it in
// fp8 already), the backward the output gradient. Weights are cast once per step and kept across
// micro-batches, so they are left out.
struct Fp8CastBytes {
  double fwd_bytes = 0, bwd_bytes = 0;
};
Fp8CastBytes fp8_cast_bytes(const TransformerOp& op, const PrecisionPolicy& p);

OpTime op_time(const TransformerOp& op, const Device& d, const KernelEfficiency& e, const PrecisionPolicy& p);

}  // namespace paleo
