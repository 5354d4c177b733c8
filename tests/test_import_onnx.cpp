// ONNX import (core/import/onnx_graph): torchvision's ResNet-50 and MobileNetV2 exported with
// tools/export_onnx_models.py (weights stripped) and decoded by tools/onnx_to_graph.mjs into
// tests/data/onnx/*.graph.json; their forward FLOPs against the hand-written presets.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "cli_runner.h"
#include "core/api.h"
#include "csv_table.h"

namespace {

using Json = nlohmann::ordered_json;

double forward_flops(const Json& net) {
  const Json r = paleo::handle_request(
      Json{{"command", "estimate"}, {"profile", "paleo2017"}, {"net", net}, {"batch_size", 1}, {"conv_algorithm", "gemm"}});
  INFO(r.dump().substr(0, 1000));
  REQUIRE(r.value("ok", false));
  return r["totals"]["forward_flops"].get<double>();
}

Json graph(const std::string& name) {
  return Json::parse(paleo_test::read_text(paleo_test::data_path("onnx/" + name + ".graph.json")));
}

}  // namespace

TEST_CASE("ONNX import: torchvision ResNet-50 and MobileNetV2 give the presets' forward FLOPs", "[import][onnx]") {
  const double resnet = forward_flops(graph("resnet50"));
  const double resnet_preset = forward_flops("resnet50_v1_5");
  CHECK(std::fabs(resnet - resnet_preset) <= 0.005 * resnet_preset);
  const double mobilenet = forward_flops(graph("mobilenet_v2"));
  const double mobilenet_preset = forward_flops("mobilenet_v2");
  CHECK(std::fabs(mobilenet - mobilenet_preset) <= 0.005 * mobilenet_preset);
}

TEST_CASE("ONNX import: a malformed graph is an error naming the field", "[import][onnx][errors]") {
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", {{"onnx_graph", {{"nodes", 3}}}}}});
  REQUIRE_FALSE(r["ok"].get<bool>());
  CHECK(r["error"]["field"] == "net.onnx_graph");
}
