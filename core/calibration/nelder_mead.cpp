#include "core/calibration/nelder_mead.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

namespace paleo {
namespace {

using Point = std::vector<double>;

Point clamp_to_cube(Point x) {
  for (double& v : x) v = std::min(1.0, std::max(0.0, v));
  return x;
}

// a + t (b - a), projected onto the cube.
Point along(const Point& a, const Point& b, double t) {
  Point x(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) x[i] = a[i] + t * (b[i] - a[i]);
  return clamp_to_cube(std::move(x));
}

class Counted {
 public:
  Counted(const std::function<double(const Point&)>& f, int budget) : f_(f), budget_(budget) {}
  double operator()(const Point& x) {
    ++count_;
    const double v = f_(x);
    return std::isfinite(v) ? v : std::numeric_limits<double>::infinity();
  }
  bool exhausted() const { return count_ >= budget_; }
  int count() const { return count_; }

 private:
  const std::function<double(const Point&)>& f_;
  int budget_;
  int count_ = 0;
};

struct Round {
  Point x;
  double value = 0;
  int iterations = 0;
  bool converged = false;
};

// One Nelder-Mead descent (reflection 1, expansion 2, contraction 1/2, shrink 1/2) from x0.
Round descend(Counted& f, const Point& x0, double f0, const MinimizeOptions& o) {
  const std::size_t n = x0.size();
  std::vector<Point> p(n + 1, x0);
  std::vector<double> v(n + 1, f0);
  for (std::size_t i = 0; i < n; ++i) {
    p[i + 1][i] += p[i + 1][i] + o.initial_step <= 1 ? o.initial_step : -o.initial_step;
    v[i + 1] = f(p[i + 1]);
  }
  Round r;
  while (!f.exhausted()) {
    std::vector<std::size_t> order(n + 1);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<Point> sp;
    std::vector<double> sv;
    for (std::size_t i : order) {
      sp.push_back(p[i]);
      sv.push_back(v[i]);
    }
    p.swap(sp);
    v.swap(sv);
    double size = 0;
    for (std::size_t i = 1; i <= n; ++i)
      for (std::size_t j = 0; j < n; ++j) size = std::max(size, std::fabs(p[i][j] - p[0][j]));
    const bool flat = std::isfinite(v[n]) && v[n] - v[0] <= o.f_tolerance + 1e-12 * std::fabs(v[0]);
    if (size <= o.x_tolerance || flat) {
      r.converged = true;
      break;
    }
    ++r.iterations;
    Point centroid(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) centroid[j] += p[i][j] / static_cast<double>(n);
    const Point reflected = along(centroid, p[n], -1);
    const double fr = f(reflected);
    if (fr < v[0]) {
      const Point expanded = along(centroid, p[n], -2);
      const double fe = f(expanded);
      if (fe < fr) {
        p[n] = expanded;
        v[n] = fe;
      } else {
        p[n] = reflected;
        v[n] = fr;
      }
      continue;
    }
    if (fr < v[n - 1]) {
      p[n] = reflected;
      v[n] = fr;
      continue;
    }
    const bool outside = fr < v[n];
    const Point contracted = outside ? along(centroid, reflected, 0.5) : along(centroid, p[n], 0.5);
    const double fc = f(contracted);
    if (outside ? fc <= fr : fc < v[n]) {
      p[n] = contracted;
      v[n] = fc;
      continue;
    }
    for (std::size_t i = 1; i <= n; ++i) {
      p[i] = along(p[0], p[i], 0.5);
      v[i] = f(p[i]);
    }
  }
  const std::size_t best = static_cast<std::size_t>(std::min_element(v.begin(), v.end()) - v.begin());
  r.x = p[best];
  r.value = v[best];
  return r;
}

}  // namespace

MinimizeResult minimize_in_unit_cube(const std::function<double(const std::vector<double>&)>& f,
                                     const std::vector<double>& start, const MinimizeOptions& options) {
  Counted counted(f, options.max_evaluations);
  MinimizeResult result;
  result.x = clamp_to_cube(start);
  result.value = counted(result.x);
  if (!result.x.empty()) {
    for (int round = 0; round <= options.restarts && !counted.exhausted(); ++round) {
      const Round r = descend(counted, result.x, result.value, options);
      result.iterations += r.iterations;
      result.converged = r.converged;
      const bool improved = r.value < result.value;
      if (improved) {
        result.x = r.x;
        result.value = r.value;
      }
      // A restart that finds nothing better confirms the minimum.
      if (!improved && round > 0) break;
    }
  } else {
    result.converged = true;
  }
  result.evaluations = counted.count();
  return result;
}

}  // namespace paleo
