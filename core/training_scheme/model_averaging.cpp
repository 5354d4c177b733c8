#include "core/training_scheme/model_averaging.h"

#include <cmath>

#include "core/base/enum_names.h"
#include "core/base/error.h"

namespace paleo {

namespace {

const EnumName<AveragingKind> kAveragings[] = {
    {AveragingKind::kNone, "none"},     {AveragingKind::kLocalSgd, "local_sgd"}, {AveragingKind::kElastic, "elastic"},
    {AveragingKind::kGossip, "gossip"}, {AveragingKind::kEnsemble, "ensemble"}};

}  // namespace

AveragingKind parse_averaging(const std::string& text, const std::string& field) {
  return parse_enum(kAveragings, text, "averaging", field);
}

const char* averaging_name(AveragingKind k) { return enum_name(kAveragings, k); }

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
