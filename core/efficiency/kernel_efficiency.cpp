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
      {"fp8_matmul_ceiling", &KernelEfficiency::fp8_matmul_ceiling, 0, 1},
      {"conv_ceiling", &KernelEfficiency::conv_ceiling, 0.01, 1},
      {"tile", &KernelEfficiency::tile, 1, 4096},
      {"short_k", &KernelEfficiency::short_k, 0, 1e6},
      {"wave_quantization", &KernelEfficiency::wave_quantization, 0, 1},
      {"vector_ceiling", &KernelEfficiency::vector_ceiling, 0.01, 1},
      {"winograd_ceiling", &KernelEfficiency::winograd_ceiling, 0.01, 1},
      {"memory_fraction", &KernelEfficiency::memory_fraction, 0.01, 1},
      {"kernel_overhead_ms", &KernelEfficiency::kernel_overhead_ms, 0, 100},
      {"launch_interval_ms", &KernelEfficiency::launch_interval_ms, 0, 100},
      {"misaligned_tensor_core", &KernelEfficiency::misaligned_tensor_core, 0, 1},
      {"odd_tensor_core", &KernelEfficiency::odd_tensor_core, 0, 1},
      {"simt_tile", &KernelEfficiency::simt_tile, 0, 1024},
      {"unfused_conv_bias", &KernelEfficiency::unfused_conv_bias, 0, 1},
      {"pooling_efficiency", &KernelEfficiency::pooling_efficiency, 0.01, 1},
      {"step_overhead_ms", &KernelEfficiency::step_overhead_ms, 0, 10000},
      {"message_overhead_ms", &KernelEfficiency::message_overhead_ms, 0, 1000},
      {"step_jitter_cv", &KernelEfficiency::step_jitter_cv, 0, 1},
      {"transfer_serialization", &KernelEfficiency::transfer_serialization, 0, 1},
  };
  return all;
}

const EfficiencyParameter* find_efficiency_parameter(const std::string& name) {
  for (const EfficiencyParameter& p : efficiency_parameters())
    if (name == p.name) return &p;
  return nullptr;
}

namespace {

// A dimension in whole tiles. Libraries keep narrower kernels for a dimension shorter than the
// tile (a 3-channel data gradient is not run in 128-wide tiles): such a dimension takes the
// smallest halving of the tile, down to 8, that still covers it.
struct TiledDim {
  double tile, tiles, padded;
};
TiledDim tiled(double x, double tile) {
  while (tile / 2 >= x && tile / 2 >= 8) tile /= 2;
  const double tiles = std::ceil(x / tile);
  return {tile, tiles, tiles * tile};
}

// The fraction of the SMs that `tiles` keep busy. Fewer tiles than SMs leave the rest idle; from a
// wave on, the libraries' tile shapes and stream-K scheduling even the last wave out (measured:
// bf16 products of 1536 to 6144 square on an H100 reach 0.74 to 1.0 of the largest's rate, with
// no steps at whole waves; docs/measurements.md).
double wave_fill(double tiles, double sm_count) {
  return std::min(1.0, tiles / sm_count);
}

// The fraction of the CUDA-core peak an m x n product's tile shape allows (simt_tile). The
// narrowest such kernel is 32 wide (or the full tile, if narrower): a narrower product reads each
// element of its wide operand once and is bound by memory, not by this rate. Never above 1.
double cuda_core_tile_rate(const KernelEfficiency& e, double m, double n) {
  if (e.simt_tile <= 0) return 1;
  const double narrowest = std::min(32.0, e.simt_tile);
  auto width = [&](double x) { return std::max(narrowest, tiled(x, e.simt_tile).tile); };
  return (2 / e.simt_tile) / (1 / width(m) + 1 / width(n));
}

// The shortest part of a split inner dimension, and the most parts (a weight gradient of a small
// filter over a large batch splits its inner dimension into hundreds).
constexpr double kMinSplitChunk = 128;
constexpr double kMaxSplit = 4096;

}  // namespace

MatmulTiling matmul_tiling(const KernelEfficiency& e, double m, double n, double k, double sm_count, double batches,
                           double ceiling_ms, double ms_per_byte) {
  MatmulTiling t;
  if (m <= 0 || n <= 0 || k <= 0) return t;
  const TiledDim tm = tiled(m, e.tile), tn = tiled(n, e.tile);
  const double padding = (m * n) / (tm.padded * tn.padded);
  auto inner = [&](double chunk) { return chunk / (chunk + e.short_k); };
  t.efficiency = padding * inner(k);
  if (sm_count <= 0 || e.wave_quantization <= 0) return t;
  // A product of too few tiles to fill the device has its inner dimension split (split-K), at the
  // price of reducing the parts' partial sums.
  const double tiles = tm.tiles * tn.tiles * std::max(1.0, batches);
  t.efficiency = padding * wave_fill(tiles, sm_count) * inner(k);
  double best_ms = ceiling_ms / t.efficiency;
  // A split past the first that fills every SM only shortens the parts and adds partial sums.
  for (double split = 2; tiles * split / 2 < sm_count && split <= kMaxSplit && k / split >= kMinSplitChunk;
       split *= 2) {
    const MatmulTiling candidate{padding * wave_fill(tiles * split, sm_count) * inner(k / split), split};
    const double ms = ceiling_ms / candidate.efficiency + split_k_bytes(candidate, m, n, batches) * ms_per_byte;
    if (ms < best_ms) {
      best_ms = ms;
      t = candidate;
    }
  }
  return t;
}

double split_k_bytes(const MatmulTiling& tiling, double m, double n, double batches) {
  if (tiling.split_k <= 1) return 0;
  return 2 * tiling.split_k * m * n * std::max(1.0, batches) * 4;
}

TiledMatmulMs tiled_matmul_ms(const KernelEfficiency& e, double flops, double ceiling_gflops, double m, double n,
                              double k, double sm_count, double batches, double ms_per_byte) {
  const double ceiling_ms = flops / (ceiling_gflops * 1e9) * 1e3;
  const MatmulTiling tiling = matmul_tiling(e, m, n, k, sm_count, batches, ceiling_ms, ms_per_byte);
  return {ceiling_ms / tiling.efficiency, split_k_bytes(tiling, m, n, batches) * ms_per_byte};
}

double era_matmul_peak_gflops(const Device& d, const KernelEfficiency& e, Dtype t, double m, double n, double k) {
  if (runs_on_tensor_cores(d, t, n, k)) return matmul_peak_gflops(d, t, n, k);
  // cuBLAS runs fp8 products only on aligned operands ("Tensor Core Usage"): a misaligned one
  // runs as a bf16 product of its shape would.
  if (e.misaligned_tensor_core > 0 && runs_in_fp8(d, t)) return era_matmul_peak_gflops(d, e, Dtype::kBf16, m, n, k);
  const double cuda_cores = matmul_peak_gflops(d, t, n, k) * cuda_core_tile_rate(e, m, n);
  if (e.misaligned_tensor_core <= 0) return cuda_cores;
  if (effective_matmul_dtype(d, t) == Dtype::kFp32) return cuda_cores;  // no tensor cores for t
  double rate = e.misaligned_tensor_core;
  if (e.odd_tensor_core > 0 && (std::fmod(n, 2) != 0 || std::fmod(k, 2) != 0)) {
    // Elements loaded per FLOP grow as 1/tm + 1/tn: the full tile's ratio over this one's.
    rate = e.odd_tensor_core * (2 / e.tile) / (1 / tiled(m, e.tile).tile + 1 / tiled(n, e.tile).tile);
  }
  return std::max(cuda_cores, dense_peak_gflops(d, t) * rate);
}

double ceiling_gflops(double peak_gflops, const KernelEfficiency& e, bool convolution) {
  return peak_gflops * (convolution ? e.conv_ceiling : e.matmul_ceiling);
}

double matmul_ms(const Device& d, const KernelEfficiency& e, Dtype t, double m, double n, double k, double batches) {
  const double flops = 2 * m * n * k * batches;
  if (flops <= 0) return 0;
  const bool fp8 = runs_on_tensor_cores(d, t, n, k) && runs_in_fp8(d, t);
  const double ceiling = fp8 && e.fp8_matmul_ceiling > 0 ? e.fp8_matmul_ceiling : e.matmul_ceiling;
  const TiledMatmulMs ms = tiled_matmul_ms(e, flops, era_matmul_peak_gflops(d, e, t, m, n, k) * ceiling, m, n, k,
                                           d.sm_count, batches, memory_ms(d, e, 1));
  // A product too small to be compute-bound still reads its operands and writes its result.
  const double bytes = (m * k + k * n + m * n) * dtype_bytes(t) * batches;
  return std::max(ms.compute_ms, memory_ms(d, e, bytes)) + ms.reduce_ms;
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
