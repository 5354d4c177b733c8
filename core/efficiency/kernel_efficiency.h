#pragma once
// efficiency/: how much of a device's peak a kernel reaches. This file: the per-kernel
// roofline with an achievable efficiency for matrix products (tile and wave quantization, split
// inner dimensions, a ceiling), an achievable fraction of memory bandwidth, and a per-kernel overhead.
// The parameters are defaults of a modern software stack (cuBLAS/cuDNN 8+, fused kernels); the
// fidelity work fits them per device generation and software era (docs/transformer.md).
#include <string>
#include <vector>

#include "core/hardware/device.h"
#include "core/precision/dtype.h"

namespace paleo {

struct KernelEfficiency {
  double matmul_ceiling = 0.80;    // fraction of the matrix peak a large, aligned GEMM reaches
  // The same for an fp8 GEMM against the fp8 peak; 0: matmul_ceiling. Hopper's fp8 products reach
  // a smaller fraction of their (doubled) peak than bf16 ones of the same shape: the per-tensor
  // scaling epilogue and the operands' loads do not double with the tensor cores' rate.
  double fp8_matmul_ceiling = 0;
  double conv_ceiling = 0.80;      // the same for a convolution's implicit GEMM (cuDNN, not cuBLAS)
  double tile = 128;               // m and n are padded to whole tiles of this size (or of a
                                   // halving of it, down to 8, for a shorter dimension)
  double short_k = 64;             // inner dimension k reaches k / (k + short_k) of the ceiling
  // 1: a product of fewer tiles than the device has SMs (Device::sm_count) leaves the rest idle,
  // or splits its inner dimension (split-K) and reduces the parts' partial sums; 0: neither.
  double wave_quantization = 1;
  double vector_ceiling = 0.70;    // fraction of the vector peak for arithmetic-heavy non-GEMM work
  double winograd_ceiling = 0.70;  // fraction of the vector peak a Winograd convolution reaches on
                                   // its own (reduced) FLOPs: transforms and batched products
  double memory_fraction = 0.85;   // fraction of peak memory bandwidth a streaming kernel reaches
  double kernel_overhead_ms = 0.004;  // launch and framework time per kernel, in a step
  // Kernels launched back to back ("timing": "kernel") take at least this each: the time the
  // framework and driver take to issue one, which the device time of a longer kernel hides.
  double launch_interval_ms = 0;
  // Fraction of the dense tensor-core peak a GEMM reaches when a dimension breaks the tensor
  // cores' 16-byte alignment; 0: it runs on the CUDA cores instead (cuBLAS before 11.0). From
  // cuBLAS 11.0 on there is no alignment restriction to use the tensor cores (cuBLAS docs,
  // "Tensor Core Usage"; fp8 excepted: such a product runs as bf16): eras of those stacks set
  // their measured rate, or 1 (the aligned rate, the bound the docs give) without one.
  double misaligned_tensor_core = 0;
  // The same for a dimension of odd length, which only one-element-aligned kernels take (cuBLAS's
  // "align1" ones), in tiles of `tile` x `tile`; 0: misaligned_tensor_core. Such kernels are bound
  // by their one-element loads: a narrower tile, which loads more per FLOP, runs slower in
  // proportion (tm tn / (tm + tn) against the full tile's).
  double odd_tensor_core = 0;
  // The tile (square, elements) of the CUDA-core GEMM kernels a product runs in when it runs on
  // no tensor cores (cuBLAS's SGEMM: 128 x 128 since Maxwell); 0: no shape term. Such kernels are
  // bound by their loads from shared memory: a product too narrow for the full tile runs in a
  // narrower one (a halving that covers it, at least 32 wide, or the full tile if that is
  // narrower), which loads more per FLOP and runs slower in proportion (tm tn / (tm + tn) against
  // the full tile's). Convolutions keep cuDNN's own kernels (conv_ceiling).
  double simt_tile = 128;
  // 1: a convolution's bias is a kernel of its own (PyTorch adds it after cuDNN's convolution
  // and reduces the output gradient for its gradient); 0: fused into the convolution or absent.
  double unfused_conv_bias = 0;
  double pooling_efficiency = 1;   // pooling kernels reach this fraction of memory_fraction
  // Runtime costs outside any kernel, zero unless an era was fitted with them:
  double step_overhead_ms = 0;     // per training step (iteration set-up, dependence analysis)
  double message_overhead_ms = 0;  // per message of a gradient exchange, beyond the link's latency
  // Coefficient of variation of one server's compute per step: synchronous data parallelism
  // waits for the slowest of its servers (core/cluster/straggler.h).
  double step_jitter_cv = 0;
  // How the runtime moves a layer's input between the parts of a layer-wise strategy: 0, every
  // device takes its part at once (the slowest device's bytes); 1, one device pair after another
  // (the sum of all parts, as OptCNN's cost model prices t_x for its Legion runtime); between, a
  // blend of the two prices (not a degree: a gather onto one device can be cheaper in turn).
  double transfer_serialization = 0;
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
// are aligned for them, else misaligned_tensor_core (odd_tensor_core, by its tiles' shape, for an
// odd n or k) of it where the era has that (an fp8 product: as bf16), else the vector peak (times
// the CUDA-core kernels' tile-shape rate, simt_tile).
double era_matmul_peak_gflops(const Device& d, const KernelEfficiency& e, Dtype t, double m, double n, double k);
// How `batches` (m x k) by (k x n) products fill a device of `sm_count` SMs: the fraction of the
// ceiling their shape reaches (tiles padded, the share of SMs the tiles keep busy, a short inner
// dimension) and the number of parts the library splits the inner dimension into (1: none),
// chosen as the split of least time: `ceiling_ms` (the products at the ceiling) over the
// efficiency, plus the partial sums' bytes at `ms_per_byte`.
struct MatmulTiling {
  double efficiency = 1;
  double split_k = 1;
};
MatmulTiling matmul_tiling(const KernelEfficiency& e, double m, double n, double k, double sm_count, double batches,
                           double ceiling_ms, double ms_per_byte);
// The bytes a split inner dimension adds: each part's fp32 partial sums, written and read back.
double split_k_bytes(const MatmulTiling& tiling, double m, double n, double batches = 1);
// `flops` of such products at `ceiling_gflops` (the units' peak times the ceiling), tiled on the
// device: their compute, and the reduction of a split inner dimension at `ms_per_byte`.
struct TiledMatmulMs {
  double compute_ms = 0, reduce_ms = 0;
};
TiledMatmulMs tiled_matmul_ms(const KernelEfficiency& e, double flops, double ceiling_gflops, double m, double n,
                              double k, double sm_count, double batches, double ms_per_byte);
// The FLOP/s (1e9) a product reaches at the ceiling of units of `peak_gflops` (conv_ceiling for a
// convolution, else matmul_ceiling), before its tiling's efficiency.
double ceiling_gflops(double peak_gflops, const KernelEfficiency& e, bool convolution = false);
// Streaming `bytes` through memory.
double memory_ms(const Device& d, const KernelEfficiency& e, double bytes);
// Non-GEMM arithmetic at the vector peak.
double vector_ms(const Device& d, const KernelEfficiency& e, double flops);
// A Winograd convolution's FLOPs at the vector peak times winograd_ceiling.
double winograd_ms(const Device& d, const KernelEfficiency& e, double flops);

}  // namespace paleo
