#pragma once
// The options of a `calibrate` request (docs/calibration.md): the parameters fitted, the loss,
// the held-out share, the evaluation budget and the era the fit starts from.
#include <vector>

#include "core/calibration/fitted_parameters.h"
#include "core/calibration/robust_loss.h"
#include "core/base/json.h"

namespace paleo {

// "software_era" of a start with no era: the built-in defaults.
constexpr const char* kUntunedEra = "untuned";

struct CalibrationOptions {
  std::vector<FittedParameter> params = default_fitted_parameters();
  RobustLoss loss;
  Json holdout;                  // null, "alternate" or a fraction
  double holdout_fraction = 0;   // share of the measurements held out of the fit
  int max_evaluations = 600;
  Json software_era;             // the start's era: null (each request's own), a key or "untuned"
  Json efficiency;               // the start's overrides (null: none)
};

// Throws paleo::Error naming the field.
CalibrationOptions read_calibration_options(const Json& request);

}  // namespace paleo
