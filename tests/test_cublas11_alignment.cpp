// cuBLAS 11.0 lifted the tensor cores' alignment restriction ("Aside from FP8, there are no
// longer any restrictions on matrix dimensions and memory alignments to use Tensor Cores
// (starting with cuBLAS version 11.0.0)", cuBLAS docs, "Tensor Core Usage"): a misaligned fp16
// GEMM runs on the tensor cores in the eras of cuBLAS 11 and later, on the CUDA cores before.
#include <catch2/catch.hpp>

#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

// [4096 x 4100] x [4100 x 4096] in fp16 on an A100: k = 4100 is even but not a multiple of 8
// elements (16 bytes). Everything the checks depend on but the era's misaligned rate is laid
// over the era: the 0.5 ceiling, 4-wide tiles (no padding), no short-k or wave term, no
// per-kernel overhead.
Json misaligned_gemm(const char* era) {
  const Json gemm = {{"type", "InnerProduct"}, {"num_outputs", 4096}};
  return {
      {"command", "layers"},
      {"net", one_layer_net(gemm, {4096, 4100})},
      {"device", "A100_40GB_SXM"},
      {"precision", "fp16"},
      {"software_era", era},
      {"efficiency",
       {{"matmul_ceiling", 0.5}, {"tile", 4}, {"short_k", 0}, {"wave_quantization", 0}, {"kernel_overhead_ms", 0}}}};
}

constexpr double kFlops = 2.0 * 4096 * 4096 * 4100;

}  // namespace

TEST_CASE("A misaligned fp16 GEMM runs on the tensor cores from cuBLAS 11 on, on the CUDA cores before",
          "[efficiency][gemm][era]") {
  // PyTorch NGC containers 2020-2021 (CUDA 11, cuBLAS 11): no measured penalty, so the aligned
  // rate: 312 dense fp16 TFLOP/s x 1 x the 0.5 ceiling.
  const Json cublas11 = x_row(misaligned_gemm("pytorch_cudnn8_2021"));
  CHECK(cublas11["forward"]["comp_ms"].get<double>() == Approx(kFlops / (312000e9 * 0.5) * 1e3));
  // Torch 7 / Caffe2 with cuDNN R4 (2016, before cuBLAS 11): the 19.5 fp32 TFLOP/s of the CUDA
  // cores x the 0.5 ceiling (4096-wide: the full 128 x 128 SGEMM tile, rate 1).
  const Json cublas8 = x_row(misaligned_gemm("cudnn_r4_2016"));
  CHECK(cublas8["forward"]["comp_ms"].get<double>() == Approx(kFlops / (19500e9 * 0.5) * 1e3));
  // 16 times slower: the ratio of the two peaks.
  CHECK(cublas8["forward"]["comp_ms"].get<double>() / cublas11["forward"]["comp_ms"].get<double>() == Approx(16.0));
}

TEST_CASE("A GEMM misaligned for fp8 runs as bf16 where cuBLAS 11+ is the era", "[efficiency][gemm][era]") {
  // n = 4104 outputs: a multiple of 8 (bf16-aligned) but not of 16 (fp8's 16 bytes). cuBLAS runs
  // fp8 products only on aligned operands: this one runs at the 989 dense bf16 TFLOP/s of an
  // H100, not its 1979 fp8 ones, and not on its 67 fp32 TFLOP/s CUDA cores.
  const Json gemm = {{"type", "InnerProduct"}, {"num_outputs", 4104}};
  const Json request = {{"command", "layers"},
                        {"net", one_layer_net(gemm, {4096, 4096})},
                        {"device", "H100_SXM"},
                        {"precision", "fp8"},
                        {"efficiency",
                         {{"matmul_ceiling", 0.5},
                          {"fp8_matmul_ceiling", 0.5},
                          {"tile", 4},
                          {"short_k", 0},
                          {"wave_quantization", 0},
                          {"kernel_overhead_ms", 0},
                          {"misaligned_tensor_core", 1}}}};
  const Json row = x_row(request);
  CHECK(row["forward"]["comp_ms"].get<double>() == Approx(2.0 * 4096 * 4104 * 4096 / (989000e9 * 0.5) * 1e3));
}
