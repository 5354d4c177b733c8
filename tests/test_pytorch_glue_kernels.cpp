// The era parameters for what PyTorch runs around cuDNN and cuBLAS (docs/measurements.md):
// a convolution's bias as a kernel of its own, pooling kernels below the streaming bandwidth,
// and GEMMs with a dimension off the tensor cores' alignment still on the tensor cores.
#include <catch2/catch.hpp>

#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

// Every parameter the checks depend on, so that no era default moves them.
Json efficiency(double misaligned, double unfused_bias, double pooling) {
  return {{"matmul_ceiling", 0.5},       {"conv_ceiling", 0.5},
          {"tile", 4},                   {"short_k", 0},
          {"memory_fraction", 1},        {"kernel_overhead_ms", 0},
          {"misaligned_tensor_core", misaligned}, {"unfused_conv_bias", unfused_bias},
          {"pooling_efficiency", pooling}};
}

Json request(const Json& net, const std::string& precision, const Json& eff) {
  return {{"command", "layers"}, {"net", net}, {"device", "H100_SXM"}, {"precision", precision}, {"efficiency", eff}};
}

Json conv(bool bias, const char* normalizer = nullptr) {
  Json c = square_conv(3, 64, 64);
  c["bias"] = bias;
  if (normalizer) c["normalizer_fn"] = normalizer;
  return c;
}

}  // namespace

TEST_CASE("A misaligned GEMM runs on the tensor cores at the era's fraction of their peak", "[efficiency][gemm]") {
  // [1024, 1024] x [1024, 1028]: 1028 outputs are not a multiple of 8 bf16 elements (16 bytes).
  const Json gemm = {{"type", "InnerProduct"}, {"num_outputs", 1028}};
  const Json net = one_layer_net(gemm, {1024, 1024});
  const double flops = 2.0 * 1024 * 1024 * 1028;
  // 989 dense bf16 TFLOP/s x 0.25 x the 0.5 ceiling (tile 4 divides both sides: no padding).
  const Json on_tensor_cores = x_row(request(net, "bf16", efficiency(0.25, 0, 1)));
  CHECK(on_tensor_cores["forward"]["comp_ms"].get<double>() == Approx(flops / (989000e9 * 0.25 * 0.5) * 1e3));
  // Without the parameter the product falls back to the 67 TFLOP/s of the CUDA cores.
  const Json on_cuda_cores = x_row(request(net, "bf16", efficiency(0, 0, 1)));
  CHECK(on_cuda_cores["forward"]["comp_ms"].get<double>() == Approx(flops / (67000e9 * 0.5) * 1e3));
  // Never below the CUDA cores: a fraction that small keeps their peak.
  const Json tiny = x_row(request(net, "bf16", efficiency(0.02, 0, 1)));
  CHECK(tiny["forward"]["comp_ms"].get<double>() == Approx(flops / (67000e9 * 0.5) * 1e3));
  // An aligned product is untouched: 1024 outputs run at the full tensor-core rate.
  const Json aligned = x_row(request(one_layer_net({{"type", "InnerProduct"}, {"num_outputs", 1024}}, {1024, 1024}),
                                     "bf16", efficiency(0.25, 0, 1)));
  CHECK(aligned["forward"]["comp_ms"].get<double>() == Approx(2.0 * 1024 * 1024 * 1024 / (989000e9 * 0.5) * 1e3));
}

TEST_CASE("An unfused convolution bias adds a pass over the output each way", "[efficiency][conv]") {
  const Json tensor = {32, 28, 28, 64};
  const double output_bytes = 32.0 * 28 * 28 * 64 * 4;  // fp32 activations
  const Json with_bias = x_row(request(one_layer_net(conv(true), tensor), "fp32", efficiency(0, 1, 1)));
  const Json without = x_row(request(one_layer_net(conv(false), tensor), "fp32", efficiency(0, 1, 1)));
  // Forward: read and write the output once more; the bias gradient reads the output gradient.
  CHECK(with_bias["forward"]["bytes"].get<double>() == Approx(without["forward"]["bytes"].get<double>() + 2 * output_bytes));
  CHECK(with_bias["backward_filter"]["bytes"].get<double>() ==
        Approx(without["backward_filter"]["bytes"].get<double>() + output_bytes));
  CHECK(with_bias["backward_data"]["bytes"].get<double>() == Approx(without["backward_data"]["bytes"].get<double>()));
  // At the full 3.35 TB/s and no overhead, the forward's extra time is the bias kernel's traffic.
  CHECK(with_bias["forward"]["total_ms"].get<double>() - without["forward"]["total_ms"].get<double>() ==
        Approx(2 * output_bytes / 3350e9 * 1e3));
  // Fused (the parameter at 0) or replaced by a batch norm's shift, the bias costs nothing.
  const Json fused = x_row(request(one_layer_net(conv(true), tensor), "fp32", efficiency(0, 0, 1)));
  CHECK(fused["forward"]["bytes"].get<double>() == Approx(without["forward"]["bytes"].get<double>()));
  const Json normalized = x_row(request(one_layer_net(conv(true, "batch_norm"), tensor), "fp32", efficiency(0, 1, 1)));
  const Json normalized_no_bias =
      x_row(request(one_layer_net(conv(false, "batch_norm"), tensor), "fp32", efficiency(0, 1, 1)));
  CHECK(normalized["forward"]["bytes"].get<double>() == Approx(normalized_no_bias["forward"]["bytes"].get<double>()));
}

TEST_CASE("Pooling streams at pooling_efficiency of the era's bandwidth", "[efficiency][pooling]") {
  const Json pool = {{"type", "Pooling"}, {"ksize", {1, 2, 2, 1}}, {"strides", {1, 2, 2, 1}}, {"padding", "VALID"}};
  const Json net = one_layer_net(pool, {32, 56, 56, 64});
  // Read 32x56x56x64 and write a quarter of it, fp32, at 3.35 TB/s x 0.25.
  const double bytes = 32.0 * 56 * 56 * 64 * 4 * 1.25;
  const Json slow = x_row(request(net, "fp32", efficiency(0, 0, 0.25)));
  CHECK(slow["forward"]["mem_ms"].get<double>() == Approx(bytes / (3350e9 * 0.25) * 1e3));
  CHECK(slow["backward_data"]["mem_ms"].get<double>() == Approx(bytes / (3350e9 * 0.25) * 1e3));
  const Json full = x_row(request(net, "fp32", efficiency(0, 0, 1)));
  CHECK(full["forward"]["mem_ms"].get<double>() == Approx(bytes / 3350e9 * 1e3));
}
