#include "core/training_scheme/model_averaging.h"

#include <cmath>

#include "core/base/error.h"

namespace paleo {

AveragingKind parse_averaging(const std::string& text, const std::string& field) {
  if (text == "none") return AveragingKind::kNone;
  if (text == "local_sgd") return AveragingKind::kLocalSgd;
  if (text == "elastic") return AveragingKind::kElastic;
  if (text == "gossip") return AveragingKind::kGossip;
  if (text == "ensemble") return AveragingKind::kEnsemble;
  throw Error("unknown averaging '" + text + "' (none, local_sgd, elastic, gossip, ensemble)", "", field);
}

const char* averaging_name(AveragingKind k) {
  switch (k) {
    case AveragingKind::kNone: return "none";
    case AveragingKind::kLocalSgd: return "local_sgd";
    case AveragingKind::kElastic: return "elastic";
    case AveragingKind::kGossip: return "gossip";
    case AveragingKind::kEnsemble: return "ensemble";
  }
  return "none";
}

double gossip_rounds(std::int64_t workers) { return 1.639 * std::log2(static_cast<double>(workers)); }

CollectiveCost gossip_exchange(double model_bytes, std::int64_t peers, const Link& link,
                               const CollectiveSettings& settings) {
  CollectiveCost c;
  c.algorithm = "gossip";
  const double k = static_cast<double>(peers);
  c.alpha_ms = k * link.alpha_ms();
  c.beta_ms = k * model_bytes * link.ms_per_byte();
  c.reduction_ms = k * model_bytes * settings.reduction_ms_per_byte;
  return c;
}

}  // namespace paleo
