// Caffe prototxt import (core/import/caffe_prototxt): the original's two bundled prototxt nets
// against its published totals, the conversion rules on small nets worked out by hand, and bad
// input naming the layer and field.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "cli_runner.h"
#include "core/api.h"
#include "csv_table.h"
#include "api_answer.h"

namespace {

using paleo_test::cell;
using paleo_test::CsvRow;
using paleo_test::number;
using Json = nlohmann::ordered_json;

std::string caffe_file(const std::string& name) { return paleo_test::read_text(paleo_test::data_path("caffe/" + name)); }

Json request_for(const std::string& command, const std::string& prototxt) {
  return {{"command", command}, {"profile", "paleo2017"}, {"net", {{"prototxt", prototxt}}},
          {"device", "TITAN_X"}, {"conv_algorithm", "gemm"}, {"batch_size", 128}};
}

constexpr auto& answer = ok_answer;  // tests/api_answer.h

// Half a unit of the last digit the golden value was printed with ("190.939" -> 0.0005).
double printed_tolerance(const std::string& text) {
  const std::size_t dot = text.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
  return 0.5 * std::pow(10.0, -decimals);
}

// Small nets: the input is 1x3x32x32 (NCHW), converted to NHWC [N, 32, 32, 3].
const std::string kHeader = "name: \"t\"\ninput: \"img\"\ninput_dim: 1\ninput_dim: 3\ninput_dim: 32\ninput_dim: 32\n";

Json layers_of(const std::string& body) {
  return answer(request_for("layers", kHeader + body))["layers"];
}

const Json& layer_named(const Json& layers, const std::string& name) {
  for (const Json& l : layers)
    if (l["name"] == name) return l;
  FAIL("no layer " << name);
  static const Json none;
  return none;
}

Json error_of(const std::string& body) {
  const Json response = paleo::handle_request(request_for("layers", kHeader + body));
  INFO(response.dump());
  REQUIRE_FALSE(response.value("ok", true));
  return response["error"];
}

}  // namespace

TEST_CASE("Caffe import: the original's ResNet-50 and DenseNet prototxt give its published totals", "[import][caffe][golden]") {
  const paleo_test::CsvTable table = paleo_test::read_csv(paleo_test::data_path("caffe/totals_head_gemm.csv"));
  REQUIRE(table.rows.size() == 2);
  for (const CsvRow& row : table.rows) {
    INFO(cell(row, "net"));
    Json request = request_for("layers", caffe_file(cell(row, "file")));
    request["device"] = cell(row, "device");
    request["batch_size"] = static_cast<long long>(number(row, "batch"));
    const Json response = answer(request);
    CHECK(response["layers"].size() == static_cast<std::size_t>(number(row, "layers")));
    const Json& totals = response["totals"];
    CHECK(totals["params"].get<double>() == number(row, "params"));
    const std::map<std::string, std::string> columns = {
        {"fwd_ms", "forward_ms"}, {"bwd_ms", "backward_ms"}, {"apply_ms", "update_ms"}, {"sum_ms", "step_ms"}};
    for (const auto& [column, key] : columns) {
      INFO(column << ": golden " << cell(row, column) << ", got " << totals[key].get<double>());
      CHECK(std::fabs(totals[key].get<double>() - number(row, column)) <= printed_tolerance(cell(row, column)));
    }
  }
}

TEST_CASE("Caffe import: layer types of the converted ResNet-50 as the original counts them", "[import][caffe]") {
  const Json layers = answer(request_for("layers", caffe_file("resnet50.prototxt")))["layers"];
  std::map<std::string, int> types;
  for (const Json& l : layers) ++types[l["type"].get<std::string>()];
  // Reference report, section 2.2: 53 conv, 2 pool, 16 Elementwise, 1 InnerProduct, softmax.
  CHECK(types["Convolution"] == 53);
  CHECK(types["Pooling"] + types["AvgPool"] == 2);
  CHECK(types["Elementwise"] == 16);
  CHECK(types["InnerProduct"] == 1);
  CHECK(types["Softmax"] == 1);
  // conv1: 7x7 stride 2 with pad 3 is SAME: 224 / 2 = 112; pool1 3x3 stride 2 VALID: ceil(222 / 2) = 111?
  // No: ceil((112 - 3 + 1) / 2) = 55, the original's rule (Caffe itself rounds up to 56).
  CHECK(layer_named(layers, "conv1")["output"] == Json({128, 112, 112, 64}));
  CHECK(layer_named(layers, "pool1")["output"] == Json({128, 55, 55, 64}));
  CHECK(layer_named(layers, "fc1000")["output"] == Json({128, 1000}));
}

TEST_CASE("Caffe import: conversion rules on small nets", "[import][caffe]") {
  SECTION("in-place layers vanish, their consumers read the producer; a warning counts them") {
    const Json r = answer(request_for("layers", kHeader +
        "layer { name: 'c1' type: 'Convolution' bottom: 'img' top: 'c1' convolution_param { num_output: 8 kernel_size: 3 } }\n"
        "layer { name: 'r1' type: 'ReLU' bottom: 'c1' top: 'c1' }\n"
        "layer { name: 'b1' type: 'BatchNorm' bottom: 'c1' top: 'c1' }\n"
        "layer { name: 'ip' type: 'InnerProduct' bottom: 'c1' top: 'ip' inner_product_param { num_output: 10 } }\n"));
    const Json& layers = r["layers"];
    REQUIRE(layers.size() == 3);  // data, c1, ip
    // 3x3 VALID on 32x32: 30x30x8; ip flattens 7200 inputs: 7200 * 10 + 10 parameters.
    CHECK(layer_named(layers, "c1")["output"] == Json({128, 30, 30, 8}));
    CHECK(layer_named(layers, "ip")["params"] == 72010);
    CHECK(layer_named(layers, "c1")["params"] == 3 * 3 * 3 * 8 + 8);
    REQUIRE(r["warnings"].size() == 1);
    CHECK(r["warnings"][0].get<std::string>().find("1 BatchNorm, 1 ReLU") != std::string::npos);
  }
  SECTION("kernel_h / kernel_w, stride_h / stride_w, pad_h makes SAME, group") {
    const Json layers = layers_of(
        "layer { name: 'c' type: 'Convolution' bottom: 'img' top: 'c' convolution_param { num_output: 6 kernel_h: 1 kernel_w: 5"
        " stride_h: 2 stride_w: 1 pad_h: 1 group: 3 } }\n");
    // SAME: ceil(32 / 2) = 16, ceil(32 / 1) = 32; params 1*5*(3/3)*6 + 6 = 36.
    CHECK(layer_named(layers, "c")["output"] == Json({128, 16, 32, 6}));
    CHECK(layer_named(layers, "c")["params"] == 36);
  }
  SECTION("average and global pooling, Concat axis 1 is channels, TEST layers skipped") {
    const std::string body =
        "layer { name: 'a' type: 'Pooling' bottom: 'img' top: 'a' pooling_param { pool: AVE kernel_size: 2 stride: 2 } }\n"
        "layer { name: 'm' type: 'Pooling' bottom: 'img' top: 'm' pooling_param { pool: MAX kernel_size: 3 stride: 2 pad: 1 } }\n"
        "layer { name: 'cat' type: 'Concat' bottom: 'a' bottom: 'm' top: 'cat' }\n"
        "layer { name: 'g' type: 'Pooling' bottom: 'cat' top: 'g' pooling_param { pool: AVE global_pooling: true } }\n"
        "layer { name: 'acc' type: 'Accuracy' bottom: 'g' bottom: 'img' top: 'acc' include { phase: TEST } }\n";
    const Json layers = layers_of(body);
    REQUIRE(layers.size() == 5);
    CHECK(layer_named(layers, "a")["type"] == "AvgPool");
    CHECK(layer_named(layers, "m")["type"] == "Pooling");
    CHECK(layer_named(layers, "a")["output"] == Json({128, 16, 16, 3}));  // VALID ceil(31 / 2)
    CHECK(layer_named(layers, "m")["output"] == Json({128, 16, 16, 3}));  // SAME ceil(32 / 2)
    CHECK(layer_named(layers, "cat")["output"] == Json({128, 16, 16, 6}));
    // paleo2017 keeps the original converter's window for global pooling: the 3x3 of 'm' before
    // it, stride 1, VALID on 16x16: 14x14. paleo2026 pools the whole 16x16 map.
    CHECK(layer_named(layers, "g")["output"] == Json({128, 14, 14, 6}));
    Json request = request_for("layers", kHeader + body);
    request["profile"] = "paleo2026";
    CHECK(layer_named(answer(request)["layers"], "g")["output"] == Json({128, 1, 1, 6}));
  }
  SECTION("Eltwise PROD is a product: its backward pass reads the other input") {
    auto backward_bytes = [](const std::string& operation) {
      Json request = request_for("layers", kHeader +
          "layer { name: 'c1' type: 'Convolution' bottom: 'img' top: 'c1' convolution_param { num_output: 8 kernel_size: 3 } }\n"
          "layer { name: 'c2' type: 'Convolution' bottom: 'img' top: 'c2' convolution_param { num_output: 8 kernel_size: 3 } }\n"
          "layer { name: 'e' type: 'Eltwise' bottom: 'c1' bottom: 'c2' top: 'e' eltwise_param { operation: " + operation +
          " } }\n");
      request["profile"] = "paleo2026";
      return layer_named(answer(request)["layers"], "e")["backward_data"]["bytes"].get<double>();
    };
    // A sum reads the gradient and writes two (3 passes); a product's two gradients each read the
    // gradient and the other input and write their own (6 passes).
    CHECK(backward_bytes("PROD") == 2 * backward_bytes("SUM"));
    CHECK(backward_bytes("MAX") == backward_bytes("SUM"));
  }
  SECTION("an Input layer, SoftmaxWithLoss reads only its first bottom, other types are Generic with a warning") {
    const Json r = answer(request_for("layers",
        "layer { name: 'in' type: 'Input' top: 'x' top: 'label' input_param { shape { dim: [2, 4, 8, 8] } } }\n"
        "layer { name: 'ip' type: 'InnerProduct' bottom: 'x' top: 'ip' inner_product_param { num_output: 5 } }\n"
        "layer { name: 'pw' type: 'Power' bottom: 'ip' top: 'pw' }\n"
        "layer { name: 'loss' type: 'SoftmaxWithLoss' bottom: 'pw' bottom: 'label' top: 'loss' }\n"));
    const Json& layers = r["layers"];
    REQUIRE(layers.size() == 4);
    CHECK(layer_named(layers, "data")["output"] == Json({128, 8, 8, 4}));
    CHECK(layer_named(layers, "ip")["params"] == 8 * 8 * 4 * 5 + 5);
    CHECK(layer_named(layers, "pw")["type"] == "Generic");
    CHECK(layer_named(layers, "loss")["inputs"].size() == 1);
    REQUIRE(r["warnings"].size() == 1);
    CHECK(r["warnings"][0].get<std::string>().find("'pw'") != std::string::npos);
  }
}

TEST_CASE("Caffe import: bad prototxt names the layer and field", "[import][caffe][errors]") {
  Json e = error_of("layer { name: 'c' type: 'Convolution' bottom: 'img' top: 'c' convolution_param { kernel_size: 3 } }");
  CHECK(e["layer"] == "c");
  CHECK(e["field"] == "num_output");
  e = error_of("layer { name: 'c' type: 'Convolution' bottom: 'nope' top: 'c' convolution_param { num_output: 2 kernel_size: 3 } }");
  CHECK(e["layer"] == "c");
  CHECK(e["field"] == "bottom");
  e = error_of("layer { name: 'c' type: 'Convolution' bottom: 'img' top: 'c' convolution_param { num_output: -2 kernel_size: 3 } }");
  CHECK(e["field"] == "num_output");
  e = error_of("layer { name: 'c' type: 'Convolution' bottom: 'img' top: 'c' convolution_param { num_output: 2 kernel_size: 99 } }");
  CHECK(e["layer"] == "c");  // the kernel is larger than the 32x32 input
  e = error_of("layer { name: 'c' \n type: 'Convolution' bottom: 'img' top: 'c' convolution_param { num_output: 2 ");
  CHECK(e["field"] == "net.prototxt");
  CHECK(e["message"].get<std::string>().find("line 8") != std::string::npos);  // the end: 6 header lines + 2
  e = error_of("layer { name: \"unclosed }");
  CHECK(e["field"] == "net.prototxt");
  // Nesting deeper than the request limit is refused before it recurses further.
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "a {";
  e = error_of(deep);
  CHECK(e["message"].get<std::string>().find("nested") != std::string::npos);
  // No input shape at all.
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", {{"prototxt", "name: 'x'"}}}});
  CHECK_FALSE(r["ok"].get<bool>());
  CHECK(r["error"]["message"].get<std::string>().find("input") != std::string::npos);
}

TEST_CASE("CLI: `paleo layers` and `paleo simulate` read a .prototxt file", "[import][caffe][cli]") {
  const std::string path = paleo_test::data_path("caffe/densenet.prototxt");
  paleo_test::CliResult r = paleo_test::run_cli("layers " + path + " --profile paleo2017 --use_only_gemm --batch_size 128 --format json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json layers = Json::parse(r.out);
  CHECK(layers["layers"].size() == 159);
  // DenseNet's forward total at batch 128 on TITAN_X: 17.300 ms in the original's report.
  CHECK(std::fabs(layers["totals"]["forward_ms"].get<double>() - 17.300) <= 0.0005);
  r = paleo_test::run_cli("simulate " + path + " --use_only_gemm --num_workers 1 --scaling weak");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("49.51") != std::string::npos);  // time_comp 49.518 at one worker
}
