#include "core/cluster/straggler.h"

#include <cmath>

namespace paleo {

double expected_max_standard_normal(std::int64_t n) {
  if (n <= 1) return 0;
  // E[max] = integral of x n phi(x) Phi(x)^(n-1) dx, by the midpoint rule over [-9, 9] (the
  // density beyond is below 1e-17 for any n a cluster has); log-space keeps Phi^(n-1) finite.
  constexpr int kSteps = 3600;
  constexpr double kLow = -9, kHigh = 9, kDx = (kHigh - kLow) / kSteps;
  const double nd = static_cast<double>(n);
  constexpr double kTwoPi = 6.283185307179586;
  const double log_norm = std::log(nd) - 0.5 * std::log(kTwoPi);
  double sum = 0;
  for (int i = 0; i < kSteps; ++i) {
    const double x = kLow + (i + 0.5) * kDx;
    const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
    if (cdf <= 0) continue;
    sum += x * std::exp(log_norm - 0.5 * x * x + (nd - 1) * std::log(cdf));
  }
  return sum * kDx;
}

double straggler_wait_ms(double compute_ms, double jitter_cv, std::int64_t servers) {
  if (!(jitter_cv > 0) || !(compute_ms > 0) || servers <= 1) return 0;
  return compute_ms * jitter_cv * expected_max_standard_normal(servers);
}

}  // namespace paleo
