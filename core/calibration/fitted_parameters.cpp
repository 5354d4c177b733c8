#include "core/calibration/fitted_parameters.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/error.h"

namespace paleo {
namespace {

double scaled(const FittedParameter& p, double v) { return p.logarithmic ? std::log(v) : v; }

}  // namespace

const std::vector<FittedParameter>& fittable_parameters() {
  // Search ranges inside what a request accepts (core/efficiency/kernel_efficiency.h).
  auto fitted = [](const char* name, double low, double high, bool logarithmic) {
    return FittedParameter{name, find_efficiency_parameter(name)->member, low, high, logarithmic};
  };
  static const std::vector<FittedParameter> all = {
      fitted("matmul_ceiling", 0.02, 1, true),  fitted("memory_fraction", 0.02, 1, true),
      fitted("kernel_overhead_ms", 0, 1, false), fitted("short_k", 0, 2048, false),
      fitted("vector_ceiling", 0.02, 1, true),   fitted("conv_ceiling", 0.02, 1, true),
      fitted("winograd_ceiling", 0.02, 1, true), fitted("step_overhead_ms", 0, 200, false),
      fitted("message_overhead_ms", 0, 10, false), fitted("misaligned_tensor_core", 0.02, 1, true),
      fitted("pooling_efficiency", 0.02, 1, true), fitted("odd_tensor_core", 0.02, 1, true),
      fitted("launch_interval_ms", 0, 1, false), fitted("transfer_serialization", 0, 1, false),
      fitted("step_jitter_cv", 0, 0.2, false),
  };
  return all;
}

std::vector<FittedParameter> default_fitted_parameters(bool convolutions) {
  const std::vector<FittedParameter>& all = fittable_parameters();
  if (convolutions) return {all[5], all[1], all[2]};
  return {all[0], all[1], all[2]};
}

std::vector<FittedParameter> fitted_parameters_from_json(const Json& names, const std::string& field) {
  if (!names.is_array() || names.empty())
    throw Error("must be a non-empty list of parameter names, got " + echo(names), "", field);
  std::vector<FittedParameter> out;
  for (const Json& name : names) {
    const FittedParameter* found = nullptr;
    for (const FittedParameter& p : fittable_parameters())
      if (name.is_string() && name.get<std::string>() == p.name) found = &p;
    if (!found) {
      std::string known;
      for (const FittedParameter& p : fittable_parameters()) known += (known.empty() ? "" : ", ") + std::string(p.name);
      throw Error("unknown parameter " + echo(name) + " (fittable: " + known + "; tile is not fitted)", "", field);
    }
    for (const FittedParameter& p : out)
      if (p.member == found->member) throw Error("names " + echo(name) + " twice", "", field);
    out.push_back(*found);
  }
  return out;
}

std::vector<double> to_unit_cube(const std::vector<FittedParameter>& params, const KernelEfficiency& e) {
  std::vector<double> u;
  for (const FittedParameter& p : params) {
    const double v = std::min(p.high, std::max(p.low, e.*(p.member)));
    u.push_back((scaled(p, v) - scaled(p, p.low)) / (scaled(p, p.high) - scaled(p, p.low)));
  }
  return u;
}

KernelEfficiency from_unit_cube(const std::vector<FittedParameter>& params, const std::vector<double>& u,
                                KernelEfficiency base) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    const FittedParameter& p = params[i];
    const double s = scaled(p, p.low) + u[i] * (scaled(p, p.high) - scaled(p, p.low));
    base.*(p.member) = std::min(p.high, std::max(p.low, p.logarithmic ? std::exp(s) : s));
  }
  return base;
}

double round_significant(double value) {
  if (value == 0 || !std::isfinite(value)) return value;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", value);
  return std::strtod(buf, nullptr);
}

}  // namespace paleo
