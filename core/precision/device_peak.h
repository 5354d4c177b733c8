#pragma once
// Which peak a kernel reaches on a device in a number format.
//
// Matrix products run on the matrix units (tensor cores) at the device's peak for the format
// when the format is in the device's peak_tensor_gflops table and the product is aligned: its
// leading dimensions (k and n: the rows of the operands as stored; m, the token count, may be
// anything) multiples of 16 bytes of the format (8 elements of fp16/bf16, 16 of fp8, 4 of tf32),
// the rule of cuBLAS for its tensor-core kernels. Otherwise they run at the vector (CUDA core)
// peak, `peak_gflops`. A format the device lacks falls back to the next wider one it has (fp8 ->
// bf16 -> fp16 -> vector), as frameworks do. Everything else (element-wise, norms, softmax,
// reductions, lookups) runs at the vector peak or is memory-bound.
#include <optional>
#include <string>

#include "core/hardware/device.h"
#include "core/precision/dtype.h"

namespace paleo {

// The format the device's matrix units actually run for `t` (after fallback); kFp32 when none.
Dtype effective_matmul_dtype(const Device& d, Dtype t);
bool tensor_core_aligned(Dtype t, double n, double k);
// Whether an (m x k) by (k x n) product in format t runs on the matrix units (tensor cores).
bool runs_on_tensor_cores(const Device& d, Dtype t, double n, double k);
// Whether the device's matrix units run format `t` as fp8 (not a wider fallback).
bool runs_in_fp8(const Device& d, Dtype t);
// Peak GFLOP/s for an (m x k) by (k x n) product in format t.
double matmul_peak_gflops(const Device& d, Dtype t, double n, double k);
// Peak of the format's dense matrix units (the denominator of MFU); the vector peak without any.
double dense_peak_gflops(const Device& d, Dtype t);
// The warning a request in format `t` earns on a device whose matrix units lack it (the products
// are priced in the format they fall back to); nothing for fp32 or a format the device has.
std::optional<std::string> matrix_format_warning(const Device& d, Dtype t);

}  // namespace paleo
