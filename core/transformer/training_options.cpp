#include "core/transformer/training_options.h"

#include "core/base/error.h"

namespace paleo {

const char* recompute_name(Recompute r) {
  switch (r) {
    case Recompute::kFull: return "full";
    case Recompute::kSelective: return "selective";
    case Recompute::kSelectiveOp: return "selective_op";
    case Recompute::kNone: break;
  }
  return "none";
}

Recompute parse_recompute(const std::string& s, const std::string& field) {
  if (s == "none") return Recompute::kNone;
  if (s == "selective") return Recompute::kSelective;
  if (s == "selective_op") return Recompute::kSelectiveOp;
  if (s == "full") return Recompute::kFull;
  throw Error("must be \"none\", \"selective\", \"selective_op\" or \"full\", got \"" + s + "\"", "", field);
}

const char* attention_name(AttentionKernel a) { return a == AttentionKernel::kFlash ? "flash" : "materialized"; }

AttentionKernel parse_attention(const std::string& s, const std::string& field) {
  if (s == "flash") return AttentionKernel::kFlash;
  if (s == "materialized") return AttentionKernel::kMaterialized;
  throw Error("must be \"flash\" or \"materialized\", got \"" + s + "\"", "", field);
}

}  // namespace paleo
