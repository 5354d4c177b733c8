#pragma once
// calibration/: fitting the kernel efficiencies of one device and software stack to a user's own
// measurements (docs/calibration.md). This file: a plain Nelder-Mead minimiser over the unit
// cube [0, 1]^n. Trial points outside the cube are projected onto it; after convergence the
// search restarts from the best point with a fresh simplex (a collapsed simplex on a bound or a
// kink of the model's max(compute, memory) cannot stop it early). Deterministic: no randomness,
// ties keep the earlier vertex.
#include <functional>
#include <vector>

namespace paleo {

struct MinimizeOptions {
  int max_evaluations = 600;
  double initial_step = 0.05;  // edge of the starting simplex, in unit-cube coordinates
  double x_tolerance = 1e-7;   // converged when the simplex is this small in every coordinate,
  double f_tolerance = 1e-14;  // or when its values differ by this much (plus 1e-12 relative)
  int restarts = 2;
};

struct MinimizeResult {
  std::vector<double> x;
  double value = 0;
  int evaluations = 0;
  int iterations = 0;
  bool converged = false;  // the last round met a tolerance before max_evaluations
};

// Minimises f from `start` (clamped into the cube). A non-finite value of f counts as +infinity.
MinimizeResult minimize_in_unit_cube(const std::function<double(const std::vector<double>&)>& f,
                                     const std::vector<double>& start, const MinimizeOptions& options = {});

}  // namespace paleo
