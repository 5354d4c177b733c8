// CNNs of today: grouped and depthwise convolutions, batch norm as a layer, residual adds, and
// the ResNet-50 v1.5 and MobileNetV2 presets checked against their published sizes and work.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "core/api.h"
#include "core/spec/presets.h"
#include "one_layer_net.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& ok = ok_answer;  // tests/api_answer.h

Json layers(const Json& net, const std::string& profile, Json extra = Json::object()) {
  Json r = {{"command", "layers"}, {"net", net}, {"device", "TITAN_X"},
            {"profile", profile}, {"conv_algorithm", "gemm"}};
  r.update(extra);
  return ok(r);
}

const Json& layer(const Json& response, const std::string& name) {
  for (const Json& l : response["layers"])
    if (l["name"] == name) return l;
  static const Json none;
  FAIL("no layer " << name);
  return none;
}

double num(const Json& j) { return j.get<double>(); }

Json conv(const Json& filter, long long stride, const Json& group = nullptr) {
  Json c = {{"type", "Convolution"}, {"filter", filter}, {"strides", {1, stride, stride, 1}},
            {"padding", "SAME"}, {"activation_fn", nullptr}};
  if (!group.is_null()) c["group"] = group;
  return c;
}

// Multiply-adds of the forward pass per image: convolutions and fully-connected layers under
// GEMM (2 FLOPs each), at batch 1.
double forward_macs_per_image(const Json& net) {
  const Json r = layers(net, "paleo2026", {{"batch_size", 1}});
  double flops = 0;
  for (const Json& l : r["layers"])
    if (l["type"] == "Convolution" || l["type"] == "InnerProduct") flops += num(l["forward"]["flops"]);
  return flops / 2;
}

double total_params(const std::string& net, const std::string& profile) {
  return num(ok({{"command", "summary"}, {"net", net}, {"profile", profile}})["totals"]["params"]);
}

// ResNet v1 from a v1.5 preset, by hand: the stride 2 of the first bottleneck of stages 3 to 5
// back on its first 1x1 convolution.
Json resnet_v1_of(const std::string& v1_5) {
  Json v1 = paleo::Presets::instance().net(v1_5);
  for (const char* block : {"layer2_0", "layer3_0", "layer4_0"}) {
    v1["layers"][block]["layers"]["conv1"]["strides"] = {1, 2, 2, 1};
    v1["layers"][block]["layers"]["conv2"]["strides"] = {1, 1, 1, 1};
  }
  return v1;
}

}  // namespace

TEST_CASE("ResNet-50 v1.5 has the published 25,557,032 parameters", "[modern_cnn]") {
  // torchvision ResNet50_Weights num_params: convolutions without bias, batch-norm scale and
  // shift, fc weights and bias.
  CHECK(total_params("resnet50_v1_5", "paleo2026") == 25557032);
  // paleo2017 keeps BatchNorm free, as the original did: 2 parameters fewer for each of the
  // 26,560 batch-normalised channels (64 in the stem; 6w per bottleneck of width w and 4w per
  // projection: 3*6*64 + 4*64 + 4*6*128 + 4*128 + 6*6*256 + 4*256 + 3*6*512 + 4*512).
  CHECK(total_params("resnet50_v1_5", "paleo2017") == 25557032 - 2 * 26560);
}

TEST_CASE("ResNet-152 v1.5 has the published 60,192,808 parameters and 11.514 G multiply-adds", "[modern_cnn]") {
  // torchvision ResNet152_Weights: num_params 60,192,808 and 11.514 GFLOPS (multiply-adds, four
  // digits: the exact count lies within 0.5 M).
  CHECK(total_params("resnet152_v1_5", "paleo2026") == 60192808);
  // paleo2017 keeps BatchNorm free: 2 parameters fewer per batch-normalised channel, 75,712 of
  // them (64 in the stem; 6w per bottleneck of width w and 4w per projection:
  // 3*6*64 + 4*64 + 8*6*128 + 4*128 + 36*6*256 + 4*256 + 3*6*512 + 4*512).
  CHECK(total_params("resnet152_v1_5", "paleo2017") == 60192808 - 2 * 75712);
  CHECK(forward_macs_per_image("resnet152_v1_5") == Approx(11.514e9).margin(0.5e6));
}

TEST_CASE("tf_cnn_benchmarks' AlexNet runs alex_v2's layers on 227x227 images", "[modern_cnn]") {
  // alexnet_model.py: image size 224 + 3, conv 11x11/4 VALID, then 3x3/2 VALID pools:
  // (227 - 11) / 4 + 1 = 55, (55 - 3) / 2 + 1 = 27, 13 and 6, so fc6 reads 6 x 6 x 256.
  const Json r = ok({{"command", "summary"}, {"net", "alex_v2_227"}, {"batch_size", 1}});
  CHECK(layer(r, "conv1")["output"] == Json({1, 55, 55, 64}));
  CHECK(layer(r, "pool1")["output"] == Json({1, 27, 27, 64}));
  CHECK(layer(r, "pool2")["output"] == Json({1, 13, 13, 192}));
  CHECK(layer(r, "pool5")["output"] == Json({1, 6, 6, 256}));
  // Weights and biases: conv 11*11*3*64 + 64, 5*5*64*192 + 192, 3*3*192*384 + 384,
  // 3*3*384*384 + 384, 3*3*384*256 + 256; fc 9216*4096 + 4096, 4096*4096 + 4096, 4096*1000 + 1000.
  CHECK(total_params("alex_v2_227", "paleo2026") ==
        23296 + 307392 + 663936 + 1327488 + 884992 + 37752832 + 16781312 + 4097000);
  // Otherwise alex_v2's layers: only the input and fc6's window differ.
  Json v2 = paleo::Presets::instance().net("alex_v2")["layers"];
  v2["data"]["tensor"] = {512, 227, 227, 3};
  v2["fc6"]["filter"] = {6, 6, 256, 4096};
  CHECK(paleo::Presets::instance().net("alex_v2_227")["layers"] == v2);
}

namespace {

// ResNeXt-101 32x4d's parameters and forward multiply-adds per image, block by block, as NVIDIA
// DeepLearningExamples builds resnext101-32x4d (image_classification/resnet.py): the ResNet-101
// v1.5 stem and stages (3, 4, 23, 3 blocks), bottleneck widths 128, 256, 512, 1024, 3x3
// convolutions in 32 groups with the stride, outputs expanded 2x, 1x1 projections where the shape
// changes; no convolution biases, batch norm with scale and shift, fc 2048 -> 1000. With `se`,
// se-resnext101-32x4d: each block's C outputs squeezed to 16 channels and back by two 1x1
// convolutions with bias (models/common.py), on the pooled 1x1 map.
std::pair<double, double> resnext101_size(bool se) {
  double params = 7 * 7 * 3 * 64 + 2 * 64, macs = 112.0 * 112 * 7 * 7 * 3 * 64;
  const int blocks[] = {3, 4, 23, 3};
  double cin = 64, grid = 56;
  for (int stage = 0; stage < 4; ++stage) {
    const double w = 128 << stage, out = 2 * w, hw = 56 >> stage;
    for (int b = 0; b < blocks[stage]; ++b) {
      const double in_grid = b == 0 ? grid : hw;  // the first 1x1 runs before the stride
      params += cin * w + 2 * w + 9 * (w / 32) * w + 2 * w + w * out + 2 * out;
      macs += in_grid * in_grid * cin * w + hw * hw * 9 * (w / 32) * w + hw * hw * w * out;
      if (b == 0) {
        params += cin * out + 2 * out;
        macs += hw * hw * cin * out;
      }
      if (se) {
        params += (out * 16 + 16) + (16 * out + out);
        macs += 2 * out * 16;
      }
      cin = out;
    }
    grid = hw;
  }
  return {params + 2048.0 * 1000 + 1000, macs + 2048.0 * 1000};
}

}  // namespace

TEST_CASE("ResNeXt-101 32x4d: its parameters and work summed block by block", "[modern_cnn][group]") {
  const auto [params, macs] = resnext101_size(false);
  CHECK(total_params("resnext101_32x4d", "paleo2026") == params);
  CHECK(forward_macs_per_image("resnext101_32x4d") == Approx(macs).epsilon(1e-12));
  // timm's model card for resnext101_32x4d (the same network) rounds them to "Params (M): 44.2"
  // and "GMACs: 8.0".
  CHECK(params == Approx(44.2e6).margin(0.05e6));
  CHECK(macs == Approx(8.0e9).margin(0.05e9));
  const Json r = ok({{"command", "summary"}, {"net", "resnext101_32x4d"}, {"batch_size", 1}});
  CHECK(num(layer(r, "layer3_5/conv2")["params"]) == 9 * 16 * 512);  // 512 channels in 32 groups of 16
  CHECK(layer(r, "layer4_0/conv2")["output"] == Json({1, 7, 7, 1024}));
  CHECK(layer(r, "layer4_2_relu")["output"] == Json({1, 7, 7, 2048}));
}

TEST_CASE("SE-ResNeXt-101 32x4d: ResNeXt-101 with a squeeze-and-excitation in every block", "[modern_cnn][group]") {
  const auto [params, macs] = resnext101_size(true);
  CHECK(params == 45251128);  // 44,177,704 + 33 C + 16 for each block of C outputs
  CHECK(total_params("se_resnext101_32x4d", "paleo2026") == params);
  CHECK(forward_macs_per_image("se_resnext101_32x4d") == Approx(macs).epsilon(1e-12));
  const Json r = ok({{"command", "summary"}, {"net", "se_resnext101_32x4d"}, {"batch_size", 2}});
  CHECK(layer(r, "layer2_1/se_pool")["output"] == Json({2, 1, 1, 512}));
  CHECK(num(layer(r, "layer2_1/se_squeeze")["params"]) == 512 * 16 + 16);
  CHECK(layer(r, "layer2_1/se_scale")["output"] == Json({2, 28, 28, 512}));
  CHECK(layer(r, "layer4_2_relu")["output"] == Json({2, 7, 7, 2048}));
}

TEST_CASE("MobileNetV2 1.0/224 has the published 3,504,872 parameters", "[modern_cnn]") {
  // torchvision MobileNet_V2_Weights num_params (the paper's Table 4 rounds it to 3.4M).
  CHECK(total_params("mobilenet_v2", "paleo2026") == 3504872);
}

TEST_CASE("ResNet-50 v1.5 strides the 3x3 convolution where a stage downsamples", "[modern_cnn]") {
  const Json r = ok({{"command", "summary"}, {"net", "resnet50_v1_5"}, {"batch_size", 1}});
  const std::tuple<const char*, long long, long long> stages[] = {{"layer2_0", 56, 28}, {"layer3_0", 28, 14},
                                                                  {"layer4_0", 14, 7}};
  for (const auto& [block, in, out] : stages) {
    INFO(block);
    const std::string b = block;
    CHECK(layer(r, b + "/conv1")["output"] == Json({1, in, in, in == 56 ? 128 : in == 28 ? 256 : 512}));
    CHECK(layer(r, b + "/conv2")["output"][1] == out);
    CHECK(layer(r, b + "/downsample")["output"][1] == out);  // the projection keeps its stride 2
  }
}

TEST_CASE("ResNet-50 forward work per 224x224 image matches the published counts", "[modern_cnn]") {
  // torchvision lists 4.089 GFLOPS (multiply-adds) for this network, printed to four digits: the
  // exact count lies within half a unit of the last digit, 0.5 M.
  const double v1_5 = forward_macs_per_image("resnet50_v1_5");
  CHECK(v1_5 == Approx(4.089e9).margin(0.5e6));
  // v1 (the stride back on the first 1x1 of stages 3-5) is He et al.'s Table 1 network:
  // "3.8 x 10^9 FLOPs" (multiply-adds), two digits that fall below the count (usually quoted as
  // 3.86 G; the 152-layer figure below is rounded instead), so the count lies in [3.8, 3.9) G.
  Json v1 = resnet_v1_of("resnet50_v1_5");
  const double macs_v1 = forward_macs_per_image(v1);
  CHECK(macs_v1 >= 3.8e9);
  CHECK(macs_v1 < 3.9e9);
  CHECK(v1_5 > macs_v1);  // v1.5 pays for its accuracy with work
  // The resnet50_v1 preset (tf_cnn_benchmarks' "resnet50") is that network, layer for layer, at
  // tf_cnn_benchmarks' batch of 64.
  v1["layers"]["data"]["tensor"][0] = 64;
  CHECK(paleo::Presets::instance().net("resnet50_v1")["layers"] == v1["layers"]);
}

TEST_CASE("ResNet-152 v1 moves the same three strides and matches the paper's count", "[modern_cnn]") {
  CHECK(paleo::Presets::instance().net("resnet152_v1")["layers"] == resnet_v1_of("resnet152_v1_5")["layers"]);
  // The three 1x1 convolutions now run on a quarter of the grid: 3 x (3/4) x 56*56*256*128 (the
  // same product at each stage) = 231,211,008 fewer than v1.5's 11.514 G, 11.283 G, which
  // He et al.'s Table 1 gives as "11.3 x 10^9".
  const double macs = forward_macs_per_image("resnet152_v1");
  CHECK(macs == Approx(11.514e9 - 231211008.0).margin(0.5e6));
  CHECK(total_params("resnet152_v1", "paleo2026") == 60192808);  // a stride moves no weights
}

TEST_CASE("MobileNetV2 forward work per 224x224 image matches the published counts", "[modern_cnn]") {
  // torchvision lists 0.301 G multiply-adds (three digits: within 0.5 M); the paper's Table 4
  // says 300M, which the count is within 1 % of whether or not the classifier is counted.
  const double macs = forward_macs_per_image("mobilenet_v2");
  CHECK(macs == Approx(0.301e9).margin(0.5e6));
  CHECK(macs == Approx(300e6).epsilon(0.01));
}

TEST_CASE("a grouped convolution by hand: FLOPs, parameters and bytes", "[modern_cnn][group]") {
  // [2, 8, 8, 16] input, 3x3 filter 16 -> 32 in 4 groups, stride 1, SAME: each output channel
  // sees 16/4 = 4 input channels.
  const Json net = one_layer_net(conv({3, 3, 16, 32}, 1, 4), {2, 8, 8, 16});
  const Json x = layer(layers(net, "paleo2026"), "x");
  CHECK(num(x["params"]) == 3 * 3 * 4 * 32 + 32);  // 1,152 weights and 32 biases
  CHECK(num(x["weights_bytes"]) == 4 * 1184);
  const double flops = 2.0 * (3 * 3 * 4) * (8 * 8 * 32) * 2;  // 294,912
  CHECK(num(x["forward"]["flops"]) == flops);
  // Padded input [2, 10, 10, 16], the grouped filter, the output [2, 8, 8, 32].
  CHECK(num(x["forward"]["bytes"]) == 4.0 * (2 * 10 * 10 * 16 + 1152 + 2 * 8 * 8 * 32));
  // Data gradient at its true work: read the output gradient and the filter, write the input's.
  CHECK(num(x["backward_data"]["flops"]) == flops);
  CHECK(num(x["backward_data"]["bytes"]) == 4.0 * (2 * 8 * 8 * 32 + 1152 + 2 * 8 * 8 * 16));
  // Filter gradient: the dummy reads the padded input [16, 10, 10, 2] and the whole output
  // gradient [8, 8, 2, 32], and writes only the grouped weight gradient.
  CHECK(num(x["backward_filter"]["flops"]) == flops);
  CHECK(num(x["backward_filter"]["bytes"]) == 4.0 * (16 * 10 * 10 * 2 + 8 * 8 * 2 * 32 + 1152));
  // The same layer ungrouped does four times the work, in paleo2017 too (groups are a shape).
  const Json dense = layer(layers(one_layer_net(conv({3, 3, 16, 32}, 1), {2, 8, 8, 16}), "paleo2017"), "x");
  CHECK(num(dense["forward"]["flops"]) == 4 * flops);
  CHECK(num(layer(layers(net, "paleo2017"), "x")["forward"]["flops"]) == flops);
}

TEST_CASE("a depthwise convolution by hand", "[modern_cnn][group]") {
  // group = channels = 16: one 3x3 filter per channel; stride 2 on 8x8 -> 4x4.
  const Json net = one_layer_net(conv({3, 3, 16, 16}, 2, 16), {2, 8, 8, 16});
  const Json x = layer(layers(net, "paleo2026"), "x");
  CHECK(num(x["params"]) == 3 * 3 * 16 + 16);
  CHECK(x["output"] == Json({2, 4, 4, 16}));
  CHECK(num(x["forward"]["flops"]) == 2.0 * 9 * (4 * 4 * 16) * 2);  // 9 multiply-adds per output
}

TEST_CASE("every convolution algorithm costs a grouped convolution as its groups side by side",
          "[modern_cnn][group]") {
  // 4 groups of [4, 16, 16, 8] -> 16 channels against one group's convolution: each pass's
  // FLOPs and bytes are exactly four times the group's (the groups' tensors tile the layer's).
  for (const char* profile : {"paleo2017", "paleo2026"})
    for (const char* algorithm : {"gemm", "precomp_gemm", "fft", "fft_tiling", "winograd"})
      for (long long stride : {1, 2}) {
        const Json extra = {{"conv_algorithm", algorithm}};
        const Json grouped_net = one_layer_net(conv({3, 3, 32, 64}, stride, 4), {4, 16, 16, 32});
        const Json one_net = one_layer_net(conv({3, 3, 8, 16}, stride), {4, 16, 16, 8});
        const Json grouped = layer(layers(grouped_net, profile, extra), "x");
        const Json one = layer(layers(one_net, profile, extra), "x");
        for (const char* pass : {"forward", "backward_data", "backward_filter"}) {
          INFO(profile << " " << algorithm << " stride " << stride << " " << pass);
          CHECK(grouped[pass]["algorithm"] == one[pass]["algorithm"]);
          CHECK(num(grouped[pass]["flops"]) > 0);
          CHECK(num(grouped[pass]["flops"]) == Approx(4 * num(one[pass]["flops"])).epsilon(1e-12));
          CHECK(num(grouped[pass]["bytes"]) == Approx(4 * num(one[pass]["bytes"])).epsilon(1e-12));
        }
      }
}

TEST_CASE("bad group values name the layer and the field", "[modern_cnn][group]") {
  for (const Json& group : {Json(0), Json(-2), Json(3), Json(32), Json("four"), Json(2.5)}) {
    INFO("group " << group.dump());
    const Json net = one_layer_net(conv({3, 3, 16, 32}, 1, group), {2, 8, 8, 16});
    const Json out = paleo::handle_request({{"command", "layers"}, {"net", net}});
    CHECK_FALSE(out["ok"].get<bool>());
    CHECK(out["error"]["layer"] == "x");
    CHECK(out["error"]["field"] == "group");
  }
  // 16 divides the input channels but not the 24 outputs.
  const Json uneven_net = one_layer_net(conv({3, 3, 16, 24}, 1, 16), {2, 8, 8, 16});
  const Json uneven = paleo::handle_request({{"command", "layers"}, {"net", uneven_net}});
  CHECK_FALSE(uneven["ok"].get<bool>());
  CHECK(uneven["error"]["field"] == "group");
  Json no_bias = conv({3, 3, 16, 32}, 1);
  no_bias["bias"] = "none";
  const Json bias = paleo::handle_request({{"command", "layers"}, {"net", one_layer_net(no_bias, {2, 8, 8, 16})}});
  CHECK_FALSE(bias["ok"].get<bool>());
  CHECK(bias["error"]["field"] == "bias");
}

TEST_CASE("bias false drops a convolution's biases, the original's bias shape keeps them", "[modern_cnn]") {
  Json c = conv({3, 3, 16, 32}, 1);
  c["bias"] = false;
  CHECK(num(layer(layers(one_layer_net(c, {2, 8, 8, 16}), "paleo2026"), "x")["params"]) == 3 * 3 * 16 * 32);
  c["bias"] = {32};
  CHECK(num(layer(layers(one_layer_net(c, {2, 8, 8, 16}), "paleo2017"), "x")["params"]) == 3 * 3 * 16 * 32 + 32);
}

TEST_CASE("BatchNorm: parameters and memory traffic in paleo2026, free in paleo2017", "[modern_cnn][batch_norm]") {
  const Json net = one_layer_net({{"type", "BatchNorm"}}, {2, 10, 10, 8});
  const double elements = 2 * 10 * 10 * 8;
  const Json bn = layer(layers(net, "paleo2026"), "x");
  CHECK(num(bn["params"]) == 2 * 8);  // scale and shift per channel; running statistics are not trained
  CHECK(num(bn["weights_bytes"]) == 4 * 16);
  // Forward: statistics pass and normalise pass read the input twice, write the output once.
  CHECK(num(bn["forward"]["flops"]) == 6 * elements);
  CHECK(num(bn["forward"]["bytes"]) == 3 * 4 * elements);
  CHECK(num(bn["backward_data"]["bytes"]) == 4 * 4 * elements);
  CHECK(num(bn["backward_filter"]["flops"]) == 2 * elements);
  CHECK(num(bn["backward"]["total_ms"]) > 0);
  // The update carries its parameters.
  const Json r = {{"command", "estimate"}, {"net", net}, {"device", "TITAN_X"}};
  Json r2026 = r, r2017 = r;
  r2026["profile"] = "paleo2026";
  r2017["profile"] = "paleo2017";
  CHECK(num(ok(r2026)["totals"]["params_bytes"]) == 64);
  CHECK(num(ok(r2026)["totals"]["update_ms"]) > 0);

  const Json old = layer(layers(net, "paleo2017"), "x");
  CHECK(num(old["params"]) == 0);
  CHECK(num(old["forward"]["total_ms"]) == 0);
  CHECK(num(old["backward"]["total_ms"]) == 0);
  CHECK(num(ok(r2017)["totals"]["params_bytes"]) == 0);
}

TEST_CASE("ReLU6 costs a ReLU's traffic in paleo2026 and nothing in paleo2017", "[modern_cnn]") {
  const Json net = one_layer_net({{"type", "ReLU6"}}, {2, 10, 10, 8});
  const double elements = 2 * 10 * 10 * 8;
  const Json x = layer(layers(net, "paleo2026"), "x");
  CHECK(num(x["forward"]["flops"]) == elements);
  CHECK(num(x["forward"]["bytes"]) == 2 * 4 * elements);
  CHECK(num(x["backward_data"]["bytes"]) == 3 * 4 * elements);
  CHECK(num(layer(layers(net, "paleo2017"), "x")["forward"]["total_ms"]) == 0);
}

TEST_CASE("residual adds: identity and projection shortcuts of ResNet-50 are priced", "[modern_cnn]") {
  const Json r = layers("resnet50_v1_5", "paleo2026", {{"batch_size", 2}});
  // Identity shortcut: the block's input and its last batch norm, both 2x56x56x256.
  const Json& identity = layer(r, "layer1_1_add");
  CHECK(identity["inputs"] == Json::array({{2, 56, 56, 256}, {2, 56, 56, 256}}));
  const double elements = 2 * 56 * 56 * 256;
  CHECK(num(identity["forward"]["flops"]) == elements);               // one add per output element
  CHECK(num(identity["forward"]["bytes"]) == 3 * 4 * elements);       // read both inputs, write one
  CHECK(num(identity["backward_data"]["bytes"]) == 3 * 4 * elements);  // read the gradient, write two
  // Projection shortcut: a strided 1x1 convolution and its batch norm meet the main branch.
  const Json& projection = layer(r, "layer2_0/downsample");
  CHECK(projection["output"] == Json({2, 28, 28, 512}));
  CHECK(num(projection["forward"]["flops"]) == 2.0 * 256 * 28 * 28 * 512 * 2);
  CHECK(layer(r, "layer2_0_add")["inputs"] == Json::array({{2, 28, 28, 512}, {2, 28, 28, 512}}));
  const Json old = layers("resnet50_v1_5", "paleo2017", {{"batch_size", 2}});
  CHECK(num(layer(old, "layer1_1_add")["forward"]["total_ms"]) == 0);
}

TEST_CASE("global average pooling is an AvgPool over the whole 7x7 map", "[modern_cnn]") {
  const Json r = layers("resnet50_v1_5", "paleo2026", {{"batch_size", 2}});
  const Json& pool = layer(r, "avgpool");
  CHECK(pool["output"] == Json({2, 1, 1, 2048}));
  CHECK(num(pool["forward"]["flops"]) == 2.0 * 7 * 7 * 2048 * 2);
  CHECK(layer(r, "fc")["inputs"][0] == Json({2, 2048}));
}

TEST_CASE("the modern presets run under every command, profile and algorithm", "[modern_cnn]") {
  for (const char* net : {"resnet50_v1_5", "mobilenet_v2"})
    for (const char* profile : {"paleo2017", "paleo2026"}) {
      for (const char* algorithm : {"gemm", "precomp_gemm", "fft", "fft_tiling", "winograd", "auto"}) {
        INFO(net << " " << profile << " " << algorithm);
        const Json t = ok({{"command", "estimate"}, {"net", net}, {"device", "V100_SXM2_16GB"}, {"profile", profile},
                           {"conv_algorithm", algorithm}})["totals"];
        CHECK(std::isfinite(num(t["step_ms"])));
        CHECK(num(t["step_ms"]) > 0);
      }
      INFO(net << " " << profile);
      ok({{"command", "simulate"}, {"net", net}, {"profile", profile}, {"workers", {1, 2, 8, 64}},
          {"scaling", {"weak", "strong"}}});
      ok({{"command", "simulate"}, {"net", net}, {"profile", profile}, {"parallel", "model"}});
      ok({{"command", "summary"}, {"net", net}, {"profile", profile}});
    }
}
