// Hostile requests of issue 33's audit, each answered with an error naming the field that caused
// it (or a warning), never a library's text, a cut message or a silently wrong answer; and the
// calibration's layer selectors indexed once per response.
#include <catch2/catch.hpp>

#include <string>

#include "core/api.h"
#include "core/calibration/measurement.h"

namespace {

using Json = nlohmann::ordered_json;

Json answer(const Json& request) { return paleo::handle_request(request); }

void check_error(const Json& response, const std::string& layer, const std::string& field, const std::string& words) {
  INFO("response: " << response.dump().substr(0, 600));
  REQUIRE_FALSE(response.value("ok", true));
  CHECK(response["error"]["layer"] == layer);
  CHECK(response["error"]["field"] == field);
  const std::string message = response["error"]["message"].get<std::string>();
  CHECK(message.find(words) != std::string::npos);
  CHECK(message.find("json.exception") == std::string::npos);
  CHECK(message.find("internal error") == std::string::npos);
}

// x [N, 3, H, W] -> a 3x3 convolution to 8 channels, padded to keep H x W.
Json conv_graph(const Json& input_shape) {
  Json net = Json::parse(R"({"onnx_graph": {
    "inputs": [{"name": "images"}],
    "initializers": {"w": {"dims": [8, 3, 3, 3]}},
    "nodes": [{"name": "conv", "op": "Conv", "inputs": ["images", "w"], "outputs": ["y"],
               "attributes": {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}}]}})");
  net["onnx_graph"]["inputs"][0]["shape"] = input_shape;
  return net;
}

Json output_of(const Json& response, const std::string& name) {
  for (const Json& l : response["layers"])
    if (l["name"] == name) return l["output"];
  return Json();
}

}  // namespace

TEST_CASE("A JSON pointer with an index past any array names the compare field, not the library", "[hostile][calibration]") {
  const Json r = answer({{"command", "calibrate"},
                         {"request", {{"command", "layers"}, {"net", "alex_v2"}}},
                         {"measurements", {{{"measured_ms", 1}, {"compare", "/layers/99999999999999999999999"}}}}});
  check_error(r, "", "measurements[0].compare", "no number at /layers/99999999999999999999999");
  // An index in range of the digits but past the rows: the same error.
  const Json past = answer({{"command", "calibrate"},
                            {"request", {{"command", "layers"}, {"net", "alex_v2"}}},
                            {"measurements", {{{"measured_ms", 1}, {"compare", "/layers/100000/forward/total_ms"}}}}});
  check_error(past, "", "measurements[0].compare", "no number at /layers/100000/forward/total_ms");
}

TEST_CASE("A NUL in a quoted key is written escaped, not the end of the message", "[hostile][echo]") {
  const Json r = answer({{"command", "layers"}, {"net", std::string("ab\0cd", 5)}});
  check_error(r, "", "net", "unknown preset net 'ab\\u0000cd'");
  // Other control characters too (they would act on the terminal the CLI prints to).
  const Json esc = answer({{"command", "layers"}, {"net", std::string("a\x1b[2Jb")}});
  check_error(esc, "", "net", "'a\\u001b[2Jb'");
}

TEST_CASE("More pipeline micro-batches than samples is an error naming micro_batches", "[hostile][pipeline]") {
  const Json base = {{"command", "estimate"}, {"net", "alex_v2"}, {"batch_size", 128}, {"cluster", "dgx1_v100_edr"},
                     {"nodes", 1}};
  Json request = base;
  request["pipeline"] = {{"stages", 2}, {"micro_batches", 1048576}};
  check_error(answer(request), "", "pipeline.micro_batches", "for a batch of 128 samples");
  // As many micro-batches as samples: one sample each, answered.
  request["pipeline"]["micro_batches"] = 128;
  const Json ok = answer(request);
  INFO(ok.dump().substr(0, 300));
  REQUIRE(ok.value("ok", false));
  CHECK(ok["cluster"]["pipeline"]["micro_batch"] == 1);
}

TEST_CASE("The search warns when devices_per_node is more than the devices", "[hostile][search]") {
  const Json r = answer({{"command", "search"}, {"net", "alex_v2"}, {"devices", 4}, {"devices_per_node", 1000000},
                         {"batch_size", 32}});
  REQUIRE(r.value("ok", false));
  CHECK(r["devices_per_node"] == 4);
  bool warned = false;
  for (const Json& w : r["warnings"]) warned = warned || w.get<std::string>().find("devices_per_node: 1000000") == 0;
  CHECK(warned);
  // Nodes of 4 for 16 devices: nothing to say.
  const Json fits = answer({{"command", "search"}, {"net", "alex_v2"}, {"devices", 16}, {"devices_per_node", 4},
                            {"batch_size", 32}});
  REQUIRE(fits.value("ok", false));
  for (const Json& w : fits["warnings"]) CHECK(w.get<std::string>().find("devices_per_node") == std::string::npos);
}

TEST_CASE("An ONNX graph input without known sizes is an error naming it, or takes input_shape", "[hostile][onnx]") {
  // Symbolic, null, negative and huge sizes past the batch: none becomes 1 (a 1x1 image).
  for (const Json& shape : {Json::parse(R"(["batch", 3, "height", "width"])"), Json::parse("[1, 3, null, 224]"),
                            Json::parse("[1, 3, -1, 224]"), Json::parse("[1, 3, 224, 9223372036854775807]")}) {
    INFO(shape.dump());
    const Json r = answer({{"command", "layers"}, {"net", conv_graph(shape)}});
    check_error(r, "", "net.onnx_graph.inputs", "the graph input 'images' has no known size for dimension");
  }
  // With the shape given: NCHW [2, 3, 32, 48] is Paleo's [2, 32, 48, 3], the padded 3x3
  // convolution keeps 32 x 48 and gives 8 channels.
  Json net = conv_graph(Json::parse(R"(["batch", 3, "height", "width"])"));
  net["input_shape"] = {2, 3, 32, 48};
  const Json r = answer({{"command", "layers"}, {"net", net}, {"batch_size", 2}});
  INFO(r.dump().substr(0, 400));
  REQUIRE(r.value("ok", false));
  CHECK(output_of(r, "data") == Json({2, 32, 48, 3}));
  CHECK(output_of(r, "conv") == Json({2, 32, 48, 8}));
  // An unknown batch alone is 1, as before: it prices any batch_size.
  const Json batch_only = answer({{"command", "layers"}, {"net", conv_graph(Json::parse(R"(["N", 3, 32, 48])"))},
                                  {"batch_size", 2}});
  REQUIRE(batch_only.value("ok", false));
  CHECK(output_of(batch_only, "conv") == Json({2, 32, 48, 8}));
  // A shape of the wrong rank, or with a size that is not a positive integer, names input_shape.
  net["input_shape"] = {2, 3, 32};
  check_error(answer({{"command", "layers"}, {"net", net}}), "", "net.input_shape", "has 3 dimensions");
  net["input_shape"] = {2, 3, 0, 48};
  check_error(answer({{"command", "layers"}, {"net", net}}), "", "net.input_shape", "positive integer sizes");
}

TEST_CASE("Sizes too large name the layer and field that make them", "[hostile][limits]") {
  // VGG-16 at batch 2^30: conv1-1's output [2^30, 224, 224, 64] is past 2^50 elements for its
  // batch; one sample's 224 x 224 x 64 = 3,211,264 is fine.
  check_error(answer({{"command", "layers"}, {"net", "vgg16"}, {"batch_size", 1073741824}}), "conv1-1", "batch_size",
              "(one sample's is 3211264)");
  // A Keras Conv2D's filters of 2^62 is that layer's filters, not the next depthwise layer's
  // depth_multiplier.
  const Json keras = Json::parse(R"({"class_name": "Sequential", "config": {"name": "k", "layers": [
    {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 32, 32, 3], "name": "input_1"}},
    {"class_name": "Conv2D", "config": {"name": "conv1", "filters": 4611686018427387904, "kernel_size": [3, 3],
                                        "strides": [1, 1], "padding": "same", "activation": "relu"}},
    {"class_name": "DepthwiseConv2D", "config": {"name": "dw", "kernel_size": [3, 3], "strides": [1, 1],
                                                 "padding": "valid", "depth_multiplier": 1}}]}})");
  check_error(answer({{"command", "layers"}, {"net", keras}}), "conv1", "filters", "4611686018427387904");
  // ppp_comp 1e-300 with a time to train: the PPP, not an empty field after the overflow.
  check_error(answer({{"command", "estimate"}, {"net", "alex_v2"}, {"ppp_comp", 1e-300}, {"dataset_samples", 1000000000000000},
                      {"epochs", 1000000}}),
              "", "ppp_comp", "1e-300");
  // The smallest PPP taken, with the largest dataset and epochs, answers finite numbers.
  const Json small = answer({{"command", "estimate"}, {"net", "alex_v2"}, {"ppp_comp", 1e-6}, {"ppp_comm", 1e-6},
                             {"dataset_samples", 1000000000000000}, {"epochs", 1000000}});
  INFO(small.dump().substr(0, 300));
  CHECK(small.value("ok", false));
}

TEST_CASE("Calibration layer selectors look rows up by name, each response indexed once", "[hostile][calibration]") {
  const Json response = {{"layers", Json::array({{{"name", "a"}, {"forward", {{"total_ms", 1.5}}}},
                                                 {{"name", "b"}, {"forward", {{"total_ms", 2.5}}}},
                                                 {{"name", "a"}, {"forward", {{"total_ms", 9.0}}}}})}};
  const paleo::ResponseLayers layers(response);
  REQUIRE(layers.find("b") != nullptr);
  CHECK((*layers.find("b"))["forward"]["total_ms"] == 2.5);
  // The first row of a repeated name, as a scan from the top finds.
  CHECK((*layers.find("a"))["forward"]["total_ms"] == 1.5);
  CHECK(layers.find("c") == nullptr);
  CHECK(layers.listed_names() == "a, b, a");

  // 1,000 selectors of ResNet-152's fc (they took over a minute when each copied the rows): each
  // predicted value is the fc row's forward total_ms of the same layers request.
  const Json request = {{"command", "layers"}, {"net", "resnet152_v1_5"}, {"device", "V100_SXM2_16GB"}};
  const Json plain = answer(request);
  REQUIRE(plain.value("ok", false));
  double fc_ms = 0;
  for (const Json& l : plain["layers"])
    if (l["name"] == "fc") fc_ms = l["forward"]["total_ms"].get<double>();
  REQUIRE(fc_ms > 0);
  Json measurements = Json::array();
  for (int i = 0; i < 1000; ++i)
    measurements.push_back({{"measured_ms", fc_ms}, {"compare", {{"layer", "fc"}, {"pass", "forward"}}}});
  const Json r = answer({{"command", "calibrate"}, {"request", request}, {"measurements", measurements},
                         {"max_evaluations", 1}});
  INFO(r.dump().substr(0, 400));
  REQUIRE(r.value("ok", false));
  REQUIRE(r["before"]["rows"].size() == 1000);
  for (const Json& row : r["before"]["rows"]) CHECK(row["predicted"].get<double>() == Approx(fc_ms).epsilon(1e-12));
}
