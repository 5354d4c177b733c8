// Keras import (core/import/keras_model): hand-written model.to_json() documents in
// tests/data/keras/ (Keras 2 Sequential, Keras 3 Functional) and inline ones; forward FLOPs
// counted by hand (multiply-add = 2; paleo2017 also counts pooling windows and dropout).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "cli_runner.h"
#include "core/api.h"
#include "csv_table.h"

namespace {

using Json = nlohmann::ordered_json;

Json keras_file(const std::string& name) {
  return Json::parse(paleo_test::read_text(paleo_test::data_path("keras/" + name)));
}

Json layers_of(const Json& model, int batch = 1) {
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"profile", "paleo2017"}, {"net", {{"keras", model}}},
                                            {"batch_size", batch}, {"conv_algorithm", "gemm"}});
  INFO(r.dump().substr(0, 1500));
  REQUIRE(r.value("ok", false));
  return r;
}

double forward_flops(const Json& r) {
  double sum = 0;
  for (const Json& l : r["layers"]) sum += l["forward"]["flops"].get<double>();
  return sum;
}

std::map<std::string, Json> by_name(const Json& r) {
  std::map<std::string, Json> out;
  for (const Json& l : r["layers"]) out[l["name"].get<std::string>()] = l;
  return out;
}

}  // namespace

TEST_CASE("Keras import: a Sequential CNN (Keras 2 JSON) gives its hand-counted FLOPs", "[import][keras]") {
  const Json r = layers_of(keras_file("small_cnn_sequential.json"));
  const double conv1 = 2.0 * 32 * 32 * 16 * (3 * 3 * 3);  // same padding: 32x32x16
  const double pool1 = 2.0 * (2 * 2) * 16 * (16 * 16);    // 2x2 windows on 16x16x16 outputs
  const double depthwise = 2.0 * (3 * 3) * 16 * (16 * 16);  // zero-padded to 18x18, valid: 16x16, one channel per filter
  const double pointwise = 2.0 * 16 * 32 * (16 * 16);
  const double pool2 = 2.0 * (2 * 2) * 32 * (8 * 8);  // strides null: the pool size
  const double dropout = 8.0 * 8 * 32;               // one per element
  const double logits = 2.0 * (8 * 8 * 32) * 10;
  CHECK(forward_flops(r) == conv1 + pool1 + depthwise + pointwise + pool2 + dropout + logits);
  CHECK(forward_flops(r) == 1312768);
  auto l = by_name(r);
  CHECK(l["conv1"]["output"] == Json({1, 32, 32, 16}));
  CHECK(l["conv1"]["params"] == 3 * 3 * 3 * 16 + 16);
  CHECK(l["pad"]["output"] == Json({1, 18, 18, 16}));
  CHECK(l["dw"]["output"] == Json({1, 16, 16, 16}));
  CHECK(l["dw"]["params"] == 3 * 3 * 16);  // use_bias false
  CHECK(l["relu6"]["type"] == "ReLU6");
  CHECK(l["logits/activation"]["type"] == "Softmax");
  CHECK(l["logits"]["output"] == Json({1, 10}));
  CHECK(r["layers"].size() == 13);  // data, the 11 layers after the InputLayer, the softmax after logits
  // The batch is the request's.
  CHECK(forward_flops(layers_of(keras_file("small_cnn_sequential.json"), 16)) == 16 * 1312768.0);
}

TEST_CASE("Keras import: a residual Functional model (Keras 3 JSON) and its graph", "[import][keras]") {
  const Json r = layers_of(keras_file("residual_functional_keras3.json"));
  const double conv = 2.0 * 8 * 8 * 4 * (3 * 3 * 4);  // each of the two 3x3 convolutions, same padding
  const double gap = 2.0 * (8 * 8) * 8;             // one 8x8 window over 8 channels
  const double head = 2.0 * 8 * 3;
  CHECK(forward_flops(r) == 2 * conv + gap + head);
  CHECK(forward_flops(r) == 37936);
  auto l = by_name(r);
  CHECK(l["add"]["type"] == "Elementwise");
  CHECK(l["add"]["inputs"].size() == 2);
  CHECK(l["concat"]["output"] == Json({1, 8, 8, 8}));  // axis -1: channels
  CHECK(l["gap"]["output"] == Json({1, 8}));          // Keras's [N, C]
  CHECK(l["conv_b"]["params"] == 3 * 3 * 4 * 4 + 4);
  CHECK(l["conv_a"]["params"] == 3 * 3 * 4 * 4);
}

TEST_CASE("Keras import: Keras 2 Functional JSON given as text, Dense on positions, unknown layers", "[import][keras]") {
  const std::string text = R"({"class_name": "Functional", "config": {"name": "mlp", "layers": [
    {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 5, 16], "name": "tokens"}, "name": "tokens", "inbound_nodes": []},
    {"class_name": "Dense", "config": {"name": "up", "units": 8, "activation": "gelu"}, "name": "up", "inbound_nodes": [[["tokens", 0, 0, {}]]]},
    {"class_name": "Dense", "config": {"name": "side", "units": 8, "activation": "linear"}, "name": "side", "inbound_nodes": [[["tokens", 0, 0, {}]]]},
    {"class_name": "Add", "config": {"name": "sum"}, "name": "sum", "inbound_nodes": [[["up", 0, 0, {}], ["side", 0, 0, {}]]]},
    {"class_name": "LayerNormalization", "config": {"name": "norm"}, "name": "norm", "inbound_nodes": [[["sum", 0, 0, {}]]]},
    {"class_name": "Dense", "config": {"name": "out", "units": 2}, "name": "out", "inbound_nodes": [[["norm", 0, 0, {}]]]}]}})";
  const Json r = layers_of(Json(text));
  // Dense on [N, 5, 16] works on the last axis: every one of the 5 positions.
  CHECK(forward_flops(r) == 5 * (2.0 * 16 * 8 + 2.0 * 16 * 8 + 2.0 * 8 * 2));
  auto l = by_name(r);
  CHECK(l["up"]["output"] == Json({1, 5, 8}));
  CHECK(l["up/activation"]["type"] == "GELU");
  CHECK(l["sum"]["inputs"].size() == 2);
  bool listed = false;
  for (const Json& w : r["warnings"]) listed = listed || w.get<std::string>().find("LayerNormalization x1") != std::string::npos;
  CHECK(listed);
}

TEST_CASE("Keras import: bad models are errors naming the layer and field", "[import][keras][errors]") {
  auto error_of = [](const Json& model) {
    const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", {{"keras", model}}}});
    REQUIRE_FALSE(r["ok"].get<bool>());
    return r["error"];
  };
  CHECK(error_of(Json{{"class_name", "Sequential"}, {"config", {{"layers", Json::array()}}}})["field"] == "net.keras.config.layers");
  CHECK(error_of(Json("{not json"))["field"] == "net.keras");
  Json model = keras_file("small_cnn_sequential.json");
  model["config"]["layers"][1]["config"]["padding"] = "causal";
  Json e = error_of(model);
  CHECK(e["layer"] == "conv1");
  CHECK(e["field"] == "padding");
  model = keras_file("residual_functional_keras3.json");
  model["config"]["layers"][4]["inbound_nodes"][0]["args"][0]["config"]["keras_history"][0] = "nowhere";
  e = error_of(model);
  CHECK(e["layer"] == "conv_b");
  CHECK(e["field"] == "inbound_nodes");
  model = keras_file("small_cnn_sequential.json");
  model["config"]["layers"][1]["config"]["kernel_size"] = {40, 40};  // larger than 32x32 without padding
  model["config"]["layers"][1]["config"]["padding"] = "valid";
  e = error_of(model);
  CHECK(e["layer"] == "conv1");
  CHECK(e["field"] == "kernel_size");
}

TEST_CASE("Keras import: the CLI reads a model.to_json() file", "[import][keras][cli]") {
  const paleo_test::CliResult r = paleo_test::run_cli(
      "layers " + paleo_test::quoted(paleo_test::data_path("keras/small_cnn_sequential.json")) +
      " --profile paleo2017 --batch_size 1 --use_only_gemm --format json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(forward_flops(Json::parse(r.out)) == 1312768);
}

TEST_CASE("Keras import: a Keras 2 'Model' document as the net itself, in the API and the CLI", "[import][keras][cli]") {
  // Keras 2 before 2.4 names a Functional model's class "Model". The same model as the Sequential
  // file, written as a Functional one: its FLOPs are that file's, counted by hand (1312768).
  Json sequential = keras_file("small_cnn_sequential.json");
  Json layers = Json::array();
  std::string previous;
  for (Json layer : sequential["config"]["layers"]) {
    const std::string name = layer["config"]["name"].get<std::string>();
    layer["name"] = name;
    layer["inbound_nodes"] = previous.empty() ? Json::array() : Json::array({Json::array({Json::array({previous, 0, 0, Json::object()})})});
    if (previous.empty() && layer["class_name"] != "InputLayer") {
      // A Sequential file may give its input shape on the first layer: a Functional one needs an InputLayer.
      layers.push_back({{"class_name", "InputLayer"}, {"name", "input"}, {"inbound_nodes", Json::array()},
                        {"config", {{"name", "input"}, {"batch_input_shape", layer["config"]["batch_input_shape"]}}}});
      layer["inbound_nodes"] = Json::array({Json::array({Json::array({"input", 0, 0, Json::object()})})});
    }
    layers.push_back(layer);
    previous = name;
  }
  const Json model = {{"class_name", "Model"}, {"keras_version", "2.2.4"}, {"config", {{"name", "small_cnn"}, {"layers", layers}}}};

  const Json wrapped = layers_of(model);
  CHECK(forward_flops(wrapped) == 1312768);
  const Json bare = paleo::handle_request(Json{{"command", "layers"}, {"profile", "paleo2017"}, {"net", model},
                                               {"batch_size", 1}, {"conv_algorithm", "gemm"}});
  INFO(bare.dump().substr(0, 1500));
  REQUIRE(bare.value("ok", false));
  CHECK(bare["layers"] == wrapped["layers"]);

  const auto file = paleo_test::write_temp_file("keras2_model", ".json", model.dump());
  const paleo_test::CliResult r = paleo_test::run_cli("layers " + paleo_test::quoted(file.string()) +
                                                      " --profile paleo2017 --batch_size 1 --use_only_gemm --format json");
  std::filesystem::remove(file);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(forward_flops(Json::parse(r.out)) == 1312768);

  // A bare document's errors name the net's own fields.
  const Json bad = paleo::handle_request(
      Json{{"command", "layers"}, {"net", {{"class_name", "Model"}, {"config", {{"layers", Json::array()}}}}}});
  REQUIRE_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["field"] == "net.config.layers");
}

TEST_CASE("Keras import: a squeeze-and-excitation's Multiply broadcasts its [N, 1, 1, C] scale", "[import][keras]") {
  // x [N, 8, 8, 4] -> global average pool (keepdims) [N, 1, 1, 4] -> 1x1 conv to 2 (relu) -> 1x1
  // conv to 4 (sigmoid) -> Multiply(x, scale): a product of x's shape with both as parents.
  auto tensor = [](const char* layer, const Json& shape) {
    return Json{{"class_name", "__keras_tensor__"},
                {"config", {{"shape", shape}, {"dtype", "float32"}, {"keras_history", {layer, 0, 0}}}}};
  };
  auto conv = [&](const char* name, int filters, const char* activation, const char* parent, int channels) {
    return Json{{"class_name", "Conv2D"},
                {"name", name},
                {"config", {{"name", name}, {"filters", filters}, {"kernel_size", {1, 1}}, {"strides", {1, 1}},
                            {"padding", "valid"}, {"activation", activation}, {"use_bias", true}}},
                {"inbound_nodes", {{{"args", {tensor(parent, {nullptr, 1, 1, channels})}}, {"kwargs", Json::object()}}}}};
  };
  const Json x = {nullptr, 8, 8, 4};
  const Json model = {
      {"class_name", "Functional"},
      {"config",
       {{"name", "se"},
        {"layers",
         {{{"class_name", "InputLayer"}, {"name", "x"}, {"config", {{"batch_shape", x}, {"name", "x"}}}, {"inbound_nodes", Json::array()}},
          {{"class_name", "GlobalAveragePooling2D"},
           {"name", "squeeze"},
           {"config", {{"name", "squeeze"}, {"keepdims", true}}},
           {"inbound_nodes", {{{"args", {tensor("x", x)}}, {"kwargs", Json::object()}}}}},
          conv("reduce", 2, "relu", "squeeze", 4),
          conv("expand", 4, "sigmoid", "reduce", 2),
          {{"class_name", "Multiply"},
           {"name", "scale"},
           {"config", {{"name", "scale"}}},
           {"inbound_nodes", {{{"args", {{tensor("x", x), tensor("expand", {nullptr, 1, 1, 4})}}}, {"kwargs", Json::object()}}}}}}},
        {"input_layers", {{"x", 0, 0}}},
        {"output_layers", {{"scale", 0, 0}}}}}};
  auto l = by_name(layers_of(model, 2));
  CHECK(l["scale"]["type"] == "Elementwise");
  CHECK(l["scale"]["inputs"] == Json({{2, 8, 8, 4}, {2, 1, 1, 4}}));
  CHECK(l["scale"]["output"] == Json({2, 8, 8, 4}));
  CHECK(l["reduce"]["params"] == 4 * 2 + 2);
  // Shapes that do not broadcast (x's 4 channels against reduce's 2) are an error naming the layer.
  Json bad = model;
  bad["config"]["layers"][4]["inbound_nodes"][0]["args"][0][1] = tensor("reduce", {nullptr, 1, 1, 2});
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", {{"keras", bad}}}, {"batch_size", 2}});
  REQUIRE_FALSE(r["ok"].get<bool>());
  CHECK(r["error"]["layer"] == "scale");
}
