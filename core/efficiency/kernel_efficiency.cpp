#include "core/efficiency/kernel_efficiency.h"

#include <algorithm>
#include <cmath>

#include "core/precision/device_peak.h"

namespace paleo {

const KernelEfficiency& default_kernel_efficiency() {
  static const KernelEfficiency e;
  return e;
}

const std::vector<EfficiencyParameter>& efficiency_parameters() {
  static const std::vector<EfficiencyParameter> all = {
      {"matmul_ceiling", &KernelEfficiency::matmul_ceiling, 0.01, 1},
      {"conv_ceiling", &KernelEfficiency::conv_ceiling, 0.01, 1},
      {"tile", &KernelEfficiency::tile, 1, 4096},
      {"short_k", &KernelEfficiency::short_k, 0, 1e6},
      {"vector_ceiling", &KernelEfficiency::vector_ceiling, 0.01, 1},
      {"winograd_ceiling", &KernelEfficiency::winograd_ceiling, 0.01, 1},
      {"memory_fraction", &KernelEfficiency::memory_fraction, 0.01, 1},
      {"kernel_overhead_ms", &KernelEfficiency::kernel_overhead_ms, 0, 100},
      {"launch_interval_ms", &KernelEfficiency::launch_interval_ms, 0, 100},
      {"misaligned_tensor_core", &KernelEfficiency::misaligned_tensor_core, 0, 1},
      {"unfused_conv_bias", &KernelEfficiency::unfused_conv_bias, 0, 1},
      {"pooling_efficiency", &KernelEfficiency::pooling_efficiency, 0.01, 1},
      {"step_overhead_ms", &KernelEfficiency::step_overhead_ms, 0, 10000},
      {"message_overhead_ms", &KernelEfficiency::message_overhead_ms, 0, 1000},
  };
  return all;
}

const EfficiencyParameter* find_efficiency_parameter(const std::string& name) {
  for (const EfficiencyParameter& p : efficiency_parameters())
    if (name == p.name) return &p;
  return nullptr;
}

namespace {

// A dimension padded to whole tiles. Libraries keep narrower kernels for a dimension shorter
// than the tile (a 3-channel data gradient is not run in 128-wide tiles): such a dimension takes
// the smallest halving of the tile, down to 8, that still covers it.
double padded(double x, double tile) {
  while (tile / 2 >= x && tile / 2 >= 8) tile /= 2;
  return std::ceil(x / tile) * tile;
}

}  // namespace

double matmul_shape_efficiency(const KernelEfficiency& e, double m, double n, double k) {
  if (m <= 0 || n <= 0 || k <= 0) return 1;
  const double padded_m = padded(m, e.tile), padded_n = padded(n, e.tile);
  return (m * n) / (padded_m * padded_n) * (k / (k + e.short_k));
}

double era_matmul_peak_gflops(const Device& d, const KernelEfficiency& e, Dtype t, double n, double k) {
  const double aligned_or_vector = matmul_peak_gflops(d, t, n, k);
  if (e.misaligned_tensor_core <= 0 || runs_on_tensor_cores(d, t, n, k)) return aligned_or_vector;
  if (effective_matmul_dtype(d, t) == Dtype::kFp32) return aligned_or_vector;  // no tensor cores for t
  return std::max(aligned_or_vector, dense_peak_gflops(d, t) * e.misaligned_tensor_core);
}

double achieved_matmul_gflops(double peak_gflops, const KernelEfficiency& e, double m, double n, double k,
                              bool convolution) {
  const double ceiling = convolution ? e.conv_ceiling : e.matmul_ceiling;
  return peak_gflops * ceiling * matmul_shape_efficiency(e, m, n, k);
}

double matmul_ms(const Device& d, const KernelEfficiency& e, Dtype t, double m, double n, double k, double batches) {
  const double flops = 2 * m * n * k * batches;
  if (flops <= 0) return 0;
  const double peak = achieved_matmul_gflops(era_matmul_peak_gflops(d, e, t, n, k), e, m, n, k);
  const double compute_ms = flops / (peak * 1e9) * 1e3;
  // A product too small to be compute-bound still reads its operands and writes its result.
  const double bytes = (m * k + k * n + m * n) * dtype_bytes(t) * batches;
  return std::max(compute_ms, memory_ms(d, e, bytes));
}

double memory_ms(const Device& d, const KernelEfficiency& e, double bytes) {
  if (bytes <= 0) return 0;
  return bytes / (d.mem_bandwidth_gb_per_s * 1e9 * e.memory_fraction) * 1e3;
}

double vector_ms(const Device& d, const KernelEfficiency& e, double flops) {
  if (flops <= 0) return 0;
  return flops / (d.peak_gflops * 1e9 * e.vector_ceiling) * 1e3;
}

double winograd_ms(const Device& d, const KernelEfficiency& e, double flops) {
  if (flops <= 0) return 0;
  return flops / (d.peak_gflops * 1e9 * e.winograd_ceiling) * 1e3;
}

}  // namespace paleo
