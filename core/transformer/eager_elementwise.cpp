#include "core/transformer/eager_elementwise.h"

namespace paleo {
namespace {

constexpr double kFp32Bytes = 4;  // the upcast copies and everything computed from them

}  // namespace

EagerCost eager_rms_norm(double a) {
  const double f = kFp32Bytes;
  EagerCost c;
  // Forward, one kernel each: float() a -> f; pow(2) f -> f; mean(-1) reads f; + eps and rsqrt
  // (per row); x * rsqrt f -> f; type_as f -> a; * weight a -> a.
  c.fwd_bytes_per_element = (a + f) + 2 * f + f + 2 * f + (f + a) + 2 * a;
  c.fwd_kernels = 8;
  // Backward (autograd, PyTorch's derivatives of each): * weight: grad * weight (2a) and the
  // weight's gradient, (grad * y).sum over rows (3a + a); type_as: a -> f; x * rsqrt:
  // grad * rsqrt (2f) and (grad * x).sum(-1) (3f + f); rsqrt (per row); mean: the expanded
  // gradient / N written out (f); pow: grad * (2 * x.pow(1)), three kernels (f + f, f + f,
  // 2f + f); the two gradients of the fp32 copy added (3f); float(): f -> a.
  c.bwd_bytes_per_element = 2 * a + 4 * a + (a + f) + 2 * f + 4 * f + f + 7 * f + 3 * f + (f + a);
  c.bwd_kernels = 3 + 1 + 3 + 1 + 1 + 3 + 1 + 1;
  return c;
}

EagerCost eager_rotary(double a) {
  const double f = kFp32Bytes;
  EagerCost c;
  // float() a -> f (the complex view is free); times the frequencies f -> f (they are per
  // position, read from cache); type_as f -> a. The backward mirrors it: a -> f, times the
  // conjugate f -> f, f -> a (the frequencies are a buffer: no gradient of theirs).
  c.fwd_bytes_per_element = (a + f) + 2 * f + (f + a);
  c.bwd_bytes_per_element = c.fwd_bytes_per_element;
  c.fwd_kernels = 3;
  c.bwd_kernels = 3;
  return c;
}

EagerCost eager_gated_activation(double a) {
  EagerCost c;
  // silu (or gelu) a -> a; times the gate's other half 2a -> a. Backward: the product's two
  // gradients (2a -> a each), then the activation's (grad and input -> a).
  c.fwd_bytes_per_element = 2 * a + 3 * a;
  c.bwd_bytes_per_element = 3 * a + 3 * a + 3 * a;
  c.fwd_kernels = 2;
  c.bwd_kernels = 3;
  return c;
}

}  // namespace paleo
