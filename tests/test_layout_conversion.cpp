// The layout conversions cuDNN adds around a tensor-core convolution of NCHW tensors (the
// request's memory_format "nchw"): one transpose kernel per pass, reading and writing the pass's
// input, output and filter; none on channels-last tensors or on the CUDA cores.
#include <catch2/catch.hpp>

#include "core/api.h"
#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;


Json request(const Json& net, const char* precision) {
  return {{"command", "layers"}, {"net", net}, {"device", "A100_80GB_SXM"}, {"precision", precision},
          {"software_era", "pytorch_cudnn8_2021"}, {"conv_algorithm", "gemm"},
          {"efficiency", {{"memory_fraction", 0.5}, {"kernel_overhead_ms", 0.01}}}};
}

}  // namespace

TEST_CASE("NCHW tensors add a transpose kernel to each tensor-core convolution pass", "[era][conv]") {
  // 3x3, 64 -> 64 channels, SAME, on 32x32 maps, batch 16, TF32 on an A100 (2039 GB/s): input and
  // output 16 x 32 x 32 x 64 = 1,048,576 fp32 elements (4,194,304 bytes) each, the filter
  // 3 x 3 x 64 x 64 = 36,864 (147,456 bytes). Each pass's conversion reads and writes all three:
  // 2 x (4,194,304 + 4,194,304 + 147,456) = 17,072,128 bytes, at 2039e9 x 0.5 bytes/s
  // 0.0167456 ms, plus the kernel's 0.01 ms overhead.
  const Json net = one_layer_net(square_conv(3, 64, 64), {16, 32, 32, 64});
  Json nhwc = request(net, "tf32");
  const Json unset = x_row(nhwc);
  nhwc["memory_format"] = "nhwc";
  const Json channels_last = x_row(nhwc);
  Json nchw = request(net, "tf32");
  nchw["memory_format"] = "nchw";
  const Json converted = x_row(nchw);
  const double bytes = 17072128;
  const double ms = bytes / (2039e9 * 0.5) * 1e3 + 0.01;
  for (const char* pass : {"forward", "backward_data", "backward_filter"}) {
    INFO(pass);
    CHECK(channels_last[pass]["total_ms"].get<double>() == unset[pass]["total_ms"].get<double>());
    CHECK(converted[pass]["bytes"].get<double>() - channels_last[pass]["bytes"].get<double>() == Approx(bytes));
    CHECK(converted[pass]["total_ms"].get<double>() - channels_last[pass]["total_ms"].get<double>() ==
          Approx(ms).epsilon(1e-9));
  }
  CHECK(ms == Approx(0.0267456).epsilon(1e-5));
}

TEST_CASE("NCHW tensors cost nothing extra on the CUDA cores", "[era][conv]") {
  // fp32 runs on the CUDA cores; TF32 with 3 input channels is not aligned to 4 elements (16 bytes).
  const Json cases[][2] = {{one_layer_net(square_conv(3, 64, 64), {16, 32, 32, 64}), "fp32"},
                           {one_layer_net(square_conv(3, 3, 64), {16, 32, 32, 3}), "tf32"}};
  for (const auto& c : cases) {
    Json r = request(c[0], c[1].get<std::string>().c_str());
    const Json channels_last = x_row(r);
    r["memory_format"] = "nchw";
    const Json converted = x_row(r);
    for (const char* pass : {"forward", "backward_data", "backward_filter"})
      CHECK(converted[pass]["total_ms"].get<double>() == channels_last[pass]["total_ms"].get<double>());
  }
}

TEST_CASE("memory_format names nhwc or nchw", "[era][conv]") {
  Json r = request(one_layer_net(square_conv(3, 64, 64), {16, 32, 32, 64}), "tf32");
  r["memory_format"] = "chw";
  const Json bad = paleo::handle_request(r);
  CHECK_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["field"] == "memory_format");
}
