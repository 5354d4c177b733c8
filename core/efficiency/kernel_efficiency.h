#pragma once
// efficiency/: how much of a device's peak a kernel reaches. This file: the per-kernel
// roofline with an achievable efficiency for matrix products (tile quantization, short inner
// dimensions, a ceiling), an achievable fraction of memory bandwidth, and a per-kernel overhead.
// The parameters are defaults of a modern software stack (cuBLAS/cuDNN 8+, fused kernels); the
// fidelity work fits them per device generation and software era (docs/transformer.md).
#include <string>
#include <vector>

#include "core/hardware/device.h"
#include "core/precision/dtype.h"

namespace paleo {

struct KernelEfficiency {
  double matmul_ceiling = 0.80;    // fraction of the matrix peak a large, aligned GEMM reaches
  double conv_ceiling = 0.80;      // the same for a convolution's implicit GEMM (cuDNN, not cuBLAS)
  double tile = 128;               // m and n are padded to whole tiles of this size (or of a
                                   // halving of it, down to 8, for a shorter dimension)
  double short_k = 64;             // inner dimension k reaches k / (k + short_k) of the ceiling
  double vector_ceiling = 0.70;    // fraction of the vector peak for arithmetic-heavy non-GEMM work
  double winograd_ceiling = 0.70;  // fraction of the vector peak a Winograd convolution reaches on
                                   // its own (reduced) FLOPs: transforms and batched products
  double memory_fraction = 0.85;   // fraction of peak memory bandwidth a streaming kernel reaches
  double kernel_overhead_ms = 0.004;  // launch and framework time per kernel, in a step
  // Kernels launched back to back ("timing": "kernel") take at least this each: the time the
  // framework and driver take to issue one, which the device time of a longer kernel hides.
  double launch_interval_ms = 0;
  // Fraction of the dense tensor-core peak a GEMM reaches when a dimension breaks the tensor
  // cores' 16-byte alignment; 0: it runs on the CUDA cores instead (cuBLAS before 11.0).
  double misaligned_tensor_core = 0;
  // 1: a convolution's bias is a kernel of its own (PyTorch adds it after cuDNN's convolution
  // and reduces the output gradient for its gradient); 0: fused into the convolution or absent.
  double unfused_conv_bias = 0;
  double pooling_efficiency = 1;   // pooling kernels reach this fraction of memory_fraction
  // Runtime costs outside any kernel, zero unless an era was fitted with them:
  double step_overhead_ms = 0;     // per training step (iteration set-up, dependence analysis)
  double message_overhead_ms = 0;  // per message of a gradient exchange, beyond the link's latency
};

const KernelEfficiency& default_kernel_efficiency();

// Each parameter by its request name, with the range a request may set it to.
struct EfficiencyParameter {
  const char* name;
  double KernelEfficiency::*member;
  double low, high;  // inclusive bounds of a sensible value
};
const std::vector<EfficiencyParameter>& efficiency_parameters();
// Throws nothing: nullptr for an unknown name.
const EfficiencyParameter* find_efficiency_parameter(const std::string& name);

// `batches` independent (m x k) by (k x n) products in format t: FLOPs 2*m*n*k*batches.
double matmul_ms(const Device& d, const KernelEfficiency& e, Dtype t, double m, double n, double k,
                 double batches = 1);
// The peak an (m x k) by (k x n) product in format t runs against: the tensor cores' when n and k
// are aligned for them, else misaligned_tensor_core of it where the era has that, else the vector peak.
double era_matmul_peak_gflops(const Device& d, const KernelEfficiency& e, Dtype t, double n, double k);
// Efficiency factor (0, 1] of one product's shape, before the ceiling.
double matmul_shape_efficiency(const KernelEfficiency& e, double m, double n, double k);
// The FLOP/s (1e9) an (m x k) by (k x n) product reaches on units of `peak_gflops`: the ceiling
// (conv_ceiling for a convolution, else matmul_ceiling) times the shape's efficiency.
double achieved_matmul_gflops(double peak_gflops, const KernelEfficiency& e, double m, double n, double k,
                              bool convolution = false);
// Streaming `bytes` through memory.
double memory_ms(const Device& d, const KernelEfficiency& e, double bytes);
// Non-GEMM arithmetic at the vector peak.
double vector_ms(const Device& d, const KernelEfficiency& e, double flops);
// A Winograd convolution's FLOPs at the vector peak times winograd_ceiling.
double winograd_ms(const Device& d, const KernelEfficiency& e, double flops);

}  // namespace paleo
