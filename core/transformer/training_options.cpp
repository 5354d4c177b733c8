#include "core/transformer/training_options.h"

#include "core/base/error.h"
#include "core/base/utf8.h"

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

const char* zero3_gather_name(Zero3Gather g) {
  return g == Zero3Gather::kTensorBlocking ? "tensor_blocking" : "layer_prefetched";
}

Zero3Gather parse_zero3_gather(const std::string& s, const std::string& field) {
  if (s == "layer_prefetched") return Zero3Gather::kLayerPrefetched;
  if (s == "tensor_blocking") return Zero3Gather::kTensorBlocking;
  throw Error("must be \"layer_prefetched\" or \"tensor_blocking\", got \"" + shortened_utf8(s, 64) + "\"", "", field);
}

TpCommOverlap parse_tp_comm_overlap(const std::string& s, const std::string& field) {
  if (s == "none") return TpCommOverlap::kNone;
  if (s == "forward") return TpCommOverlap::kForward;
  if (s == "forward_backward") return TpCommOverlap::kForwardBackward;
  throw Error("must be \"none\", \"forward\" or \"forward_backward\", got \"" + shortened_utf8(s, 64) + "\"", "",
              field);
}

}  // namespace paleo
