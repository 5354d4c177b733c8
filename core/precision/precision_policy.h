#pragma once
// The number formats of a training run, per tensor and per operation: what the matrix products
// compute in, what activations and messages are stored in, and the formats of the weights, the
// fp32 master copy, the optimizer state and the gradients (and their data-parallel reduction).
#include <string>

#include "core/base/json.h"
#include "core/precision/dtype.h"

namespace paleo {

struct PrecisionPolicy {
  std::string name = "fp32";
  Dtype compute = Dtype::kFp32;          // matrix-product inputs (tensor cores when eligible)
  Dtype activations = Dtype::kFp32;      // stored activations; TP / PP / CP messages
  Dtype params = Dtype::kFp32;           // the working weights
  bool master_weights = false;           // an fp32 master copy held by the optimizer
  Dtype optimizer_state = Dtype::kFp32;  // Adam's two moments, SGD momentum
  Dtype gradients = Dtype::kFp32;        // gradient buffers
  Dtype grad_reduce = Dtype::kFp32;      // the data-parallel reduction's format
  bool fp8 = false;                      // fp8 matrix products: per-tensor scaling state is kept

  // Bytes per parameter of the optimizer: master copy + state (Adam: two moments; SGD with
  // momentum: one; plain SGD: none). The ZeRO paper's K (12 for mixed-precision Adam).
  double optimizer_bytes_per_param(int moments) const;
};

// "fp32", "tf32" (fp32 storage, tf32 products), and mixed precision "fp16", "bf16", "fp8"
// (low-precision products and activations, fp32 master weights and Adam state; fp8 keeps bf16
// activations and weights as Transformer Engine does). Throws paleo::Error naming `field`.
PrecisionPolicy precision_policy(const std::string& name, const std::string& field);

// A name as above, or an object {"compute", "activations", "params", "master_weights",
// "optimizer_state", "gradients", "grad_reduce"} whose fields override the policy of its
// "compute" format.
PrecisionPolicy precision_from_json(const Json& value, const std::string& field);
Json precision_json(const PrecisionPolicy& p);

}  // namespace paleo
