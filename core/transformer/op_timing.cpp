#include "core/transformer/op_timing.h"

namespace paleo {

OpTime op_time(const TransformerOp& op, const Device& d, const KernelEfficiency& e, Dtype compute) {
  OpTime t;
  const double launch = e.kernel_overhead_ms;
  switch (op.op_class) {
    case OpClass::kMatmul:
      t.fwd_ms = matmul_ms(d, e, compute, op.m, op.n, op.k, op.batches) + launch;
      // dX = dY W^T: (m x n)(n x k); dW = X^T dY: (k x m)(m x n).
      t.bwd_ms = matmul_ms(d, e, compute, op.m, op.k, op.n, op.batches) +
                 matmul_ms(d, e, compute, op.k, op.n, op.m, op.batches) + 2 * launch;
      break;
    case OpClass::kAttention: {
      // Scores (m x k)(k x n) and context (m x n)(n x k), the causal share of the blocks only.
      const double products = matmul_ms(d, e, compute, op.m, op.n, op.k, op.batches) +
                              matmul_ms(d, e, compute, op.m, op.k, op.n, op.batches);
      const double kernels = op.flash ? 1 : 2;
      t.fwd_ms = products * op.causal_fraction + kernels * launch;
      t.bwd_ms = products * op.causal_fraction * (op.flash ? 2.5 : 2.0) + 2 * kernels * launch;
      break;
    }
    case OpClass::kMemory:
      t.fwd_ms = memory_ms(d, e, op.fwd_bytes) + (op.fwd_bytes > 0 ? launch : 0);
      t.bwd_ms = memory_ms(d, e, op.bwd_bytes) + (op.bwd_bytes > 0 ? launch : 0);
      break;
  }
  return t;
}

}  // namespace paleo
