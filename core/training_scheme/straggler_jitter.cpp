#include "core/training_scheme/straggler_jitter.h"

#include <algorithm>
#include <cmath>

#include "core/base/enum_names.h"
#include "core/base/error.h"

namespace paleo {
namespace {

constexpr double kMaxSpread = 2.0;  // a coefficient of variation beyond this is not a jitter model
// A normal step time is negative with probability Phi(-1 / CV): 0.04 % at 0.3, 31 % at 2.
constexpr double kMaxNormalSpread = 0.3;

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// P(max <= x) with `workers - 1` ordinary workers and one slow one (or all ordinary).
double max_cdf(const StragglerModel& j, double mean_ms, double spread, std::int64_t workers, double x) {
  const double ordinary = step_time_cdf(j.distribution, mean_ms, spread, x);
  if (j.slow_fraction <= 0) return std::pow(ordinary, static_cast<double>(workers));
  const double slow = step_time_cdf(j.distribution, mean_ms * (1 + j.slow_fraction), spread, x);
  return std::pow(ordinary, static_cast<double>(workers - 1)) * slow;
}

}  // namespace

const char* jitter_distribution_name(JitterDistribution d) {
  static const EnumName<JitterDistribution> names[] = {
      {JitterDistribution::kNone, "none"}, {JitterDistribution::kNormal, "normal"}, {JitterDistribution::kLognormal, "lognormal"}};
  return enum_name(names, d);
}

StragglerModel parse_jitter(const std::string& text, const std::string& field) {
  StragglerModel j;
  if (text == "none") return j;
  const std::size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  if (kind == "normal") j.distribution = JitterDistribution::kNormal;
  else if (kind == "lognormal") j.distribution = JitterDistribution::kLognormal;
  else throw Error("unknown jitter '" + text + "' (none, normal:CV, lognormal:CV)", "", field);
  if (colon == std::string::npos) throw Error("'" + kind + "' needs a spread, e.g. " + kind + ":0.2", "", field);
  const std::string value = text.substr(colon + 1);
  char* end = nullptr;
  j.spread = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !(j.spread > 0) || j.spread > kMaxSpread)
    throw Error("the spread (coefficient of variation) must be a number in (0, 2]", "", field);
  if (j.distribution == JitterDistribution::kNormal && j.spread > kMaxNormalSpread)
    throw Error("normal jitter's spread must be at most 0.3 (beyond it step times come out negative); "
                "use lognormal:" + value + " for a wider spread", "", field);
  return j;
}

double step_time_cdf(JitterDistribution d, double mean_ms, double spread, double x_ms) {
  if (d == JitterDistribution::kNone || spread <= 0) return x_ms >= mean_ms ? 1.0 : 0.0;
  if (d == JitterDistribution::kNormal) return normal_cdf((x_ms - mean_ms) / (spread * mean_ms));
  if (x_ms <= 0) return 0.0;
  const double sigma2 = std::log1p(spread * spread);
  const double mu = std::log(mean_ms) - sigma2 / 2;
  return normal_cdf((std::log(x_ms) - mu) / std::sqrt(sigma2));
}

double expected_max_step_ms(const StragglerModel& j, double mean_ms, std::int64_t workers,
                            std::int64_t steps_averaged) {
  if (workers < 1 || steps_averaged < 1) throw Error("needs at least one worker and one step", "", "training_scheme");
  const double slow_mean = mean_ms * (1 + std::max(0.0, j.slow_fraction));
  const bool slow = j.slow_fraction > 0;
  if (j.distribution == JitterDistribution::kNone || j.spread <= 0 || mean_ms <= 0) return slow ? slow_mean : mean_ms;
  const double spread = j.spread / std::sqrt(static_cast<double>(steps_averaged));
  StragglerModel model = j;
  if (slow && workers == 1) {  // the only worker is the slow one
    model.slow_fraction = 0;
    return expected_max_step_ms(model, slow_mean, 1, steps_averaged);
  }
  // E[X] = lo + integral over x >= lo of (1 - F(x)), F the distribution of the maximum and lo a
  // point below which F is zero to double precision; Simpson's rule up to where F is one.
  double lo = mean_ms * (1 - 12 * spread), hi = slow_mean * (1 + 12 * spread);
  if (j.distribution == JitterDistribution::kLognormal) {
    const double sigma = std::sqrt(std::log1p(spread * spread));
    lo = std::max(0.0, mean_ms * std::exp(-sigma * sigma / 2 - 12 * sigma));
    hi = slow_mean * std::exp(-sigma * sigma / 2 + 12 * sigma);
  }
  const int n = 6000;  // even
  const double h = (hi - lo) / n;
  auto f = [&](double x) { return 1 - max_cdf(model, mean_ms, spread, workers, x); };
  double sum = f(lo) + f(hi);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * f(lo + i * h);
  return lo + sum * h / 3;
}

}  // namespace paleo
