#pragma once
// calibration/: the robust loss of a calibration, on the log-ratio r = log(predicted / measured)
// of each measurement. With z = (r / scale)^2 the loss of one measurement is scale^2 rho(z) / 2:
//   linear  rho(z) = z                                   (plain least squares)
//   soft_l1 rho(z) = 2 (sqrt(1 + z) - 1)                 (the default)
//   huber   rho(z) = z if z <= 1, else 2 sqrt(z) - 1
// (the definitions of scipy.optimize.least_squares). All three are r^2 / 2 for |r| << scale; the
// robust two grow like |r| beyond it, so one measurement far off (a profiler artefact, a layer
// the model does not describe) pulls the fit less than the others together.
#include <string>

#include "core/base/json.h"

namespace paleo {

enum class LossKind { kLinear, kSoftL1, kHuber };

struct RobustLoss {
  LossKind kind = LossKind::kSoftL1;
  double scale = 0.1;  // |r| where the robust losses turn from quadratic to linear (0.1: ~10 %)
};

// "linear" | "soft_l1" | "huber"; throws paleo::Error naming `field`.
LossKind loss_kind_from_name(const std::string& name, const std::string& field);
std::string loss_kind_name(LossKind kind);

// The loss of one log-ratio r.
double robust_loss(const RobustLoss& loss, double r);

}  // namespace paleo
