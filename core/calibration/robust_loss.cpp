#include "core/calibration/robust_loss.h"

#include <cmath>

#include "core/base/error.h"

namespace paleo {

LossKind loss_kind_from_name(const std::string& name, const std::string& field) {
  if (name == "linear") return LossKind::kLinear;
  if (name == "soft_l1") return LossKind::kSoftL1;
  if (name == "huber") return LossKind::kHuber;
  throw Error("must be \"soft_l1\", \"huber\" or \"linear\", got \"" + name + "\"", "", field);
}

std::string loss_kind_name(LossKind kind) {
  switch (kind) {
    case LossKind::kLinear: return "linear";
    case LossKind::kSoftL1: return "soft_l1";
    case LossKind::kHuber: return "huber";
  }
  return "soft_l1";
}

double robust_loss(const RobustLoss& loss, double r) {
  const double z = (r / loss.scale) * (r / loss.scale);
  double rho = z;
  if (loss.kind == LossKind::kSoftL1) rho = 2 * (std::sqrt(1 + z) - 1);
  if (loss.kind == LossKind::kHuber && z > 1) rho = 2 * std::sqrt(z) - 1;
  return loss.scale * loss.scale * rho / 2;
}

}  // namespace paleo
