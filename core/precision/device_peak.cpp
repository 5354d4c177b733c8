#include "core/precision/device_peak.h"

#include <cmath>

namespace paleo {
namespace {

bool has_peak(const Device& d, const char* key) { return d.peak_tensor_gflops.count(key) > 0; }

bool multiple(double x, double of) { return std::fmod(x, of) == 0; }

}  // namespace

Dtype effective_matmul_dtype(const Device& d, Dtype t) {
  switch (t) {
    case Dtype::kFp8E4M3:
    case Dtype::kFp8E5M2:
      if (has_peak(d, "fp8")) return t;
      [[fallthrough]];
    case Dtype::kBf16:
      if (has_peak(d, "bf16")) return Dtype::kBf16;
      [[fallthrough]];
    case Dtype::kFp16:
      if (has_peak(d, "fp16")) return Dtype::kFp16;
      return Dtype::kFp32;
    case Dtype::kTf32:
      return has_peak(d, "tf32") ? Dtype::kTf32 : Dtype::kFp32;
    case Dtype::kFp32:
      return Dtype::kFp32;
  }
  return Dtype::kFp32;
}

bool tensor_core_aligned(Dtype t, double n, double k) {
  const double elements = 16 / dtype_bytes(t);
  return multiple(n, elements) && multiple(k, elements);
}

double dense_peak_gflops(const Device& d, Dtype t) {
  const Dtype e = effective_matmul_dtype(d, t);
  if (e == Dtype::kFp32) return d.peak_gflops;
  return d.peak_tensor_gflops.at(tensor_peak_key(e));
}

bool runs_on_tensor_cores(const Device& d, Dtype t, double n, double k) {
  const Dtype e = effective_matmul_dtype(d, t);
  return e != Dtype::kFp32 && tensor_core_aligned(e, n, k);
}

bool runs_in_fp8(const Device& d, Dtype t) { return dtype_bytes(effective_matmul_dtype(d, t)) == 1; }

double matmul_peak_gflops(const Device& d, Dtype t, double n, double k) {
  if (!runs_on_tensor_cores(d, t, n, k)) return d.peak_gflops;
  return d.peak_tensor_gflops.at(tensor_peak_key(effective_matmul_dtype(d, t)));
}

std::optional<std::string> matrix_format_warning(const Device& d, Dtype t) {
  const Dtype runs_as = effective_matmul_dtype(d, t);
  if (t == Dtype::kFp32 || runs_as == t) return std::nullopt;
  return std::string("precision: the device has no ") + dtype_name(t) + " matrix units: products run as " +
         dtype_name(runs_as);
}

}  // namespace paleo
