// Work and depth per layer (survey Table 4; docs/training-schemes.md): each layer kind by hand,
// and the flag on layers whose parallelism cannot fill the device.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/api.h"
#include "csv_table.h"
#include "cli_runner.h"

namespace {

using Json = nlohmann::ordered_json;

// data [N,16,16,8] -> conv 3x3x8x32 SAME -> pool 2x2/2 -> fc 10 -> softmax
Json spec(int batch) {
  Json s = {{"name", "wd"}, {"layers", Json::object()}};
  Json& l = s["layers"];
  l["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {batch, 16, 16, 8}}};
  l["conv"] = {{"parents", {"data"}}, {"type", "Convolution"}, {"filter", {3, 3, 8, 32}}, {"strides", {1, 1, 1, 1}},
               {"padding", "SAME"}};
  l["bn"] = {{"parents", {"conv"}}, {"type", "BatchNorm"}};
  l["pool"] = {{"parents", {"bn"}}, {"type", "Pooling"}, {"ksize", {1, 2, 2, 1}}, {"strides", {1, 2, 2, 1}},
               {"padding", "VALID"}};
  l["fc"] = {{"parents", {"pool"}}, {"type", "InnerProduct"}, {"num_outputs", 10}};
  l["softmax"] = {{"parents", {"fc"}}, {"type", "Softmax"}};
  return s;
}

Json work_depth(int batch) {
  const Json out = paleo::handle_request({{"command", "layers"}, {"net", spec(batch)}, {"device", "V100_SXM2_16GB"},
                                          {"work_depth", true}});
  INFO(out.dump());
  REQUIRE(out["ok"].get<bool>());
  return out["work_depth"];
}

const Json& layer(const Json& wd, const std::string& name) {
  for (const Json& l : wd["layers"])
    if (l["name"] == name) return l;
  FAIL("no layer " << name);
  return wd;
}

}  // namespace

TEST_CASE("work and depth of each layer kind, by hand") {
  const Json wd = work_depth(64);
  // V100: 15700 GFLOP/s at 1530 MHz = 5130.7 multiply-add lanes.
  CHECK(wd["device_lanes"].get<double>() == Approx(15700e3 / (2 * 1530)).epsilon(1e-12));
  const Json& conv = layer(wd, "conv");
  CHECK(conv["work"].get<double>() == 64.0 * 16 * 16 * 32 * 8 * 9);
  CHECK(conv["depth"].get<double>() == 3 + 2 + 2);  // ceil(log2 8) + ceil(log2 3) + ceil(log2 3)
  CHECK(layer(wd, "bn")["depth"].get<double>() == 6);  // log2 N
  const Json& pool = layer(wd, "pool");
  CHECK(pool["work"].get<double>() == 64.0 * 8 * 8 * 32 * 4);
  CHECK(pool["depth"].get<double>() == 2);
  const Json& fc = layer(wd, "fc");
  CHECK(fc["work"].get<double>() == 64.0 * 8 * 8 * 32 * 10);
  CHECK(fc["depth"].get<double>() == 11);  // ceil(log2 2048)
  CHECK(layer(wd, "softmax")["depth"].get<double>() == 4);  // ceil(log2 10)
  CHECK(conv["parallelism"].get<double>() == Approx(64.0 * 16 * 16 * 32 * 8 * 9 / 7));
}

TEST_CASE("batch-1 layers too small to fill the device are flagged") {
  const Json big = work_depth(64), one = work_depth(1);
  CHECK(layer(big, "conv")["fills_device"] == true);
  // Batch 1: the FC layer has 20480 MACs over depth 11, ~1862 < 5131 lanes.
  CHECK(layer(one, "fc")["fills_device"] == false);
  CHECK(layer(one, "conv")["fills_device"] == true);  // 589824 / 7 = 84261
  CHECK(one["layers_too_small"].get<int>() > big["layers_too_small"].get<int>());
}

TEST_CASE("work and depth of attention's MatMul layers in the imported ViT-B/16") {
  const Json net = Json::parse(paleo_test::read_text(paleo_test::data_path("onnx/vit_b_16.graph.json")));
  const Json out = paleo::handle_request({{"command", "layers"}, {"net", net}, {"device", "V100_SXM2_16GB"},
                                          {"batch_size", 1}, {"work_depth", true}});
  INFO(out.dump().substr(0, 1000));
  REQUIRE(out["ok"].get<bool>());
  // Batch 1, 12 heads, 197 tokens of 64 per head. Scores Q x K^T: [12, 197, 197] outputs, each a
  // sum of 64 products (depth log2 64 = 6). Weighted values: [12, 197, 64] outputs, each a sum of
  // 197 products (depth ceil(log2 197) = 8). Both hold 12 * 197 * 197 * 64 multiply-adds.
  int scores = 0, values = 0;
  for (const Json& l : out["work_depth"]["layers"]) {
    if (l["type"] != "MatMul") continue;
    CHECK(l["work"].get<double>() == 12.0 * 197 * 197 * 64);
    const double depth = l["depth"].get<double>();
    CHECK((depth == 6 || depth == 8));
    (depth == 6 ? scores : values) += 1;
  }
  CHECK(scores == 12);
  CHECK(values == 12);
}
