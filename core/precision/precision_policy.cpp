#include "core/precision/precision_policy.h"

#include "core/base/error.h"

namespace paleo {

double PrecisionPolicy::optimizer_bytes_per_param(int moments) const {
  return (master_weights ? 4.0 : 0.0) + moments * dtype_bytes(optimizer_state);
}

PrecisionPolicy precision_policy(const std::string& name, const std::string& field) {
  PrecisionPolicy p;
  p.name = name;
  const Dtype t = parse_dtype(name, field);
  p.compute = t;
  if (t == Dtype::kFp32 || t == Dtype::kTf32) return p;  // everything stays fp32
  // Mixed precision (Micikevicius et al. 2018): low-precision weights, activations and
  // gradients; fp32 master weights and optimizer state.
  const Dtype low = (t == Dtype::kFp16) ? Dtype::kFp16 : Dtype::kBf16;
  p.activations = p.params = p.gradients = p.grad_reduce = low;
  p.master_weights = true;
  p.fp8 = t == Dtype::kFp8E4M3 || t == Dtype::kFp8E5M2;
  return p;
}

PrecisionPolicy precision_from_json(const Json& value, const std::string& field) {
  if (value.is_string()) return precision_policy(value.get<std::string>(), field);
  if (!value.is_object()) throw Error("must be a format name (fp32, tf32, fp16, bf16, fp8) or an object", "", field);
  static const char* const kFields[] = {"compute", "activations", "params", "master_weights", "optimizer_state",
                                        "gradients", "grad_reduce"};
  for (auto it = value.begin(); it != value.end(); ++it) {
    bool known = false;
    for (const char* f : kFields) known = known || it.key() == f;
    if (!known) throw Error("unknown field '" + it.key() + "'", "", field);
  }
  PrecisionPolicy p = precision_policy(read_string(value, "compute", field), field + ".compute");
  auto format = [&](const char* key, Dtype& out) {
    if (value.contains(key)) out = parse_dtype(read_string(value, key, field), field + "." + key);
  };
  format("activations", p.activations);
  format("params", p.params);
  format("optimizer_state", p.optimizer_state);
  format("gradients", p.gradients);
  format("grad_reduce", p.grad_reduce);
  if (value.contains("master_weights")) {
    if (!value["master_weights"].is_boolean()) throw Error("must be true or false", "", field + ".master_weights");
    p.master_weights = value["master_weights"].get<bool>();
  }
  p.name = "custom";
  return p;
}

Json precision_json(const PrecisionPolicy& p) {
  return {{"name", p.name}, {"compute", dtype_name(p.compute)}, {"activations", dtype_name(p.activations)},
          {"params", dtype_name(p.params)}, {"master_weights", p.master_weights},
          {"optimizer_state", dtype_name(p.optimizer_state)}, {"gradients", dtype_name(p.gradients)},
          {"grad_reduce", dtype_name(p.grad_reduce)}, {"fp8", p.fp8}};
}

}  // namespace paleo
