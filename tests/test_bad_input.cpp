// Bad requests and bad network specs: every one gets {"ok": false, "error": {message, layer,
// field}} naming the culprit, never a crash, an exception or a non-finite number; the CLI exits
// with status 2 and prints the message on standard error.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "core/api.h"

namespace {

using Json = nlohmann::ordered_json;

const std::string kAny = "<any>";

Json conv_layer(const std::string& parent, std::vector<long long> filter, long long stride) {
  return {{"parents", {parent}}, {"type", "Convolution"}, {"filter", filter},
          {"strides", {1, stride, stride, 1}}, {"padding", "SAME"}};
}

// data [8,32,32,3] -> conv1 3x3x3x16 SAME -> pool1 2x2/2 VALID -> fc 10 -> softmax
Json good_spec() {
  Json spec = {{"name", "small"}, {"layers", Json::object()}};
  Json& l = spec["layers"];
  l["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 32, 32, 3}}};
  l["conv1"] = conv_layer("data", {3, 3, 3, 16}, 1);
  l["pool1"] = {{"parents", {"conv1"}}, {"type", "Pooling"}, {"ksize", {1, 2, 2, 1}}, {"strides", {1, 2, 2, 1}},
                {"padding", "VALID"}};
  l["fc"] = {{"parents", {"pool1"}}, {"type", "InnerProduct"}, {"num_outputs", 10}};
  l["softmax"] = {{"parents", {"fc"}}, {"type", "Softmax"}};
  return spec;
}

Json with_spec(const Json& spec) { return {{"command", "layers"}, {"net", spec}}; }

Json spec_with(const std::function<void(Json& layers)>& change) {
  Json spec = good_spec();
  change(spec["layers"]);
  return spec;
}

Json request_with(const std::string& key, const Json& value) {
  Json r = {{"command", "estimate"}, {"net", good_spec()}, {"workers", {1, 2}}};
  r[key] = value;
  return r;
}

struct BadCase {
  std::string what;
  Json request;
  std::string layer;  // expected error.layer; kAny: not checked (only a non-empty message)
  std::string field;  // expected error.field (alternatives separated by '|'); kAny: not checked
};

bool one_of(const Json& value, const std::string& alternatives) {
  if (!value.is_string()) return false;
  const std::string v = value.get<std::string>();
  std::size_t start = 0;
  while (true) {
    const std::size_t bar = alternatives.find('|', start);
    if (alternatives.substr(start, bar == std::string::npos ? std::string::npos : bar - start) == v) return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

void check_error(const Json& response, const std::string& layer, const std::string& field) {
  INFO("response: " << response.dump());
  REQUIRE(response.is_object());
  REQUIRE(response.contains("ok"));
  CHECK(response["ok"] == false);
  REQUIRE(response.contains("error"));
  const Json& e = response["error"];
  REQUIRE(e.is_object());
  REQUIRE(e.contains("message"));
  REQUIRE(e["message"].is_string());
  CHECK_FALSE(e["message"].get<std::string>().empty());
  REQUIRE(e.contains("layer"));
  REQUIRE(e.contains("field"));
  CHECK(e["layer"].is_string());
  CHECK(e["field"].is_string());
  if (layer != kAny) CHECK(e["layer"] == layer);
  if (field != kAny) {
    INFO("expected field: " << field);
    CHECK(one_of(e["field"], field));
  }
}

std::vector<BadCase> bad_requests() {
  return {
      {"unknown command", {{"command", "estimat"}, {"net", "vgg16"}}, "", "command"},
      {"no command", {{"net", "vgg16"}}, "", "command"},
      {"unknown request field", {{"command", "layers"}, {"net", "vgg16"}, {"batchsize", 3}}, "", "batchsize"},
      {"no net for layers", {{"command", "layers"}}, "", "net"},
      {"unknown preset net", {{"command", "layers"}, {"net", "vgg17"}}, "", "net"},
      {"net of the wrong type", {{"command", "layers"}, {"net", 42}}, "", "net"},
      {"unknown preset device", request_with("device", "TITAN_Z"), "", "device"},
      {"device object without peak",
       request_with("device", {{"name", "d"}, {"clock_mhz", 1000}, {"mem_bandwidth_gb_per_s", 100}}), "",
       "device|device.peak_gflops|peak_gflops"},
      {"unknown preset network", request_with("network", "ethernet3"), "", "network"},
      {"unknown preset interconnect", request_with("interconnect", "ethernet3"), "", "interconnect"},
      {"both names of the interconnect", [] { Json r = request_with("interconnect", "ethernet"); r["network"] = "ethernet"; return r; }(), "", "network"},
      {"unknown software", request_with("software", "pytorch"), "", "software"},
      {"unknown profile", request_with("profile", "paleo1999"), "", "profile"},
      {"unknown conv_algorithm", request_with("conv_algorithm", "fastest"), "", "conv_algorithm"},
      {"unknown parallel", request_with("parallel", "pipeline"), "", "parallel"},
      {"unknown scaling", request_with("scaling", {"medium"}), "", "scaling"},
      {"batch_size 0", request_with("batch_size", 0), "", "batch_size"},
      {"negative batch_size", request_with("batch_size", -4), "", "batch_size"},
      {"fractional batch_size", request_with("batch_size", 2.5), "", "batch_size"},
      {"text batch_size", request_with("batch_size", "big"), "", "batch_size"},
      {"empty workers", request_with("workers", Json::array()), "", "workers"},
      {"worker 0", request_with("workers", {1, 0, 4}), "", "workers"},
      {"negative worker", request_with("workers", {-2}), "", "workers"},
      {"ppp_comp 0", request_with("ppp_comp", 0), "", "ppp_comp"},
      {"negative ppp_comp", request_with("ppp_comp", -0.5), "", "ppp_comp"},
      {"ppp_comm 0", request_with("ppp_comm", 0), "", "ppp_comm"},
      {"text ppp_comp", request_with("ppp_comp", "fast"), "", "ppp_comp"},
      {"hybrid_workers 0", request_with("hybrid_workers", 0), "", "hybrid_workers"},
      {"use_pipeline not a bool", request_with("use_pipeline", "yes"), "", "use_pipeline"},
      {"training_scheme not an object", request_with("training_scheme", 3), "", "training_scheme"},
      {"training_scheme without a cluster", request_with("training_scheme", Json::object()), "", "training_scheme"},
      {"unknown training_scheme compression", request_with("training_scheme", {{"compression", "zip"}}), "",
       "training_scheme.compression"},
      {"scheme_comparison not a bool", request_with("scheme_comparison", "yes"), "", "scheme_comparison"},
      {"work_depth not a bool", request_with("work_depth", 1), "", "work_depth"},
  };
}

std::vector<BadCase> bad_specs() {
  auto spec_case = [](const std::string& what, const std::function<void(Json&)>& change, const std::string& layer,
                      const std::string& field) { return BadCase{what, with_spec(spec_with(change)), layer, field}; };
  return {
      spec_case("unknown layer type", [](Json& l) { l["conv1"]["type"] = "Convolutionn"; }, "conv1", "type"),
      spec_case("missing parent", [](Json& l) { l["pool1"]["parents"] = {"conv9"}; }, "pool1", "parents"),
      spec_case("parents not a list", [](Json& l) { l["pool1"]["parents"] = "conv1"; }, "pool1", "parents"),
      spec_case("a layer is its own parent", [](Json& l) { l["pool1"]["parents"] = {"pool1"}; }, "pool1", "parents"),
      spec_case("the same parent twice", [](Json& l) { l["pool1"]["parents"] = {"conv1", "conv1"}; }, "pool1", "parents"),
      spec_case("no layer named data", [](Json& l) {
        Json input = l["data"];
        Json rest = Json::object();
        rest["input"] = input;
        for (auto it = l.begin(); it != l.end(); ++it)
          if (it.key() != "data") rest[it.key()] = it.value();
        rest["conv1"]["parents"] = {"input"};
        l = rest;
      }, kAny, kAny),
      spec_case("no Input layer", [](Json& l) { l["data"] = {{"parents", Json::array()}, {"type", "Generic"}}; }, kAny, kAny),
      spec_case("channel mismatch", [](Json& l) { l["conv1"]["filter"] = {3, 3, 4, 16}; }, "conv1", "filter"),
      spec_case("zero filter size", [](Json& l) { l["conv1"]["filter"] = {0, 3, 3, 16}; }, "conv1", "filter"),
      spec_case("negative filter size", [](Json& l) { l["conv1"]["filter"] = {3, -3, 3, 16}; }, "conv1", "filter"),
      spec_case("zero output channels", [](Json& l) { l["conv1"]["filter"] = {3, 3, 3, 0}; }, "conv1", "filter"),
      spec_case("filter of three numbers", [](Json& l) { l["conv1"]["filter"] = {3, 3, 3}; }, "conv1", "filter"),
      spec_case("zero stride", [](Json& l) { l["conv1"]["strides"] = {1, 0, 1, 1}; }, "conv1", "strides"),
      spec_case("negative stride", [](Json& l) { l["conv1"]["strides"] = {1, 1, -2, 1}; }, "conv1", "strides"),
      spec_case("zero pooling window", [](Json& l) { l["pool1"]["ksize"] = {1, 0, 2, 1}; }, "pool1", "ksize"),
      spec_case("negative pooling window", [](Json& l) { l["pool1"]["ksize"] = {1, 2, -2, 1}; }, "pool1", "ksize"),
      spec_case("zero tensor size", [](Json& l) { l["data"]["tensor"] = {8, 0, 32, 3}; }, "data", "tensor"),
      spec_case("negative tensor size", [](Json& l) { l["data"]["tensor"] = {8, 32, -32, 3}; }, "data", "tensor"),
      spec_case("zero batch in the tensor", [](Json& l) { l["data"]["tensor"] = {0, 32, 32, 3}; }, "data", "tensor"),
      spec_case("zero num_outputs", [](Json& l) { l["fc"]["num_outputs"] = 0; }, "fc", "num_outputs"),
      spec_case("text filter", [](Json& l) { l["conv1"]["filter"] = "big"; }, "conv1", "filter"),
      spec_case("text in a filter", [](Json& l) { l["conv1"]["filter"] = {3, "3", 3, 16}; }, "conv1", "filter"),
      spec_case("text tensor", [](Json& l) { l["data"]["tensor"] = "image"; }, "data", "tensor"),
      spec_case("unknown padding", [](Json& l) { l["conv1"]["padding"] = "FULL"; }, "conv1", "padding"),
      spec_case("kernel larger than a VALID input", [](Json& l) {
        l["conv1"]["filter"] = {40, 40, 3, 16};
        l["conv1"]["padding"] = "VALID";
      }, "conv1", "filter"),
      spec_case("pooling window larger than a VALID input", [](Json& l) { l["pool1"]["ksize"] = {1, 33, 33, 1}; },
                "pool1", "ksize"),
      spec_case("absurd tensor (1e12 x 1e12 x 1e12 x 3)", [](Json& l) {
        l["data"]["tensor"] = {1000000000000LL, 1000000000000LL, 1000000000000LL, 3};
      }, "data", "tensor"),
      spec_case("absurd filter (100000^4) on an input that fits", [](Json& l) {
        l["data"]["tensor"] = {1, 100000, 100000, 100000};
        l["conv1"]["filter"] = {100000, 100000, 100000, 100000};
        l["conv1"]["padding"] = "VALID";
      }, "conv1", kAny),
      spec_case("absurd filter (100000^4) on a small input",
                [](Json& l) { l["conv1"]["filter"] = {100000, 100000, 100000, 100000}; }, "conv1", kAny),
  };
}

}  // namespace

TEST_CASE("malformed JSON text is an error with a message", "[bad_input]") {
  for (const std::string text : {"{\"command\":", "", "not json", "{\"command\": \"layers\",}", "[1, 2"}) {
    INFO("request text: " << text);
    const std::string out = paleo::handle_request_json(text);
    Json response;
    REQUIRE_NOTHROW(response = Json::parse(out));
    check_error(response, "", "");
  }
  SECTION("a request that is not an object") {
    check_error(paleo::handle_request(Json::array({1, 2})), "", kAny);
    check_error(paleo::handle_request(Json("layers")), "", kAny);
  }
}

TEST_CASE("bad request fields are errors naming the field", "[bad_input]") {
  for (const BadCase& c : bad_requests()) {
    INFO(c.what << ": " << c.request.dump());
    Json response;
    REQUIRE_NOTHROW(response = paleo::handle_request(c.request));
    check_error(response, c.layer, c.field);
  }
}

TEST_CASE("bad network specs are errors naming the layer and the field", "[bad_input]") {
  for (const BadCase& c : bad_specs()) {
    INFO(c.what << ": " << c.request.dump());
    Json response;
    REQUIRE_NOTHROW(response = paleo::handle_request(c.request));
    check_error(response, c.layer, c.field);
  }
}

TEST_CASE("graph errors: cycles, joins of mismatched shapes", "[bad_input]") {
  SECTION("a cycle a -> b -> a") {
    Json spec = {{"name", "cycle"}, {"layers", Json::object()}};
    spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {2, 8, 8, 3}}};
    spec["layers"]["a"] = {{"parents", {"b"}}, {"type", "Dropout"}};
    spec["layers"]["b"] = {{"parents", {"a"}}, {"type", "Dropout"}};
    spec["layers"]["c"] = {{"parents", {"data"}}, {"type", "Dropout"}};
    const Json response = paleo::handle_request(with_spec(spec));
    check_error(response, kAny, "parents");
    const std::string layer = response["error"].value("layer", "");
    CHECK((layer == "a" || layer == "b"));
  }
  SECTION("a cycle through a join") {
    Json spec = {{"name", "cycle"}, {"layers", Json::object()}};
    spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {2, 8, 8, 3}}};
    spec["layers"]["a"] = {{"parents", {"data", "b"}}, {"type", "Elementwise"}};
    spec["layers"]["b"] = {{"parents", {"a"}}, {"type", "Dropout"}};
    const Json response = paleo::handle_request(with_spec(spec));
    check_error(response, kAny, "parents");
    const std::string layer = response["error"].value("layer", "");
    CHECK((layer == "a" || layer == "b"));
  }
  SECTION("Concatenate of inputs that differ outside the concatenated dimension") {
    Json spec = good_spec();
    Json& l = spec["layers"];
    l["side"] = conv_layer("data", {3, 3, 3, 8}, 2);
    l["cat"] = {{"parents", {"conv1", "side"}}, {"type", "Concatenate"}, {"dim", 3}};  // 32x32 vs 16x16
    l["pool1"]["parents"] = {"cat"};
    check_error(paleo::handle_request(with_spec(spec)), "cat", kAny);
  }
  SECTION("Elementwise of inputs of different shapes") {
    Json spec = good_spec();
    Json& l = spec["layers"];
    l["side"] = conv_layer("data", {3, 3, 3, 8}, 1);
    l["sum"] = {{"parents", {"conv1", "side"}}, {"type", "Elementwise"}};  // 16 vs 8 channels
    l["pool1"]["parents"] = {"sum"};
    check_error(paleo::handle_request(with_spec(spec)), "sum", kAny);
  }
}

TEST_CASE("the CLI exits with status 2 and prints the error on standard error", "[bad_input][cli]") {
  struct CliCase {
    std::string what;
    Json spec;
  };
  const std::vector<CliCase> cases = {
      {"unknown layer type", spec_with([](Json& l) { l["conv1"]["type"] = "Convolutionn"; })},
      {"missing parent", spec_with([](Json& l) { l["pool1"]["parents"] = {"conv9"}; })},
      {"channel mismatch", spec_with([](Json& l) { l["conv1"]["filter"] = {3, 3, 4, 16}; })},
  };
  for (const CliCase& c : cases) {
    INFO(c.what);
    const Json api = paleo::handle_request(with_spec(c.spec));
    REQUIRE(api["ok"] == false);
    const std::string message = api["error"]["message"].get<std::string>();
    const auto file = paleo_test::write_temp_file("bad_spec", ".json", c.spec.dump(2));
    for (const std::string command : {"layers", "simulate --use_only_gemm", "summary"}) {
      const paleo_test::CliResult r = paleo_test::run_cli(command + " " + paleo_test::quoted(file.string()));
      INFO("paleo " << command << " FILE; stdout: " << r.out << "; stderr: " << r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find(message) != std::string::npos);
    }
    std::filesystem::remove(file);
  }
  SECTION("a malformed spec file") {
    const auto file = paleo_test::write_temp_file("malformed", ".json", "{\"name\": \"x\", \"layers\": {");
    const paleo_test::CliResult r = paleo_test::run_cli("layers " + paleo_test::quoted(file.string()));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK_FALSE(r.err.empty());
    std::filesystem::remove(file);
  }
  SECTION("a bad request through `paleo api`") {
    const auto file = paleo_test::write_temp_file("request", ".json", "{\"command\": \"layers\", \"net\": \"vgg17\"}");
    const paleo_test::CliResult r = paleo_test::run_cli("api " + paleo_test::quoted(file.string()));
    INFO("stdout: " << r.out << "; stderr: " << r.err);
    CHECK(r.exit_code == 2);
    const Json response = Json::parse(r.out, nullptr, false);
    CHECK(response.value("ok", true) == false);
    std::filesystem::remove(file);
  }
  SECTION("bad option values") {
    for (const std::string args : {"simulate vgg16 --batch_size=0", "simulate vgg16 --num_workers=1,0",
                                   "layers vgg17", "simulate vgg16 --ppp_comp=-1", "layers vgg16 --device_name=TITAN_Z"}) {
      const paleo_test::CliResult r = paleo_test::run_cli(args);
      INFO("paleo " << args << "; stderr: " << r.err);
      CHECK(r.exit_code == 2);
      CHECK_FALSE(r.err.empty());
    }
  }
}

namespace {

bool all_finite(const Json& j, std::string& where, const std::string& path = "") {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) {
    where = path;
    return false;
  }
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!all_finite(it.value(), where, path + "." + it.key())) return false;
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (!all_finite(j[i], where, path + "[" + std::to_string(i) + "]")) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("every preset net on every device: estimates are finite", "[bad_input][finite]") {
  const Json presets = paleo::handle_request(Json{{"command", "presets"}});
  REQUIRE(presets.value("ok", false));
  std::vector<std::string> nets;
  for (const Json& n : presets["nets"]) nets.push_back(n["key"].get<std::string>());
  for (const char* expected : {"alex_v2", "alex_v2_1gpu", "alex_v2_2gpu", "alex_v2_4gpu", "alex_v2_8gpu", "vgg16", "nin",
                               "overfeat", "inception_v3", "dcgan_generator_test"}) {
    INFO(expected);
    CHECK(std::find(nets.begin(), nets.end(), std::string(expected)) != nets.end());
  }
  const std::vector<std::string> devices = {"TITAN_X", "K20",           "K20X",          "K40",
                                            "K80",     "GEFORCE_780_TI", "GEFORCE_750_M", "CPU_I7"};
  long checked = 0;
  for (const std::string& net : nets) {
    for (const std::string& device : devices) {
      for (const char* profile : {"paleo2017", "paleo2026"}) {
        const Json request = {{"command", "estimate"}, {"profile", profile}, {"net", net}, {"device", device},
                              {"workers", {1, 2, 4, 8, 16, 32, 64, 128}}};
        INFO(request.dump());
        const Json response = paleo::handle_request(request);
        INFO("response: " << response.dump().substr(0, 1000));
        CHECK(response.value("ok", false));
        std::string where;
        CHECK(all_finite(response, where));
        INFO("non-finite at " << where);
        CHECK(where.empty());
        // The same through the text interface: the text must parse (no NaN / Infinity tokens).
        const Json text = Json::parse(paleo::handle_request_json(request.dump()), nullptr, false);
        CHECK_FALSE(text.is_discarded());
        ++checked;
      }
    }
  }
  CHECK(checked == static_cast<long>(nets.size() * devices.size() * 2));
}
