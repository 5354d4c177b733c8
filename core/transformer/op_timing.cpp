#include "core/transformer/op_timing.h"

#include <cmath>

#include "core/precision/device_peak.h"

namespace paleo {
namespace {

// FlashAttention-2 walks the keys in blocks and masks the last, partial one (Dao 2023, block sizes
// 64 to 128): a sequence of any length runs on the tensor cores, padded to whole blocks.
constexpr double kFlashKeyBlock = 128;

}  // namespace

Dtype op_compute_dtype(const TransformerOp& op, const PrecisionPolicy& p) {
  if (p.fp8 && !(op.op_class == OpClass::kMatmul && op.fp8_eligible)) return p.activations;
  return p.compute;
}

Fp8CastBytes fp8_cast_bytes(const TransformerOp& op, const PrecisionPolicy& p) {
  Fp8CastBytes b;
  if (!p.fp8 || op.op_class != OpClass::kMatmul || !op.fp8_eligible) return b;
  const double per_element = dtype_bytes(p.activations) + 2 * dtype_bytes(p.compute);  // read; copy + transpose
  if (!op.fp8_input_from_norm) b.fwd_bytes = op.m * op.k * op.batches * per_element;
  b.bwd_bytes = op.m * op.n * op.batches * per_element;
  return b;
}

OpTime op_time(const TransformerOp& op, const Device& d, const KernelEfficiency& e, const PrecisionPolicy& p) {
  OpTime t;
  const Dtype compute = op_compute_dtype(op, p);
  const double launch = e.kernel_overhead_ms;
  switch (op.op_class) {
    case OpClass::kMatmul: {
      t.fwd_ms = matmul_ms(d, e, compute, op.m, op.n, op.k, op.batches) + op.fwd_kernels * launch;
      // dX = dY W^T: (m x n)(n x k); dW = X^T dY: (k x m)(m x n).
      t.bwd_ms = matmul_ms(d, e, compute, op.m, op.k, op.n, op.batches) +
                 matmul_ms(d, e, compute, op.k, op.n, op.m, op.batches) + 2 * launch;
      // A device without fp8 units runs the product in its fallback format, with nothing to cast.
      const Fp8CastBytes cast = runs_in_fp8(d, compute) ? fp8_cast_bytes(op, p) : Fp8CastBytes{};
      if (cast.fwd_bytes > 0) t.fwd_ms += memory_ms(d, e, cast.fwd_bytes) + launch;
      if (cast.bwd_bytes > 0) t.bwd_ms += memory_ms(d, e, cast.bwd_bytes) + launch;
      break;
    }
    case OpClass::kAttention: {
      // Scores (m x k)(k x n) and context (m x n)(n x k), the causal share of the blocks only.
      const double keys = op.flash ? std::ceil(op.n / kFlashKeyBlock) * kFlashKeyBlock : op.n;
      const double products = matmul_ms(d, e, compute, op.m, keys, op.k, op.batches) +
                              matmul_ms(d, e, compute, op.m, op.k, keys, op.batches);
      const double kernels = op.flash ? 1 : 2;
      t.fwd_ms = products * op.causal_fraction + kernels * launch;
      t.bwd_ms = products * op.causal_fraction * (op.flash ? 2.5 : 2.0) + 2 * kernels * launch;
      break;
    }
    case OpClass::kMemory:
      t.fwd_ms = memory_ms(d, e, op.fwd_bytes) + (op.fwd_bytes > 0 ? op.fwd_kernels * launch : 0);
      t.bwd_ms = memory_ms(d, e, op.bwd_bytes) + (op.bwd_bytes > 0 ? op.bwd_kernels * launch : 0);
      break;
  }
  return t;
}

}  // namespace paleo
