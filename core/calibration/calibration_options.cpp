#include "core/calibration/calibration_options.h"

#include <cmath>
#include <string>

#include "core/efficiency/software_era.h"
#include "core/base/error.h"

namespace paleo {

CalibrationOptions read_calibration_options(const Json& request) {
  static const std::vector<std::string> known = {"command", "measurements", "request", "holdout", "parameters",
                                                 "loss", "loss_scale", "software_era", "efficiency",
                                                 "max_evaluations"};
  for (auto it = request.begin(); it != request.end(); ++it) {
    bool ok = false;
    for (const std::string& k : known) ok = ok || it.key() == k;
    if (!ok)
      throw Error("unknown field for 'calibrate' (known: measurements, request, holdout, parameters, loss, loss_scale, "
                  "software_era, efficiency, max_evaluations)", "", it.key());
  }
  CalibrationOptions o;
  if (request.contains("parameters")) o.params = fitted_parameters_from_json(request["parameters"], "parameters");
  if (request.contains("loss")) o.loss.kind = loss_kind_from_name(read_string(request, "loss", ""), "loss");
  if (request.contains("loss_scale")) {
    o.loss.scale = read_number(request, "loss_scale", "");
    if (!(o.loss.scale >= 1e-4 && o.loss.scale <= 10)) throw Error("must be from 1e-4 to 10", "", "loss_scale");
  }
  if (request.contains("holdout")) {
    const Json& h = request["holdout"];
    if (h == "alternate") {
      o.holdout_fraction = 0.5;
    } else if (h.is_number() && h.get<double>() > 0 && h.get<double>() < 1) {
      o.holdout_fraction = h.get<double>();
    } else {
      throw Error("must be \"alternate\" or the fraction held out, from 0 to 1 (exclusive), got " + echo(h), "",
                  "holdout");
    }
    o.holdout = h;
  }
  if (request.contains("max_evaluations")) {
    const double n = read_number(request, "max_evaluations", "");
    if (!(n >= 1 && n <= 100000 && n == std::floor(n)))
      throw Error("must be an integer from 1 to 100000", "", "max_evaluations");
    o.max_evaluations = static_cast<int>(n);
  }
  if (request.contains("software_era")) {
    if (!request["software_era"].is_string()) throw Error("must be an era key or \"untuned\"", "", "software_era");
    o.software_era = request["software_era"];
  }
  if (request.contains("efficiency")) {
    (void)efficiency_from_json(request["efficiency"], KernelEfficiency{}, "efficiency");
    o.efficiency = request["efficiency"];
  }
  return o;
}

}  // namespace paleo
