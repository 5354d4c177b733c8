#include "core/calibration/calibration.h"

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/calibration/calibration_options.h"
#include "core/calibration/fitted_parameters.h"
#include "core/calibration/measurement.h"
#include "core/calibration/measurement_csv.h"
#include "core/calibration/nelder_mead.h"
#include "core/calibration/robust_loss.h"
#include "core/efficiency/software_era.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/base/request_runner.h"
#include "core/transformer/transformer_net.h"
#include "core/validation/validation_stats.h"

namespace paleo {
namespace {

// The calibrate request's start ("software_era", "efficiency") applied to a measurement's request.
void apply_start(const CalibrationOptions& o, Json& request) {
  if (o.software_era == kUntunedEra) {
    request.erase("software_era");
    const Json overrides = o.efficiency.is_null() ? Json::object() : o.efficiency;
    request["efficiency"] = efficiency_json(efficiency_from_json(overrides, KernelEfficiency{}, "efficiency"));
    return;
  }
  if (o.software_era.is_string()) request["software_era"] = o.software_era;
  if (!o.efficiency.is_null()) request["efficiency"] = o.efficiency;
}

// Measurement i is held out when the running count floor(i f) steps up at it: an even spread
// (f = 1/2: every second measurement, the same as "alternate").
std::vector<bool> held_out_mask(std::size_t n, double fraction) {
  std::vector<bool> held(n, false);
  for (std::size_t i = 0; i < n; ++i)
    held[i] = std::floor(static_cast<double>(i + 1) * fraction) > std::floor(static_cast<double>(i) * fraction);
  return held;
}

// The distinct requests of the measurements (a layer-time file repeats one request per row), run
// with a patch of request fields over each.
class Predictor {
 public:
  Predictor(const std::vector<Measurement>& ms, RequestRunner run) : ms_(ms), run_(std::move(run)) {
    std::map<std::string, std::size_t> seen;
    for (const Measurement& m : ms) {
      const std::string key = dump_json(m.request);
      auto it = seen.find(key);
      if (it == seen.end()) {
        it = seen.emplace(key, requests_.size()).first;
        requests_.push_back(m.request);
        first_.push_back(m.index);
      }
      which_.push_back(it->second);
    }
  }

  std::size_t request_count() const { return requests_.size(); }

  // Runs request k with `patch` (top-level fields replaced). Throws paleo::Error naming the
  // first measurement of that request when it fails.
  Json response(std::size_t k, const Json& patch) const {
    Json request = requests_[k];
    for (auto it = patch.begin(); it != patch.end(); ++it) request[it.key()] = it.value();
    Json r = run_(request);
    if (!r.value("ok", false)) {
      const Json& e = r["error"];
      const std::string inner = e.value("field", "");
      throw Error("the request fails: " + e.value("message", std::string("unknown error")), "",
                  ms_[first_[k]].field + ".request" + (inner.empty() ? "" : "." + inner));
    }
    return r;
  }

  // Predictions of the measurements in `used` (the others are left 0).
  std::vector<double> predict(const Json& patch, const std::vector<bool>& used) const {
    std::vector<Json> responses(requests_.size());
    std::vector<std::unique_ptr<ResponseLayers>> layers(requests_.size());
    std::vector<double> out(ms_.size(), 0.0);
    for (std::size_t i = 0; i < ms_.size(); ++i) {
      if (!used[i]) continue;
      const std::size_t k = which_[i];
      if (!layers[k]) {
        responses[k] = response(k, patch);
        layers[k] = std::make_unique<ResponseLayers>(responses[k]);
      }
      out[i] = predicted_value(ms_[i], responses[k], *layers[k]);
    }
    return out;
  }

  // The start: each request as given. Every request must resolve to the same kernel efficiencies
  // (one device's software, calibrated at a time); returns its era's key and efficiency.
  std::vector<double> start(KernelEfficiency& efficiency, std::string& era_key) const {
    std::vector<double> out(ms_.size(), 0.0);
    std::string first_efficiency;
    for (std::size_t k = 0; k < requests_.size(); ++k) {
      const Json r = response(k, Json::object());
      const std::string field = ms_[first_[k]].field + ".request";
      if (!r.contains("software_era") || !r["software_era"].is_object() || !r["software_era"].contains("efficiency"))
        throw Error("this request's model has no kernel-efficiency parameters to calibrate (a CNN request with a PPP, "
                    "or the paleo2017 profile)", "", field);
      const Json& era = r["software_era"];
      const KernelEfficiency e = efficiency_from_json(era["efficiency"], KernelEfficiency{}, field + ".efficiency");
      const std::string dumped = dump_json(efficiency_json(e));
      if (k == 0) {
        efficiency = e;
        era_key = era.value("key", kUntunedEra);
        first_efficiency = dumped;
      } else if (dumped != first_efficiency) {
        throw Error("runs with the kernel efficiencies " + dumped + " (era '" + era.value("key", "") + "'), " +
                        ms_[0].field + " with " + first_efficiency +
                        ": calibrate one device's software at a time (give every request the same software_era and "
                        "efficiency)", "", field);
      }
      const ResponseLayers layers(r);
      for (std::size_t i = 0; i < ms_.size(); ++i)
        if (which_[i] == k) out[i] = predicted_value(ms_[i], r, layers);
    }
    for (std::size_t i = 0; i < ms_.size(); ++i)
      if (!(out[i] > 0))
        throw Error("the model predicts " + echo(Json(out[i])) + " for this measurement: nothing to calibrate against",
                    "", ms_[i].field + ".compare");
    return out;
  }

 private:
  const std::vector<Measurement>& ms_;
  RequestRunner run_;
  std::vector<Json> requests_;
  std::vector<std::size_t> first_;  // per request, the first measurement using it
  std::vector<std::size_t> which_;  // per measurement, its request
};

double fit_loss(const CalibrationOptions& o, const std::vector<Measurement>& ms, const std::vector<double>& predicted,
                const std::vector<bool>& used) {
  double sum = 0, weights = 0;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (!used[i]) continue;
    if (!(predicted[i] > 0)) return std::numeric_limits<double>::infinity();
    sum += ms[i].weight * robust_loss(o.loss, std::log(predicted[i] / ms[i].measured));
    weights += ms[i].weight;
  }
  return weights > 0 ? sum / weights : 0;
}

Json errors_json(const std::vector<Measurement>& ms, const std::vector<double>& predicted, const std::vector<bool>& used) {
  Json rows = Json::array();
  std::vector<double> errors;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (!used[i]) continue;
    const double error = predicted[i] / ms[i].measured - 1;
    errors.push_back(error);
    rows.push_back({{"index", ms[i].index}, {"label", ms[i].label}, {"compare", ms[i].compare_json()},
                    {"measured", ms[i].measured}, {"predicted", predicted[i]}, {"error", error}});
  }
  const ErrorStats s = error_stats(errors);
  return {{"count", s.count}, {"median_abs_error", s.median_abs}, {"max_abs_error", s.max_abs},
          {"mean_error", s.mean}, {"rows", rows}};
}

}  // namespace

Json calibration_response(const Json& request, const RequestRunner& run) {
  if (!request.is_object()) throw Error("a request must be a JSON object", "", "");
  CalibrationOptions o = read_calibration_options(request);
  if (!request.contains("measurements")) throw Error("is required: a list of measurements, or CSV text", "", "measurements");
  const Json base = request.contains("request") ? request["request"] : Json();
  const Json list = request["measurements"].is_string()
                        ? measurements_from_csv(request["measurements"].get<std::string>(), "measurements")
                        : request["measurements"];
  std::vector<Measurement> ms = parse_measurements(list, base, "measurements");
  for (Measurement& m : ms) apply_start(o, m.request);
  bool any_transformer = false;
  for (const Measurement& m : ms) any_transformer = any_transformer || (m.request.contains("net") && is_transformer_net(m.request["net"]));
  if (!request.contains("parameters")) o.params = default_fitted_parameters(!any_transformer);
  const std::size_t n = ms.size();

  std::vector<bool> fit(n, true), held(n, false);
  if (o.holdout_fraction > 0) {
    held = held_out_mask(n, o.holdout_fraction);
    for (std::size_t i = 0; i < n; ++i) fit[i] = !held[i];
    std::size_t fitted = 0;
    for (bool f : fit) fitted += f ? 1 : 0;
    if (fitted == 0 || fitted == n)
      throw Error("leaves " + std::string(fitted == 0 ? "no measurement to fit" : "no measurement held out") + " of " +
                      std::to_string(n), "", "holdout");
  }

  const Predictor predictor(ms, run);
  // The fit runs each distinct request once per evaluation: bounded before it starts.
  const double runs = static_cast<double>(predictor.request_count()) * static_cast<double>(o.max_evaluations + 2);
  if (runs > kMaxCalibrationRuns)
    throw Error(std::to_string(predictor.request_count()) + " distinct requests x " + std::to_string(o.max_evaluations) +
                    " evaluations is more than " + std::to_string(static_cast<std::int64_t>(kMaxCalibrationRuns)) +
                    " runs (the limit, docs/api.md): fewer requests or a lower max_evaluations",
                "", "max_evaluations");
  KernelEfficiency start;
  std::string era_key;
  const std::vector<double> before = predictor.start(start, era_key);
  if (o.software_era == kUntunedEra) era_key = kUntunedEra;

  const auto efficiency_at = [&](const std::vector<double>& u) { return from_unit_cube(o.params, u, start); };
  const auto objective = [&](const std::vector<double>& u) {
    return fit_loss(o, ms, predictor.predict({{"efficiency", efficiency_json(efficiency_at(u))}}, fit), fit);
  };
  MinimizeOptions mo;
  mo.max_evaluations = o.max_evaluations;
  const MinimizeResult found = minimize_in_unit_cube(objective, to_unit_cube(o.params, start), mo);

  KernelEfficiency fitted = efficiency_at(found.x);
  for (const FittedParameter& p : o.params) fitted.*(p.member) = round_significant(fitted.*(p.member));
  Json warnings = Json::array();
  const double loss_before = fit_loss(o, ms, before, fit);
  Json profile = Json::object();
  if (era_key != kUntunedEra) profile["software_era"] = era_key;
  profile["efficiency"] = efficiency_json(fitted);
  std::vector<double> after = predictor.predict(profile, std::vector<bool>(n, true));
  double loss_after = fit_loss(o, ms, after, fit);
  if (!(loss_after < loss_before)) {
    warnings.push_back("no parameters fit the measurements better than the start; the profile is the start");
    fitted = start;
    profile["efficiency"] = efficiency_json(fitted);
    after = predictor.predict(profile, std::vector<bool>(n, true));
    loss_after = fit_loss(o, ms, after, fit);
  }

  Json names = Json::array(), parameters = Json::object();
  std::size_t fitted_count = 0;
  for (bool f : fit) fitted_count += f ? 1 : 0;
  for (const FittedParameter& p : o.params) {
    const double v = fitted.*(p.member);
    const bool at_bound = v <= p.low * (1 + 1e-3) || v >= p.high * (1 - 1e-3);
    names.push_back(p.name);
    parameters[p.name] = {{"start", start.*(p.member)}, {"fitted", v}, {"low", p.low}, {"high", p.high},
                          {"at_bound", at_bound}};
    if (at_bound)
      warnings.push_back(std::string(p.name) + " stopped at the bound of its range (" + echo(Json(v)) +
                         "): the measurements may hold something the model does not describe");
  }
  if (fitted_count < o.params.size())
    warnings.push_back("fewer measurements fitted (" + std::to_string(fitted_count) + ") than parameters (" +
                       std::to_string(o.params.size()) + "): the fit is not determined");
  if (!found.converged) warnings.push_back("the search stopped at max_evaluations before converging");

  Json out = {{"ok", true}, {"command", "calibrate"},
              {"measurements", {{"count", n}, {"fitted", fitted_count}, {"held_out", n - fitted_count},
                                {"requests", predictor.request_count()}}},
              {"parameters", names},
              {"loss", {{"kind", loss_kind_name(o.loss.kind)}, {"scale", o.loss.scale}, {"before", loss_before},
                        {"after", loss_after}}},
              {"search", {{"method", "nelder_mead"}, {"evaluations", found.evaluations},
                          {"iterations", found.iterations}, {"converged", found.converged}}},
              {"start", {{"software_era", era_key}, {"efficiency", efficiency_json(start)}}},
              {"profile", profile},
              {"fitted", parameters},
              {"before", errors_json(ms, before, fit)},
              {"after", errors_json(ms, after, fit)}};
  if (o.holdout_fraction > 0)
    out["holdout"] = {{"split", o.holdout}, {"before", errors_json(ms, before, held)},
                      {"after", errors_json(ms, after, held)}};
  out["warnings"] = warnings;
  return out;
}

}  // namespace paleo
