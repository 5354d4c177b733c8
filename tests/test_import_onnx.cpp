// ONNX import (core/import/onnx_graph): torchvision's ResNet-50 and MobileNetV2 exported with
// tools/export_onnx_models.py (weights stripped) and decoded by tools/onnx_to_graph.mjs into
// tests/data/onnx/*.graph.json; their forward FLOPs against the hand-written presets.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "cli_runner.h"
#include "core/api.h"
#include "csv_table.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

double forward_flops_at(const Json& net, int batch) {
  const Json r = paleo::handle_request(
      Json{{"command", "estimate"}, {"profile", "paleo2017"}, {"net", net}, {"batch_size", batch}, {"conv_algorithm", "gemm"}});
  INFO(r.dump().substr(0, 1000));
  REQUIRE(r.value("ok", false));
  return r["totals"]["forward_flops"].get<double>();
}

double forward_flops(const Json& net) { return forward_flops_at(net, 1); }

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

namespace {

constexpr auto& answer = ok_answer;  // tests/api_answer.h

Json layers_of(const Json& net, int batch) {
  return answer(Json{{"command", "layers"}, {"profile", "paleo2017"}, {"net", net}, {"batch_size", batch}, {"conv_algorithm", "gemm"}});
}

bool has_warning(const Json& r, const std::string& text) {
  for (const Json& w : r["warnings"])
    if (w.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("ONNX import: torchvision ViT-B/16 gives the hand-counted forward FLOPs, attention priced", "[import][onnx]") {
  // ViT-B/16 on 224x224: 196 patches of 16x16x3, T = 197 tokens (with the class token), D = 768,
  // 12 heads of 64, MLP 3072, 12 layers, 1000 classes. Multiply-adds count 2 FLOPs.
  const double T = 197, D = 768, heads = 12, head_dim = 64, mlp = 3072, layers = 12;
  const double patch_embedding = 2 * 196 * D * (16 * 16 * 3);
  const double qkv = 2 * T * D * 3 * D;
  const double scores = 2 * heads * T * T * head_dim;    // Q x K^T
  const double weighted_values = 2 * heads * T * T * head_dim;  // softmax(scores) x V
  const double projection = 2 * T * D * D;
  const double mlp_flops = 2 * T * D * mlp * 2;
  const double head = 2 * D * 1000;  // the class token only
  const double hand = patch_embedding + layers * (qkv + scores + weighted_values + projection + mlp_flops) + head;
  CHECK(hand == 35127656448.0);

  const Json net = graph("vit_b_16");
  CHECK(forward_flops(net) == Approx(hand).epsilon(1e-12));
  const Json r = layers_of(net, 1);
  int products = 0;
  for (const Json& l : r["layers"]) {
    if (l["type"] != "MatMul") continue;
    ++products;
    CHECK(l["forward"]["flops"].get<double>() == Approx(scores).epsilon(1e-12));
    CHECK(l["output"][1] == 12);  // per sample: [heads, 197, 197] or [heads, 197, 64]
  }
  CHECK(products == 24);
  CHECK(has_warning(r, "24 MatMul nodes of two activations"));
  CHECK(has_warning(r, "12 GELUs written with Erf"));
  // The batch is the request's: 8 images cost 8 times one.
  CHECK(forward_flops_at(net, 8) == Approx(8 * hand).epsilon(1e-12));
}

TEST_CASE("ONNX import: a hand-written attention block without stored shapes", "[import][onnx]") {
  // x [1, 4, 8] -> x W (8x6) + b -> reshape [1, 4, 2, 3] (2 heads of 3) -> Q = transpose [1, 2, 4, 3],
  // K^T = transpose [1, 2, 3, 4]; S = Q K^T [1, 2, 4, 4]; softmax; S Q [1, 2, 4, 3]; back to [1, 4, 6]
  // with a target computed from Shape; layer norm; flatten [1, 24]; Gemm by a 5x24 weight (transB).
  const Json net = Json::parse(R"({"onnx_graph": {
    "inputs": [{"name": "x", "shape": ["batch", 4, 8]}],
    "initializers": {"W": {"dims": [8, 6]}, "b": {"dims": [6]}, "heads": {"dims": [4], "values": [1, 4, 2, 3]},
                     "minus_one": {"dims": [1], "values": [-1]}, "g": {"dims": [6]}, "Wc": {"dims": [5, 24]}},
    "nodes": [
      {"name": "proj", "op": "MatMul", "inputs": ["x", "W"], "outputs": ["p"]},
      {"name": "bias", "op": "Add", "inputs": ["b", "p"], "outputs": ["pb"]},
      {"name": "split_heads", "op": "Reshape", "inputs": ["pb", "heads"], "outputs": ["h"]},
      {"name": "q", "op": "Transpose", "inputs": ["h"], "outputs": ["q"], "attributes": {"perm": [0, 2, 1, 3]}},
      {"name": "kt", "op": "Transpose", "inputs": ["h"], "outputs": ["kt"], "attributes": {"perm": [0, 2, 3, 1]}},
      {"name": "scores", "op": "MatMul", "inputs": ["q", "kt"], "outputs": ["s"]},
      {"name": "softmax", "op": "Softmax", "inputs": ["s"], "outputs": ["a"], "attributes": {"axis": -1}},
      {"name": "values", "op": "MatMul", "inputs": ["a", "q"], "outputs": ["v"]},
      {"name": "merge", "op": "Transpose", "inputs": ["v"], "outputs": ["m"], "attributes": {"perm": [0, 2, 1, 3]}},
      {"name": "shape", "op": "Shape", "inputs": ["m"], "outputs": ["ms"]},
      {"name": "first_two", "op": "Slice", "inputs": ["ms", "zero", "two"], "outputs": ["ms2"]},
      {"name": "zero", "op": "Constant", "inputs": [], "outputs": ["zero"], "attributes": {"value": {"dims": [1], "values": [0]}}},
      {"name": "two", "op": "Constant", "inputs": [], "outputs": ["two"], "attributes": {"value": {"dims": [1], "values": [2]}}},
      {"name": "target", "op": "Concat", "inputs": ["ms2", "minus_one"], "outputs": ["t"], "attributes": {"axis": 0}},
      {"name": "merged", "op": "Reshape", "inputs": ["m", "t"], "outputs": ["r"]},
      {"name": "norm", "op": "LayerNormalization", "inputs": ["r", "g"], "outputs": ["n"], "attributes": {"axis": -1}},
      {"name": "odd", "op": "Foo", "inputs": ["n"], "outputs": ["o"]},
      {"name": "flat", "op": "Flatten", "inputs": ["o"], "outputs": ["f"]},
      {"name": "classify", "op": "Gemm", "inputs": ["f", "Wc"], "outputs": ["y"], "attributes": {"transB": 1}}
    ]}})");
  // The Constant nodes come after their first use above: reorder them first, as ONNX requires.
  Json ordered = net;
  Json& nodes = ordered["onnx_graph"]["nodes"];
  Json sorted = Json::array({nodes[11], nodes[12]});
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (i != 11 && i != 12) sorted.push_back(nodes[i]);
  nodes = sorted;

  const double hand = 2 * 4 * 8 * 6    // x W: 4 tokens
                      + 2 * 2 * 4 * 3 * 4  // Q K^T: 2 heads, 4x3 by 3x4
                      + 2 * 2 * 4 * 4 * 3  // S V: 2 heads, 4x4 by 4x3
                      + 2 * 24 * 5;        // the classifier
  CHECK(hand == 1008);
  CHECK(forward_flops(ordered) == hand);
  CHECK(forward_flops_at(ordered, 3) == 3 * hand);
  const Json r = layers_of(ordered, 1);
  std::map<std::string, Json> by_name;
  for (const Json& l : r["layers"]) by_name[l["name"].get<std::string>()] = l;
  CHECK(by_name.count("bias") == 0);  // the bias belongs to the InnerProduct
  CHECK(by_name["proj"]["output"] == Json({1, 4, 6}));
  CHECK(by_name["proj"]["params"] == 8 * 6 + 6);
  CHECK(by_name["scores"]["output"] == Json({1, 2, 4, 4}));
  CHECK(by_name["softmax"]["output"] == Json({1, 2, 4, 4}));
  CHECK(by_name["merged"]["output"] == Json({1, 4, 6}));
  CHECK(by_name["norm"]["type"] == "LayerNorm");  // not a BatchNorm: no batch statistics to synchronise
  // Layer norm reduces over each token's 6 channels: depth ceil(log2 6) = 3 (batch norm's would
  // be log2 of the batch).
  const Json wd = answer(Json{{"command", "layers"}, {"net", ordered}, {"batch_size", 1}, {"work_depth", true}});
  int norms = 0;
  for (const Json& l : wd["work_depth"]["layers"])
    if (l["name"] == "norm") {
      ++norms;
      CHECK(l["depth"].get<double>() == 3);
    }
  CHECK(norms == 1);
  CHECK(by_name["classify"]["output"] == Json({1, 5}));
  CHECK(has_warning(r, "Foo x1"));
  CHECK(has_warning(r, "2 MatMul nodes of two activations"));
}

TEST_CASE("ONNX import: a Reshape whose target cannot be computed names the node", "[import][onnx][errors]") {
  const Json net = Json::parse(R"({"onnx_graph": {
    "inputs": [{"name": "x", "shape": [1, 4, 8]}],
    "nodes": [{"name": "r", "op": "Reshape", "inputs": ["x", "unknown_target"], "outputs": ["y"]}]}})");
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", net}});
  REQUIRE_FALSE(r["ok"].get<bool>());
  CHECK(r["error"]["layer"] == "r");
}

TEST_CASE("ONNX import: the CLI reads an .onnx file through the Node decoder", "[import][onnx][cli]") {
  const std::string modules = paleo_test::data_path("../../node_modules/onnx-proto/package.json");
  if (std::system("node --version > /dev/null 2>&1") != 0 || !std::filesystem::exists(modules)) {
    WARN("skipped: `paleo layers model.onnx` needs Node and `npm ci` (the onnx-proto package)");
    return;
  }
  const paleo_test::CliResult r = paleo_test::run_cli(
      "layers " + paleo_test::quoted(paleo_test::data_path("onnx/resnet50.onnx")) +
      " --profile paleo2017 --batch_size 1 --use_only_gemm --format json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json printed = Json::parse(r.out);
  const Json expected = paleo::handle_request(Json{{"command", "layers"}, {"profile", "paleo2017"}, {"net", graph("resnet50")},
                                                   {"batch_size", 1}, {"conv_algorithm", "gemm"}});
  REQUIRE(expected.value("ok", false));
  CHECK(printed["layers"] == expected["layers"]);
  CHECK(printed["layers"].size() > 100);

  // Not a protobuf: the decoder's message and the CLI's, and no table.
  const auto garbage = paleo_test::write_temp_file("not_a_model", ".onnx", "\xff\xff\xff\xff this is text");
  const paleo_test::CliResult bad = paleo_test::run_cli("layers " + paleo_test::quoted(garbage.string()));
  std::filesystem::remove(garbage);
  CHECK(bad.exit_code != 0);
  CHECK(bad.err.find("not a readable ONNX model") != std::string::npos);
  CHECK(bad.out.empty());
}

TEST_CASE("Spec: MatMul, last-axis InnerProduct and Softmax, Generic output_shape", "[spec][onnx]") {
  const Json spec = {{"name", "attention"},
                     {"layers",
                      {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {1, 5, 8}}}},
                       {"q", {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 8}, {"axis", -1}}},
                       {"kt", {{"parents", {"data"}}, {"type", "Reshape"}, {"output_shape", {1, 8, 5}}}},
                       {"s", {{"parents", {"q", "kt"}}, {"type", "MatMul"}}},
                       {"p", {{"parents", {"s"}}, {"type", "Softmax"}, {"axis", -1}}},
                       {"first", {{"parents", {"p"}}, {"type", "Generic"}, {"output_shape", {1, 5}}}}}}};
  const Json r = layers_of(spec, 2);
  std::map<std::string, Json> by_name;
  for (const Json& l : r["layers"]) by_name[l["name"].get<std::string>()] = l;
  CHECK(by_name["q"]["output"] == Json({2, 5, 8}));
  CHECK(by_name["q"]["forward"]["flops"] == 2.0 * (2 * 5) * 8 * 8);  // every position of every sample
  CHECK(by_name["s"]["output"] == Json({2, 5, 5}));
  CHECK(by_name["s"]["forward"]["flops"] == 2.0 * 2 * 5 * 8 * 5);
  CHECK(by_name["s"]["backward_data"]["flops"] == 2 * 2.0 * 2 * 5 * 8 * 5);  // dA and dB
  CHECK(by_name["s"]["params"] == 0);
  CHECK(by_name["p"]["output"] == Json({2, 5, 5}));
  CHECK(by_name["first"]["output"] == Json({2, 5}));

  Json one_parent = spec;
  one_parent["layers"]["s"]["parents"] = {"q"};
  Json bad = paleo::handle_request(Json{{"command", "layers"}, {"net", one_parent}});
  REQUIRE_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["layer"] == "s");
  CHECK(bad["error"]["field"] == "parents");
  Json wrong_axis = spec;
  wrong_axis["layers"]["q"]["axis"] = 1;
  bad = paleo::handle_request(Json{{"command", "layers"}, {"net", wrong_axis}});
  REQUIRE_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["field"] == "axis");
}

TEST_CASE("ONNX import: hostile sizes are errors naming the node, never wrapped numbers", "[import][onnx][errors]") {
  const Json huge = Json::array({1LL << 40, 1LL << 40});
  auto graph_with = [](const Json& nodes, const Json& initializers) {
    return Json{{"onnx_graph", {{"inputs", {{{"name", "x"}, {"shape", {1, 4, 8}}}}}, {"initializers", initializers}, {"nodes", nodes}}}};
  };
  struct Case {
    const char* what;
    Json net;
    const char* layer;
  };
  const std::vector<Case> cases = {
      {"a Reshape target past 2^50 elements",
       graph_with({{{"name", "r"}, {"op", "Reshape"}, {"inputs", {"x", "t"}}, {"outputs", {"y"}}}},
                  {{"t", {{"dims", {2}}, {"values", huge}}}}),
       "r"},
      {"shape arithmetic that overflows 64 bits",
       graph_with({{{"name", "m"}, {"op", "Mul"}, {"inputs", {"a", "a"}}, {"outputs", {"b"}}},
                   {{"name", "r"}, {"op", "Reshape"}, {"inputs", {"x", "b"}}, {"outputs", {"y"}}}},
                  {{"a", {{"dims", {1}}, {"values", {1LL << 62}}}}}),
       "m"},
      {"a Slice step of -2^63",
       graph_with({{{"name", "s"}, {"op", "Slice"}, {"inputs", {"x", "st", "en", "ax", "sp"}}, {"outputs", {"y"}}},
                   {{"name", "r"}, {"op", "Reshape"}, {"inputs", {"y", "t"}}, {"outputs", {"z"}}}},
                  {{"st", {{"dims", {1}}, {"values", {-1}}}}, {"en", {{"dims", {1}}, {"values", {INT64_MIN}}}},
                   {"ax", {{"dims", {1}}, {"values", {-1}}}}, {"sp", {{"dims", {1}}, {"values", {INT64_MIN}}}},
                   {"t", {{"dims", {2}}, {"values", huge}}}}),
       "r"},
      {"an Expand to a negative size",
       graph_with({{{"name", "e"}, {"op", "Expand"}, {"inputs", {"x", "t"}}, {"outputs", {"y"}}}},
                  {{"t", {{"dims", {3}}, {"values", {1, -4, 8}}}}}),
       "e"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", c.net}});
    REQUIRE_FALSE(r["ok"].get<bool>());
    CHECK(r["error"]["layer"] == c.layer);
  }
}

TEST_CASE("ONNX import: a graph exported at batch 2 that merges the batch is an error naming the node", "[import][onnx][errors]") {
  // [2, 4, 8] reshaped to [8, 8]: the two samples' rows are one dimension now.
  const Json net = {{"onnx_graph",
                     {{"inputs", {{{"name", "x"}, {"shape", {2, 4, 8}}}}},
                      {"initializers", {{"t", {{"dims", {2}}, {"values", {8, 8}}}}, {"W", {{"dims", {8, 3}}}}}},
                      {"nodes",
                       {{{"name", "merge"}, {"op", "Reshape"}, {"inputs", {"x", "t"}}, {"outputs", {"y"}}},
                        {{"name", "proj"}, {"op", "MatMul"}, {"inputs", {"y", "W"}}, {"outputs", {"z"}}}}}}}};
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", net}});
  REQUIRE_FALSE(r["ok"].get<bool>());
  CHECK(r["error"]["layer"] == "merge");
  CHECK(r["error"]["message"].get<std::string>().find("export the model at batch 1") != std::string::npos);
  // Exported at batch 1, the same graph prices any batch: 2 samples of 4 rows by an 8x3 weight.
  Json one = net;
  one["onnx_graph"]["inputs"][0]["shape"][0] = 1;
  one["onnx_graph"]["initializers"]["t"]["values"] = {4, 8};
  CHECK(forward_flops_at(one, 2) == 2.0 * (2 * 4) * 8 * 3);
}

TEST_CASE("ONNX import: a squeeze-and-excitation's Mul takes the broadcast scale as a parent", "[import][onnx]") {
  // x [N, 8, 4, 4] -> GlobalAveragePool [N, 8, 1, 1] -> 1x1 Conv to 2, Relu -> 1x1 Conv to 8,
  // Sigmoid -> Mul(x, s): a product of both, x's shape (Paleo's NHWC [N, 4, 4, 8]).
  const Json net = Json::parse(R"({"onnx_graph": {
    "inputs": [{"name": "x", "shape": ["batch", 8, 4, 4]}],
    "initializers": {"w1": {"dims": [2, 8, 1, 1]}, "b1": {"dims": [2]}, "w2": {"dims": [8, 2, 1, 1]}, "b2": {"dims": [8]}},
    "nodes": [
      {"name": "pool", "op": "GlobalAveragePool", "inputs": ["x"], "outputs": ["p"]},
      {"name": "reduce", "op": "Conv", "inputs": ["p", "w1", "b1"], "outputs": ["r"], "attributes": {"kernel_shape": [1, 1]}},
      {"name": "relu", "op": "Relu", "inputs": ["r"], "outputs": ["rr"]},
      {"name": "expand", "op": "Conv", "inputs": ["rr", "w2", "b2"], "outputs": ["e"], "attributes": {"kernel_shape": [1, 1]}},
      {"name": "gate", "op": "Sigmoid", "inputs": ["e"], "outputs": ["s"]},
      {"name": "scale", "op": "Mul", "inputs": ["x", "s"], "outputs": ["y"]}
    ]}})");
  const Json r = layers_of(net, 2);
  std::map<std::string, Json> by_name;
  for (const Json& l : r["layers"]) by_name[l["name"].get<std::string>()] = l;
  CHECK(by_name["scale"]["type"] == "Elementwise");
  CHECK(by_name["scale"]["inputs"] == Json({{2, 4, 4, 8}, {2, 1, 1, 8}}));
  CHECK(by_name["scale"]["output"] == Json({2, 4, 4, 8}));
  // Priced as a product under paleo2026: the backward pass reads x and the scale (fp32).
  const Json priced = answer(Json{{"command", "layers"}, {"net", net}, {"batch_size", 2}, {"device", "H100_SXM"},
                                  {"precision", "fp32"}});
  int found = 0;
  for (const Json& l : priced["layers"])
    if (l["name"] == "scale") {
      ++found;
      const double big = 2 * 4 * 4 * 8, small = 2 * 8;
      CHECK(l["backward_data"]["bytes"].get<double>() == 4 * (4 * big + 2 * small));
    }
  CHECK(found == 1);
}
