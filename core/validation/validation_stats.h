#pragma once
// validation/: the summary of a set of relative errors (predicted / measured - 1).
#include <cstddef>
#include <vector>

namespace paleo {

struct ErrorStats {
  std::size_t count = 0;
  double median_abs = 0;  // median of |error|
  double max_abs = 0;     // largest |error|
  double mean = 0;        // mean signed error: > 0 means the model over-predicts on average
};

ErrorStats error_stats(const std::vector<double>& errors);

}  // namespace paleo
