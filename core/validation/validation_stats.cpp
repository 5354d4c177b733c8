#include "core/validation/validation_stats.h"

#include <algorithm>
#include <cmath>

namespace paleo {

ErrorStats error_stats(const std::vector<double>& errors) {
  ErrorStats s;
  s.count = errors.size();
  if (errors.empty()) return s;
  std::vector<double> abs_errors;
  double sum = 0;
  for (double e : errors) {
    abs_errors.push_back(std::fabs(e));
    sum += e;
  }
  std::sort(abs_errors.begin(), abs_errors.end());
  const std::size_t n = abs_errors.size();
  s.median_abs = n % 2 ? abs_errors[n / 2] : (abs_errors[n / 2 - 1] + abs_errors[n / 2]) / 2;
  s.max_abs = abs_errors.back();
  s.mean = sum / static_cast<double>(n);
  return s;
}

}  // namespace paleo
