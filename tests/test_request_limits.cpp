// Hostile and oversized requests (docs/api.md, "Limits"): each is a clear error naming the field,
// given before the work it bounds starts, as valid and short JSON; never a crash, a wrapped count,
// a hang or a response that cannot be printed. The WebAssembly build answers the same requests in
// tests/web/wasm_safety.test.mjs.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "cli_runner.h"
#include "core/api.h"
#include "core/base/request_limits.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr std::int64_t kTwoTo31 = std::int64_t{1} << 31;
constexpr std::int64_t kTwoTo20 = std::int64_t{1} << 20;

// data [8, 32, 32, 3] -> conv 3x3x3x16 SAME -> fc 10
Json small_net() {
  return {{"name", "small"},
          {"layers",
           {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 32, 32, 3}}}},
            {"conv", {{"parents", {"data"}}, {"type", "Convolution"}, {"filter", {3, 3, 3, 16}},
                      {"strides", {1, 1, 1, 1}}, {"padding", "SAME"}}},
            {"fc", {{"parents", {"conv"}}, {"type", "InnerProduct"}, {"num_outputs", 10}}}}}};
}

// A parsed response; the text must be strict JSON (valid UTF-8, nothing non-finite).
Json answer(const std::string& request_text) {
  const std::string text = paleo::handle_request_json(request_text);
  INFO("response: " << text.substr(0, 500));
  return Json::parse(text);
}

Json answer(const Json& request) { return answer(request.dump()); }

void check_error(const Json& response, const std::string& field, const std::string& words = "") {
  INFO("response: " << response.dump().substr(0, 1000));
  REQUIRE(response.value("ok", true) == false);
  CHECK(response["error"]["field"] == field);
  if (!words.empty()) CHECK(response["error"]["message"].get<std::string>().find(words) != std::string::npos);
}

std::string nested_arrays(std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

std::string nested_objects(std::size_t levels) {
  std::string text;
  for (std::size_t i = 0; i < levels; ++i) text += "{\"a\":";
  return text + "1" + std::string(levels, '}');
}

}  // namespace

TEST_CASE("nodes x devices_per_node is checked before it is formed (65536 x 65536 once wrapped to 0 devices)",
          "[limits][integers]") {
  const Json links = {{"intra", "nvlink2_v100"}, {"inter", "infiniband_edr"}};
  for (const auto& [nodes, per_node] : {std::pair<std::int64_t, std::int64_t>{65536, 65536}, {1000000, 1000000},
                                        {1000, 1001}}) {
    INFO(nodes << " x " << per_node);
    Json collective = {{"command", "collective"}, {"op", "allreduce"}, {"bytes", 1e9}, {"cluster", links},
                       {"nodes", nodes}, {"devices_per_node", per_node}};
    check_error(answer(collective), "nodes", "more than the limit of 1000000");
    Json inside = links;
    inside["nodes"] = nodes;
    inside["devices_per_node"] = per_node;
    check_error(answer({{"command", "collective"}, {"op", "allreduce"}, {"bytes", 1e9}, {"cluster", inside}}), "cluster");
    check_error(answer({{"command", "estimate"}, {"net", "llama3_8b"}, {"nodes", nodes}, {"devices_per_node", per_node}}),
                "nodes");
  }
  // The limit itself is allowed, and counted exactly.
  const Json at_limit = answer({{"command", "collective"}, {"op", "allreduce"}, {"bytes", 1e9}, {"cluster", links},
                                {"nodes", 1000}, {"devices_per_node", 1000}});
  REQUIRE(at_limit.value("ok", false));
  CHECK(at_limit["workers"] == 1000000);
  CHECK(at_limit["cluster"]["devices"] == 1000000);
}

TEST_CASE("a batch of 2^31 keeps every count exact", "[limits][integers]") {
  Json request = {{"command", "estimate"}, {"profile", "paleo2017"}, {"net", small_net()}, {"batch_size", 1}};
  const Json one = answer(request);
  REQUIRE(one.value("ok", false));
  request["batch_size"] = kTwoTo31;
  const Json big = answer(request);
  REQUIRE(big.value("ok", false));
  CHECK(big["net"]["batch_size"] == kTwoTo31);
  CHECK(big["layers"][0]["output"] == Json({kTwoTo31, 32, 32, 3}));
  // FLOPs are linear in the batch, and exact in a double below 2^53.
  CHECK(big["totals"]["forward_flops"].get<double>() ==
        static_cast<double>(kTwoTo31) * one["totals"]["forward_flops"].get<double>());
  // Weak scaling multiplies the batch by the workers: 2^31 x 10^6, exact.
  request["workers"] = {1, 1000000};
  request["scaling"] = {"weak"};
  const Json weak = answer(request);
  REQUIRE(weak.value("ok", false));
  CHECK(weak["simulation"]["scaling"][0]["rows"][1]["batch_size"] == kTwoTo31 * 1000000);
  // The search's global batch: 2^31 per device on two devices.
  const Json search = answer({{"command", "search"}, {"net", small_net()}, {"devices", 2}, {"devices_per_node", 2},
                              {"batch_size", kTwoTo31}});
  REQUIRE(search.value("ok", false));
  CHECK(search["global_batch"] == kTwoTo31 * 2);
  request = {{"command", "estimate"}, {"net", small_net()}, {"batch_size", kTwoTo31 + 1}};
  check_error(answer(request), "batch_size", "2147483648");
}

TEST_CASE("a tensor of 2^40 elements is counted exactly", "[limits][integers]") {
  // data [1, 2^20, 2^20, 1] -> pre (free) -> x (Dropout: prod(in) FLOPs, reads and writes 4 bytes each)
  const Json net = {
      {"name", "huge"},
      {"layers",
       {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {1, kTwoTo20, kTwoTo20, 1}}}},
        {"pre", {{"parents", {"data"}}, {"type", "Generic"}}},
        {"x", {{"parents", {"pre"}}, {"type", "Dropout"}}}}}};
  const double elements = 1099511627776.0;  // 2^40
  const Json layers = answer({{"command", "layers"}, {"profile", "paleo2017"}, {"net", net}});
  REQUIRE(layers.value("ok", false));
  const Json& x = layers["layers"][2];
  CHECK(x["output"] == Json({1, kTwoTo20, kTwoTo20, 1}));
  CHECK(x["forward"]["flops"].get<double>() == elements);
  CHECK(x["forward"]["bytes"].get<double>() == 8 * elements);
  const Json summary = answer({{"command", "summary"}, {"net", net}});
  REQUIRE(summary.value("ok", false));
  CHECK(summary["totals"]["activation_bytes"].get<double>() == 3 * 4 * elements);  // data, pre and x
}

TEST_CASE("products of sizes inside a spec are checked before they are formed", "[limits][integers]") {
  auto layer_net = [](const Json& tensor, const Json& extra) {
    Json net = {{"name", "n"}, {"layers", {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", tensor}}}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it) net["layers"][it.key()] = it.value();
    return Json{{"command", "layers"}, {"net", net}};
  };
  // UpSampling 2^20 rows by 2^44 + 1 once wrapped to 2^20 rows and answered ok.
  const Json up = layer_net({1, kTwoTo20, 1, 1},
                            {{"up", {{"parents", {"data"}}, {"type", "UpSampling2D"},
                                     {"ksize", {1, (std::int64_t{1} << 44) + 1, 1, 1}}}}});
  check_error(answer(up), "ksize");
  // Two tensors of 2^50 elements side by side: 2^51, over the element limit.
  const Json cat = layer_net({1, std::int64_t{1} << 25, std::int64_t{1} << 25, 1},
                             {{"a", {{"parents", {"data"}}, {"type", "Generic"}}},
                              {"b", {{"parents", {"data"}}, {"type", "Generic"}}},
                              {"cat", {{"parents", {"a", "b"}}, {"type", "Concatenate"}, {"dim", 3}}}});
  check_error(answer(cat), "parents");
  const Json softmax = layer_net({1024, 4}, {{"s", {{"parents", {"data"}}, {"type", "Softmax"},
                                                     {"num_classes", std::int64_t{1} << 52}}}});
  check_error(answer(softmax), "num_classes");
}

TEST_CASE("nesting deeper than the limit is refused before a JSON tree is built", "[limits][nesting]") {
  const std::string deep_message = "more than 64 levels deep";
  for (std::size_t levels : {65, 3000, 100000}) {
    INFO(levels << " levels");
    check_error(answer("{\"command\":\"layers\",\"net\":" + nested_arrays(levels) + "}"), "", deep_message);
    check_error(answer("{\"command\":\"layers\",\"net\":" + nested_objects(levels) + "}"), "", deep_message);
  }
  // 64 levels in all (the request object and 63 arrays) is within the limit: the usual error.
  check_error(answer("{\"command\":\"layers\",\"net\":" + nested_arrays(63) + "}"), "net", "preset name");
  // Brackets inside strings do not count.
  check_error(answer("{\"command\":\"layers\",\"net\":\"" + std::string(1000, '[') + "\"}"), "net", "unknown preset");
  // A tree built in memory is checked as well.
  Json deep = Json::array();
  for (int i = 0; i < 1000; ++i) deep = Json::array({deep});
  const Json response = paleo::handle_request({{"command", "layers"}, {"net", deep}});
  check_error(response, "", deep_message);
}

TEST_CASE("paleo api answers a request nested 1,000,000 levels deep with an error, not a crash", "[limits][nesting][cli]") {
  for (const std::string& text : {"{\"command\":\"layers\",\"net\":" + nested_arrays(1000000) + "}",
                                  "{\"command\":\"layers\",\"net\":" + nested_objects(1000000) + "}"}) {
    const auto file = paleo_test::write_temp_file("deep", ".json", text);
    const paleo_test::CliResult r = paleo_test::run_cli("api " + paleo_test::quoted(file.string()));
    std::filesystem::remove(file);
    CHECK(r.exit_code == 2);
    const Json response = Json::parse(r.out);
    check_error(response, "", "levels deep");
  }
  // A spec file nested too deep, as the net argument of a command.
  const auto spec = paleo_test::write_temp_file("deep_spec", ".json", nested_objects(100000));
  const paleo_test::CliResult r = paleo_test::run_cli("layers " + paleo_test::quoted(spec.string()));
  std::filesystem::remove(spec);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("levels deep") != std::string::npos);
}

TEST_CASE("invalid UTF-8 in a request gives a valid JSON error, never an exception", "[limits][utf8]") {
  // Raw bytes 0xFF 0xFE: the parser's message quotes them; the response must still print.
  std::string text;
  CHECK_NOTHROW(text = paleo::handle_request_json("{\"command\":\"layers\",\"net\":\"\xff\xfe\"}"));
  const Json parsed = Json::parse(text);
  check_error(parsed, "", "malformed JSON");
  CHECK(parsed["error"]["message"].get<std::string>().find("\xEF\xBF\xBD") != std::string::npos);  // U+FFFD
  // A tree built in memory (the CLI builds one from its arguments) with such a name: the error
  // quotes it, and the response still prints as strict JSON.
  const Json response = paleo::handle_request({{"command", "layers"}, {"net", "bad\xff\xfename"}});
  REQUIRE(response.value("ok", true) == false);
  CHECK_NOTHROW(response.dump());
  const Json device = paleo::handle_request({{"command", "layers"}, {"net", small_net()}, {"device", "\xc3"}});
  CHECK_NOTHROW(device.dump());
  // And through the CLI.
  const auto file = paleo_test::write_temp_file("utf8", ".json", "{\"command\":\"layers\",\"net\":\"\xff\xfe\"}");
  const paleo_test::CliResult r = paleo_test::run_cli("api " + paleo_test::quoted(file.string()));
  std::filesystem::remove(file);
  CHECK(r.exit_code == 2);
  CHECK(Json::parse(r.out)["ok"] == false);
}

TEST_CASE("a request over the size limit is refused unread", "[limits][size]") {
  const std::string padding(paleo::kMaxRequestBytes, ' ');
  check_error(answer("{\"command\":\"version\"}" + padding), "", "bytes; the limit is 8388608");
  CHECK(answer("{\"command\":\"version\"}" + std::string(1000, ' ')).value("ok", false));
}

TEST_CASE("names and keys are quoted back short: a 1 MB key does not make a 2 MB error", "[limits][echo]") {
  const std::string key(1 << 20, 'k');
  const std::string text = paleo::handle_request_json("{\"command\":\"version\",\"" + key + "\":1}");
  CHECK(text.size() < 4096);
  const Json response = Json::parse(text);
  REQUIRE(response["ok"] == false);
  const std::string field = response["error"]["field"];
  CHECK(field.size() <= paleo::kMaxEchoedNameBytes + 3);  // and an ellipsis
  CHECK(field.rfind("kkkk", 0) == 0);
  // A long preset name inside the message.
  const std::string long_name(100000, 'n');
  const std::string unknown = paleo::handle_request_json("{\"command\":\"layers\",\"net\":\"" + long_name + "\"}");
  CHECK(unknown.size() < 4096);
  check_error(Json::parse(unknown), "net", "unknown preset");
  // A long layer name: the layer field is cut, the message stays readable.
  Json net = small_net();
  net["layers"]["fc"]["parents"] = {std::string(10000, 'p')};
  const Json bad_parent = answer({{"command", "layers"}, {"net", net}});
  check_error(bad_parent, "parents", "unknown parent");
  CHECK(bad_parent.dump().size() < 4096);
}

TEST_CASE("lists of a request are capped before they are read", "[limits][lists]") {
  Json workers = Json::array();
  for (int i = 0; i < 100000; ++i) workers.push_back(1 + i % 64);
  Json request = {{"command", "simulate"}, {"net", small_net()}, {"workers", workers}};
  check_error(answer(request), "workers", "100000 entries; the limit is 256");
  workers = Json::array();
  for (std::size_t i = 0; i < paleo::kMaxWorkersListLength; ++i) workers.push_back(i + 1);
  request["workers"] = workers;
  request["scaling"] = {"weak"};
  const Json ok = answer(request);
  REQUIRE(ok.value("ok", false));
  CHECK(ok["scaling"][0]["rows"].size() == paleo::kMaxWorkersListLength);
  request["scaling"] = {"weak", "strong", "weak"};
  check_error(answer(request), "scaling", "the limit is 2");
  request["scaling"] = {"weak", "weak"};
  check_error(answer(request), "scaling", "twice");
}

namespace {

// data -> e0 (1x1 convolution) -> e1 -> ... -> e{n-1}; with `skip`, each e{i} also reads e{i-skip}.
Json chain_net(int layers, int skip = 0) {
  Json net = {{"name", "chain"}, {"layers", {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 16, 16, 8}}}}}}};
  net["layers"]["e0"] = {{"parents", {"data"}}, {"type", "Convolution"}, {"filter", {1, 1, 8, 8}},
                         {"strides", {1, 1, 1, 1}}, {"padding", "SAME"}};
  for (int i = 1; i < layers; ++i) {
    Json parents = {"e" + std::to_string(i - 1)};
    if (skip > 0 && i >= skip) parents.push_back("e" + std::to_string(i - skip));
    net["layers"]["e" + std::to_string(i)] = {{"parents", parents}, {"type", parents.size() > 1 ? "Elementwise" : "ReLU"}};
  }
  return net;
}

}  // namespace

TEST_CASE("a net of more than 10,000 layers is refused before it is built", "[limits][layers]") {
  check_error(answer({{"command", "layers"}, {"net", chain_net(10000)}}), "layers", "10001 layers");
  // Model-parallel blocks count expanded: 3 x 4096 layers.
  Json net = chain_net(2);
  net["layers"]["mp"] = {{"parents", {"e1"}}, {"type", "ModelParallel"}, {"splits", 4096},
                         {"layers", {{"a", {{"type", "ReLU"}}}, {"b", {{"type", "ReLU"}, {"parents", {"a"}}}},
                                     {"c", {{"type", "ReLU"}, {"parents", {"b"}}}}}}};
  check_error(answer({{"command", "layers"}, {"net", net}}), "layers", "12291 layers");
}

TEST_CASE("a net whose branches cross is refused instead of walked for minutes", "[limits][layers]") {
  // Each layer also reads the one three back: not series-parallel; the original's walk re-walks
  // its branches exponentially (50 layers took over a minute).
  check_error(answer({{"command", "layers"}, {"net", chain_net(60, 3)}}), "layers", "cross");
  // A long plain chain is fine.
  CHECK(answer({{"command", "summary"}, {"net", chain_net(2000)}}).value("ok", false));
}

TEST_CASE("the layer-wise search and the pipeline split are bounded before they start", "[limits][search]") {
  // 1024 devices on 400 convolutions of 32 x 256 x 256 x 64: every layer splits four ways, each
  // edge prices tens of thousands of configuration pairs on each of 1024 devices.
  Json deep = {{"name", "deep"}, {"layers", {{"data", {{"parents", Json::array()}, {"type", "Input"},
                                                         {"tensor", {32, 256, 256, 64}}}}}}};
  for (int i = 0; i < 400; ++i)
    deep["layers"]["c" + std::to_string(i)] = {{"parents", {i == 0 ? std::string("data") : "c" + std::to_string(i - 1)}},
                                              {"type", "Convolution"}, {"filter", {3, 3, 64, 64}},
                                              {"strides", {1, 1, 1, 1}}, {"padding", "SAME"}};
  check_error(answer({{"command", "search"}, {"net", deep}, {"devices", 1024}, {"devices_per_node", 8}}), "devices",
              "configuration pairs on 1024 devices");
  // Layers of distinct shapes share no transfer table: the check comes before any is built (it
  // came after them, minutes and hundreds of MB later, for 2000 such layers).
  Json distinct = {{"name", "distinct"}, {"layers", {{"data", {{"parents", Json::array()}, {"type", "Input"},
                                                                 {"tensor", {1, 32, 32, 1024}}}}}}};
  for (int i = 0; i < 2000; ++i)
    distinct["layers"]["c" + std::to_string(i)] = {
        {"parents", {i == 0 ? std::string("data") : "c" + std::to_string(i - 1)}}, {"type", "Convolution"},
        {"filter", {3, 3, 1024 + i, 1025 + i}}, {"strides", {1, 1, 1, 1}}, {"padding", "SAME"}};
  check_error(answer({{"command", "search"}, {"net", distinct}, {"devices", 1024}, {"devices_per_node", 8}}),
              "devices", "configuration pairs on 1024 devices");
  // VGG-16 on 1024 devices (433,100 pairs x 1024) runs: it took about a minute before the
  // transfer tables, a fraction of a second now.
  CHECK(answer({{"command", "search"}, {"net", "vgg16"}, {"devices", 1024}, {"devices_per_node", 8}}).value("ok", false));
  check_error(answer({{"command", "search"}, {"net", "alex_v2"}, {"devices", 2048}}), "devices", "up to 1024");
  // Inception-v3 on 1024 devices, 4 a node (1,984,253 pairs x 1024, within the limit), moving its
  // transfers in turn as OptCNN's runtime does: each device also looks at its node's 4 parts.
  check_error(answer({{"command", "search"}, {"net", "inception_v3"}, {"devices", 1024}, {"devices_per_node", 4},
                      {"software_era", "legion_cudnn7_2018"}}),
              "devices", "looking at the 4 parts of its node");
  CHECK(answer({{"command", "search"}, {"net", "alex_v2"}, {"devices", 16}, {"devices_per_node", 4}}).value("ok", false));
  // The automatic pipeline split of 2,000 layers into 1,000 stages: 4e9 steps.
  const Json pipeline = answer({{"command", "estimate"}, {"net", chain_net(1999)}, {"cluster", "dgx1_v100_edr"},
                                {"nodes", 125}, {"pipeline", {{"stages", 1000}, {"micro_batches", 1000}}}});
  check_error(pipeline, "pipeline.stages", "give pipeline.split");
}

TEST_CASE("a convolution algorithm a CPU device cannot use is a warning, not a silent change", "[warnings]") {
  Json request = {{"command", "layers"}, {"net", small_net()}, {"device", "CPU_I7"}, {"conv_algorithm", "winograd"}};
  const Json winograd = answer(request);
  REQUIRE(winograd.value("ok", false));
  REQUIRE(winograd["warnings"].size() == 1);
  CHECK(winograd["warnings"][0].get<std::string>().find("conv_algorithm 'winograd'") != std::string::npos);
  request["conv_algorithm"] = "gemm";
  const Json gemm = answer(request);
  CHECK(gemm["warnings"] == Json::array());
  CHECK(winograd["totals"] == gemm["totals"]);  // priced as GEMM, as the warning says
  // A GPU takes the algorithm, silently.
  request["device"] = "TITAN_X";
  request["conv_algorithm"] = "winograd";
  CHECK(answer(request)["warnings"] == Json::array());
  // The CLI says it on standard error; standard output keeps its format.
  const paleo_test::CliResult r = paleo_test::run_cli("layers alex_v2 --device_name CPU_I7 --conv_algorithm fft --format csv");
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("paleo: warning: conv_algorithm 'fft'") != std::string::npos);
  CHECK(r.out.find("warning") == std::string::npos);
}

TEST_CASE("a node-scaling point that cannot be priced is a warning, not silently left out", "[warnings]") {
  // 3 nodes of 8 devices, 3 pipeline stages: 1 and 2 nodes cannot hold 3 stages evenly.
  const Json r = answer({{"command", "estimate"}, {"net", "alex_v2"}, {"cluster", "dgx1_v100_edr"}, {"nodes", 3},
                         {"pipeline", {{"stages", 3}, {"micro_batches", 4}}}});
  REQUIRE(r.value("ok", false));
  REQUIRE(r["cluster"]["node_scaling"].size() == 1);
  CHECK(r["cluster"]["node_scaling"][0]["nodes"] == 3);
  REQUIRE(r["warnings"].size() == 2);
  CHECK(r["warnings"][0].get<std::string>().find("no point for 1 node: ") != std::string::npos);
  CHECK(r["warnings"][1].get<std::string>().find("no point for 2 nodes: ") != std::string::npos);
  CHECK(r["warnings"][1].get<std::string>().find("3 stages do not divide 2 x 8 devices") != std::string::npos);
}

TEST_CASE("the transformer planner counts its layouts before pricing any", "[limits][search]") {
  // 720720 devices in one node and a model of 5040 heads: divisors make millions of layouts (it
  // took 31 s); the error comes first.
  const Json plan = answer({{"command", "plan"},
                            {"net", {{"transformer", {{"layers", 720}, {"hidden", 5040}, {"heads", 5040}, {"vocab", 32000}}}}},
                            {"devices", 720720}, {"devices_per_node", 720720}, {"global_batch", 1441440}, {"seq_len", 128}});
  check_error(plan, "devices", "more than 20000 layouts");
  const Json usual = answer({{"command", "plan"}, {"net", "gpt3_175b"}, {"device", "A100_80GB_SXM"}, {"devices", 1024},
                             {"devices_per_node", 8}, {"global_batch", 1536}, {"seq_len", 2048}});
  REQUIRE(usual.value("ok", false));
  CHECK(usual["evaluated"].get<double>() <= paleo::kMaxPlanLayouts);
}

TEST_CASE("a calibration's runs are counted before the fit starts", "[limits][calibration]") {
  // 200 distinct requests x 100,000 evaluations (20 of them took 37 s).
  Json measurements = Json::array();
  for (int i = 0; i < 200; ++i)
    measurements.push_back({{"request", {{"net", "alex_v2"}, {"batch_size", 8 + i}}}, {"measured_ms", 100 + i}});
  Json request = {{"command", "calibrate"}, {"request", {{"command", "estimate"}, {"device", "V100_SXM2_16GB"}}},
                  {"measurements", measurements}, {"max_evaluations", 100000}};
  check_error(answer(request), "max_evaluations", "200 distinct requests x 100000 evaluations");
  Json many = Json::array();
  for (std::size_t i = 0; i <= paleo::kMaxMeasurements; ++i) many.push_back({{"measured_ms", 1}});
  request["measurements"] = many;
  check_error(answer(request), "measurements", "10001 measurements");
}
