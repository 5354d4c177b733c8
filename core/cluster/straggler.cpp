#include "core/cluster/straggler.h"

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace paleo {

namespace {

// E[max] = integral of x n phi(x) Phi(x)^(n-1) dx, by the midpoint rule over [-9, 9] (the density
// beyond is below 1e-17 for any n a cluster has); log-space keeps Phi^(n-1) finite. The grid's
// points, their half squares and log Phi do not depend on n: computed once (a cluster sweep asks
// for the same few n thousands of times, and erfc and log were a fifth of its time).
constexpr int kSteps = 3600;
constexpr double kLow = -9, kHigh = 9, kDx = (kHigh - kLow) / kSteps;

struct NormalGrid {
  std::vector<double> x, half_x2, log_cdf;  // the points where Phi > 0
  NormalGrid() {
    for (int i = 0; i < kSteps; ++i) {
      const double xi = kLow + (i + 0.5) * kDx;
      const double cdf = 0.5 * std::erfc(-xi / std::sqrt(2.0));
      if (cdf <= 0) continue;
      x.push_back(xi);
      half_x2.push_back(0.5 * xi * xi);
      log_cdf.push_back(std::log(cdf));
    }
  }
};

double integrate_max(double nd) {
  static const NormalGrid grid;
  constexpr double kTwoPi = 6.283185307179586;
  const double log_norm = std::log(nd) - 0.5 * std::log(kTwoPi);
  double sum = 0;
  for (std::size_t i = 0; i < grid.x.size(); ++i)
    sum += grid.x[i] * std::exp(log_norm - grid.half_x2[i] + (nd - 1) * grid.log_cdf[i]);
  return sum * kDx;
}

}  // namespace

double expected_max_standard_normal(std::int64_t n) {
  if (n <= 1) return 0;
  // The answers already given, per thread (the core is called from several threads natively): a
  // sweep asks for a few server counts, so a short list searched in order is enough.
  thread_local std::vector<std::pair<std::int64_t, double>> known;
  for (const auto& [servers, value] : known)
    if (servers == n) return value;
  const double value = integrate_max(static_cast<double>(n));
  if (known.size() < 64) known.emplace_back(n, value);
  return value;
}

double straggler_wait_ms(double compute_ms, double jitter_cv, std::int64_t servers) {
  if (!(jitter_cv > 0) || !(compute_ms > 0) || servers <= 1) return 0;
  return compute_ms * jitter_cv * expected_max_standard_normal(servers);
}

}  // namespace paleo
