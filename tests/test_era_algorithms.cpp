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

TEST_CASE("auto prices a one-channel data gradient as an atomic sum of matrix products", "[era][conv]") {
  // DeepBench's speech convolution: 32 x 161 x 700 x 1 in, 5x20 filters, 32 of them, stride 2,
  // VALID: OH = (161 - 5) / 2 + 1 = 79, OW = (700 - 20) / 2 + 1 = 341.
  const Json speech = convolution(5, 20, 1, 32, 2, "VALID");
  const Json base = {{"command", "layers"}, {"net", one_layer_net(speech, {32, 161, 700, 1})},
                     {"device", "TITAN_X_PASCAL"}, {"software_era", "cudnn_r4_2016"}};
  const double macs = 5.0 * 20 * 1 * 79 * 341 * 32 * 32;
  const double output_bytes = 4.0 * 32 * 79 * 341 * 32, filter_bytes = 4.0 * 5 * 20 * 32;
  const double input_bytes = 4.0 * 32 * 161 * 700;
  const Json scattered = x_row(base)["backward_data"];
  CHECK(scattered["algorithm"] == "scattered_gemm");
  CHECK(scattered["flops"].get<double>() == Approx(2 * macs).epsilon(1e-12));
  // Reads the output gradient and the filters, zeroes the input gradient, then adds into it one
  // element per output pixel and filter tap (32·79·341 x 5·20·1).
  const double added = 4.0 * 32 * 79 * 341 * 5 * 20;
  CHECK(scattered["bytes"].get<double>() == Approx(output_bytes + filter_bytes + input_bytes + added).epsilon(1e-12));
  // The implicit GEMM, one column per input channel: the same FLOPs and less traffic, but its one
  // column pads a tile many times its width, so it is the slower of the two.
  Json forced = base;
  forced["conv_algorithm"] = "gemm";
  const Json implicit = x_row(forced)["backward_data"];
  CHECK(implicit["algorithm"] == "gemm");
  CHECK(implicit["flops"].get<double>() == Approx(2 * macs).epsilon(1e-12));
  CHECK(implicit["bytes"].get<double>() == Approx(output_bytes + filter_bytes + input_bytes).epsilon(1e-12));
  CHECK(implicit["comp_ms"].get<double>() > 2 * scattered["total_ms"].get<double>());
  // The scattered product is 32·79·341 rows by 5·20·1 columns, 32 deep: the GEMM of a 1x1
  // convolution of 32 to 100 channels on the output's grid, which computes at the same rate.
  Json same_product = base;
  same_product["net"] = one_layer_net(convolution(1, 1, 32, 100, 1, "VALID"), {32, 79, 341, 32});
  CHECK(x_row(same_product)["forward"]["comp_ms"].get<double>() ==
        Approx(scattered["comp_ms"].get<double>()).epsilon(1e-12));
  // A layer as wide as its filters takes the implicit GEMM: adding 9 elements per input-gradient
  // element costs more than any tile it saves.
  Json wide = base;
  wide["net"] = one_layer_net(square_conv(3, 256, 256), {32, 14, 14, 256});
  CHECK(x_row(wide)["backward_data"]["algorithm"] == "gemm");
}

TEST_CASE("a strided depthwise convolution's data gradient takes the scattered GEMM per group", "[era][conv][group]") {
  // 3x3, stride 2, 96 channels in 96 groups on 32 x 56 x 56, bf16 on an H100: OH = OW = 28.
  const Json depthwise = convolution(3, 3, 96, 96, 2, "SAME", 96);
  const Json request = {{"command", "layers"}, {"net", one_layer_net(depthwise, {32, 56, 56, 96})},
                        {"device", "H100_SXM"}, {"software_era", "pytorch_cudnn9_2025"}, {"precision", "bf16"}};
  const Json pass = x_row(request)["backward_data"];
  CHECK(pass["algorithm"] == "scattered_gemm");
  CHECK(pass["flops"].get<double>() == Approx(2.0 * 32 * 28 * 28 * 96 * 9).epsilon(1e-12));
  // bf16 activations and weights: the output gradient, the filters, the input gradient zeroed,
  // and one element added per output pixel, filter tap and channel (9 taps of each group's one).
  const double output = 2.0 * 32 * 28 * 28 * 96, filters = 2.0 * 9 * 96, input = 2.0 * 32 * 56 * 56 * 96;
  const double added = 2.0 * 32 * 28 * 28 * 9 * 96;
  CHECK(pass["bytes"].get<double>() == Approx(output + filters + input + added).epsilon(1e-12));
}

TEST_CASE("a deconvolution's forward pass, a data gradient, weighs the scattered GEMM too", "[era][conv]") {
  // DCGAN's last layer: 128 -> 3 channels, 5x5, stride 2, 32x32 -> 64x64, batch 64, bf16. Its
  // forward pass is the data gradient of the convolution from [64, 64, 64, 3] to [64, 32, 32, 128].
  const Json deconv = {{"type", "Deconvolution"}, {"filter", {5, 5, 3, 128}}, {"strides", {1, 2, 2, 1}},
                       {"padding", "SAME"}, {"output_shape", {64, 64, 64, 3}}};
  const Json request = {{"command", "layers"}, {"net", one_layer_net(deconv, {64, 32, 32, 128})},
                        {"device", "H100_SXM"}, {"software_era", "pytorch_cudnn9_2025"}, {"precision", "bf16"}};
  const Json forward = x_row(request)["forward"];
  CHECK(forward["algorithm"] == "scattered_gemm");
  CHECK(forward["flops"].get<double>() == Approx(2.0 * 64 * 32 * 32 * 128 * 75).epsilon(1e-12));
  // Read the layer's input and the filters, zero its output, add 64·32·32 x 5·5·3 elements.
  const double bytes = 2.0 * (64 * 32 * 32 * 128 + 5 * 5 * 3 * 128 + 64 * 64 * 64 * 3 + 64 * 32 * 32 * 75);
  CHECK(forward["bytes"].get<double>() == Approx(bytes).epsilon(1e-12));
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

TEST_CASE("cuDNN 5.1's non-fused Winograd filter gradient, for the eras that have it", "[era][conv][winograd]") {
  // 3x3, 256 -> 256 channels, stride 1, SAME, on 16x16 maps, batch 32: F(4x4, 3x3) on the forward's
  // tiles, alpha = 6, P = 32 x 4 x 4 = 512 tiles, 256 x 256 = 65,536 filter pairs. Multiply-adds of
  // the weight gradient: input transform 512 x 256 x 2 x 216 = 56,623,104; output-gradient
  // transform (its 4x4 tiles to 6x6) 512 x 256 x (16 x 6 + 36 x 4) = 31,457,280; products summed
  // over the tiles 36 x 65,536 x 512 = 1,207,959,552; inverse transform per pair (6x6 to 3x3)
  // 65,536 x (36 x 3 + 9 x 6) = 10,616,832. Two FLOPs each: 2,613,313,536 (GEMM: 2 x 9 x 256 x
  // 256 x 16 x 16 x 32 = 9,663,676,416).
  const Json net = one_layer_net(square_conv(3, 256, 256), {32, 16, 16, 256});
  auto row = [&](const char* era, double winograd_ceiling) {
    Json r = {{"command", "layers"}, {"net", net}, {"device", "TITAN_X_PASCAL"}, {"software_era", era}};
    if (winograd_ceiling > 0) r["efficiency"] = {{"winograd_ceiling", winograd_ceiling}};
    return x_row(r);
  };
  const Json filter = row("torch_cudnn51_2016", 0.5)["backward_filter"];
  CHECK(filter["algorithm"] == "winograd_nonfused");
  CHECK(filter["flops"].get<double>() == 2613313536.0);
  // fp32 traffic: the padded input 32 x 18 x 18 x 256 x 4 = 10,616,832 B; the output gradient
  // 32 x 16 x 16 x 256 x 4 = 8,388,608 B; the weight gradient 3 x 3 x 256 x 256 x 4 = 2,359,296 B;
  // the transformed tiles 36 x (512 x 256 + 65,536 + 512 x 256) x 4 = 47,185,920 B, written and read.
  CHECK(filter["bytes"].get<double>() == 10616832.0 + 8388608.0 + 2359296.0 + 2 * 47185920.0);
  // A Winograd rate so low that the GEMM wins: auto weighs the two.
  CHECK(row("torch_cudnn51_2016", 0.01)["backward_filter"]["algorithm"] != "winograd_nonfused");
  // cuDNN R4 and cuDNN 5.0 (the Kepler era) have no such algorithm; TensorFlow's 2017 builds left
  // it out of their filter-gradient search (a version check fixed in December 2017).
  CHECK(row("cudnn_r4_2016", 0)["backward_filter"]["algorithm"] != "winograd_nonfused");
  CHECK(row("torch_cudnn5_kepler_2016", 0)["backward_filter"]["algorithm"] != "winograd_nonfused");
  CHECK(row("tensorflow_2017", 1.0)["backward_filter"]["algorithm"] != "winograd_nonfused");
  // Forcing "winograd" names the fused forward algorithm: the filter gradient keeps GEMM.
  const Json forced = x_row({{"command", "layers"}, {"net", net}, {"device", "TITAN_X_PASCAL"},
                             {"software_era", "torch_cudnn51_2016"}, {"conv_algorithm", "winograd"}});
  CHECK(forced["backward_filter"]["algorithm"] == "gemm");
}

TEST_CASE("the non-fused Winograd filter gradient needs a 3x3 or 5x5 stride-1 filter", "[era][conv][winograd]") {
  auto algorithm = [](const Json& layer, const Json& tensor) {
    return x_row({{"command", "layers"}, {"net", one_layer_net(layer, tensor)}, {"device", "TITAN_X_PASCAL"},
                  {"software_era", "torch_cudnn51_2016"}, {"efficiency", {{"winograd_ceiling", 1.0}}}})["backward_filter"]
        ["algorithm"];
  };
  const Json tensor = {32, 16, 16, 256};
  CHECK(algorithm(square_conv(5, 256, 256), tensor) == "winograd_nonfused");
  CHECK(algorithm(convolution(3, 3, 256, 256, 2, "SAME"), tensor) != "winograd_nonfused");
  CHECK(algorithm(square_conv(7, 256, 256), tensor) != "winograd_nonfused");
  CHECK(algorithm(square_conv(1, 256, 256), tensor) != "winograd_nonfused");
  // The original model (no software era) has no such algorithm, whatever it picks.
  const Json original = x_row({{"command", "layers"}, {"net", one_layer_net(square_conv(3, 256, 256), tensor)},
                               {"device", "TITAN_X_PASCAL"}, {"profile", "paleo2017"}, {"conv_algorithm", "auto"}});
  CHECK(original["backward_filter"]["algorithm"] != "winograd_nonfused");
}
