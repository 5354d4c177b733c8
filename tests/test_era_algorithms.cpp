// What a CNN software era decides beyond its efficiencies: the convolution algorithms its library
// offered (the fastest of them per pass), ceilings of its own for convolutions' implicit GEMMs and
// for Winograd convolutions, and the request's input_gradient option (a "full" backprop).
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include "core/api.h"
#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;


}  // namespace

TEST_CASE("An era's library offers only its algorithms, and auto takes the fastest of them", "[era][conv]") {
  // AlexNet's conv2 shape: 5x5, 64 -> 192 channels on 27x27 maps, batch 128.
  const Json net = one_layer_net(square_conv(5, 64, 192), {128, 27, 27, 64});
  const Json base = {{"command", "layers"}, {"net", net}, {"device", "TITAN_X"}, {"software_era", "cudnn_r4_2016"}};
  const Json chosen = x_row(base)["forward"];
  CHECK(chosen["algorithm"] != "winograd");  // cuDNN R4 had no Winograd
  double fastest = std::numeric_limits<double>::infinity();
  for (const char* a : {"gemm", "precomp_gemm", "fft", "fft_tiling"}) {
    Json forced = base;
    forced["conv_algorithm"] = a;
    fastest = std::min(fastest, x_row(forced)["forward"]["total_ms"].get<double>());
  }
  CHECK(chosen["total_ms"].get<double>() == Approx(fastest).epsilon(1e-12));
  // The era lists its algorithms in the response.
  const Json estimate = paleo::handle_request(Json{{"command", "estimate"}, {"net", net}, {"device", "TITAN_X"},
                                                   {"software_era", "cudnn_r4_2016"}});
  REQUIRE(estimate["ok"].get<bool>());
  CHECK(estimate["software_era"]["conv_algorithms"] == Json({"gemm", "precomp_gemm", "fft", "fft_tiling"}));
}

TEST_CASE("conv_ceiling prices convolutions and matmul_ceiling fully connected layers", "[era][conv]") {
  const Json conv_net = one_layer_net(square_conv(3, 64, 64), {32, 28, 28, 64});
  const Json fc_net = one_layer_net({{"type", "InnerProduct"}, {"num_outputs", 4096}}, {32, 4096});
  auto comp_ms = [](const Json& net, double conv_ceiling, double matmul_ceiling) {
    // Without wave quantization: a product of few tiles (the inner product's 32 x 4096 is 32 tiles
    // on 80 SMs) would split its inner dimension by a choice that depends on the ceiling.
    const Json r = {{"command", "layers"}, {"net", net}, {"device", "V100_SXM2_16GB"}, {"conv_algorithm", "gemm"},
                    {"efficiency", {{"conv_ceiling", conv_ceiling}, {"matmul_ceiling", matmul_ceiling},
                                    {"kernel_overhead_ms", 0}, {"wave_quantization", 0}}}};
    return x_row(r)["forward"]["comp_ms"].get<double>();
  };
  // Halving a ceiling doubles the compute time of the layers it governs, and only theirs.
  CHECK(comp_ms(conv_net, 0.25, 0.8) == Approx(2 * comp_ms(conv_net, 0.5, 0.8)).epsilon(1e-12));
  CHECK(comp_ms(conv_net, 0.5, 0.4) == Approx(comp_ms(conv_net, 0.5, 0.8)).epsilon(1e-12));
  CHECK(comp_ms(fc_net, 0.5, 0.4) == Approx(2 * comp_ms(fc_net, 0.5, 0.8)).epsilon(1e-12));
  CHECK(comp_ms(fc_net, 0.25, 0.8) == Approx(comp_ms(fc_net, 0.5, 0.8)).epsilon(1e-12));
}

TEST_CASE("input_gradient adds the data gradient of a layer fed by the input", "[conv]") {
  // data (16 x 32 x 32 x 3) -> x: 3x3, 3 -> 64, stride 1, SAME. paleo2017 at PPP 1, GEMM.
  Json net = {{"name", "first"},
              {"layers", {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {16, 32, 32, 3}}}},
                          {"x", square_conv(3, 3, 64)}}}};
  net["layers"]["x"]["parents"] = {"data"};
  Json r = {{"command", "layers"}, {"net", net}, {"device", "TITAN_X"}, {"profile", "paleo2017"}};
  CHECK(x_row(r)["backward_data"]["flops"].get<double>() == 0);
  r["input_gradient"] = true;
  const Json with = x_row(r);
  // The data gradient is a 3x3 convolution of the 64-channel output gradient back to 3 channels:
  // 2 x 16 x 32 x 32 x 3 x (3 x 3 x 64) FLOPs.
  CHECK(with["backward_data"]["flops"].get<double>() == 2.0 * 16 * 32 * 32 * 3 * (3 * 3 * 64));
  CHECK(with["backward_filter"]["flops"].get<double>() == 2.0 * 16 * 32 * 32 * 64 * (3 * 3 * 3));
  r["input_gradient"] = "yes";
  const Json bad = paleo::handle_request(r);
  CHECK_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["field"] == "input_gradient");
}

TEST_CASE("winograd_ceiling prices Winograd convolutions, vector_ceiling the FFT", "[era][conv]") {
  // 3x3, 64 -> 64 channels, stride 1, SAME, on 32x32 maps, batch 16: Winograd F(4x4, 3x3),
  // alpha = 4 + 3 - 1 = 6, P = 16 x ceil(32/4) x ceil(32/4) = 1024 tiles, 64 x 64 = 4096 filter pairs.
  const Json net = one_layer_net(square_conv(3, 64, 64), {16, 32, 32, 64});
  auto forward = [&](const char* algorithm, double winograd_ceiling, double vector_ceiling) {
    const Json r = {{"command", "layers"}, {"net", net}, {"device", "P100_SXM2"}, {"software_era", "tensorflow_2017"},
                    {"conv_algorithm", algorithm},
                    {"efficiency", {{"winograd_ceiling", winograd_ceiling}, {"vector_ceiling", vector_ceiling},
                                    {"kernel_overhead_ms", 0}}}};
    return x_row(r)["forward"];
  };
  // Multiply-adds: filter transform 4096 x (9 x 6 + 36 x 3) = 663,552; data transform
  // 1024 x 64 x 2 x 216 = 28,311,552; batched products 36 x 4096 x 1024 = 150,994,944; output
  // transform 64 x 1024 x (36 x 4 + 16 x 6) = 15,728,640. Two FLOPs each: 391,397,376.
  const double flops = 391397376.0;
  const Json w = forward("winograd", 0.5, 0.7);
  CHECK(w["algorithm"] == "winograd");
  CHECK(w["flops"].get<double>() == flops);
  // At half of the P100's 10,600 GFLOP/s: 391,397,376 / 5.3e12 s = 0.073848561509... ms.
  CHECK(w["comp_ms"].get<double>() == Approx(0.073848561509).epsilon(1e-9));
  // The vector ceiling leaves Winograd alone and prices the FFT.
  CHECK(forward("winograd", 0.5, 0.35)["comp_ms"].get<double>() == Approx(0.073848561509).epsilon(1e-9));
  CHECK(forward("fft", 0.5, 0.35)["comp_ms"].get<double>() ==
        Approx(2 * forward("fft", 0.5, 0.7)["comp_ms"].get<double>()).epsilon(1e-12));
  CHECK(forward("fft", 0.25, 0.7)["comp_ms"].get<double>() ==
        Approx(forward("fft", 0.5, 0.7)["comp_ms"].get<double>()).epsilon(1e-12));
}
