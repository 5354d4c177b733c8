#pragma once
// calibration/: the kernel-efficiency parameters a calibration may fit, their search ranges, and
// the map between their values and the unit cube the minimiser works in (a logarithmic scale for
// the fractions of peak, which divide times; a linear one for the per-kernel overhead and the
// short-k constant, which may be 0).
#include <string>
#include <vector>

#include "core/efficiency/kernel_efficiency.h"
#include "core/base/json.h"

namespace paleo {

struct FittedParameter {
  const char* name;
  double KernelEfficiency::*member;
  double low, high;  // the search range (within the range a request accepts)
  bool logarithmic;
};

// matmul_ceiling, memory_fraction, kernel_overhead_ms, short_k, vector_ceiling, conv_ceiling,
// winograd_ceiling, step_overhead_ms, message_overhead_ms, misaligned_tensor_core,
// pooling_efficiency, odd_tensor_core, launch_interval_ms, transfer_serialization, step_jitter_cv.
const std::vector<FittedParameter>& fittable_parameters();
// The default set: matmul_ceiling (conv_ceiling when the measurements are of CNNs, whose time is
// in convolutions), memory_fraction, kernel_overhead_ms.
std::vector<FittedParameter> default_fitted_parameters(bool convolutions = false);
// A request's "parameters" list. Throws paleo::Error naming `field` for an unknown or repeated name.
std::vector<FittedParameter> fitted_parameters_from_json(const Json& names, const std::string& field);

std::vector<double> to_unit_cube(const std::vector<FittedParameter>& params, const KernelEfficiency& e);
// `base` with the parameters set from unit-cube coordinates.
KernelEfficiency from_unit_cube(const std::vector<FittedParameter>& params, const std::vector<double>& u,
                                KernelEfficiency base);
// The value rounded to 4 significant digits (a profile short enough to read and to put in a URL).
double round_significant(double value);

}  // namespace paleo
