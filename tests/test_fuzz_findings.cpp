// The fuzz targets' findings (docs/testing.md): every input kept in tests/data/fuzz/<target>/ is
// replayed through the same checks the target runs (fuzz/fuzz_checks.h), natively and, in the
// sanitizer job, under ASan + UBSan. Each finding also has a test of its own below, naming the
// field the error must name.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/api.h"
#include "fuzz/fuzz_checks.h"

namespace {

using Json = nlohmann::ordered_json;

std::vector<std::filesystem::path> saved_inputs(const std::string& target) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PALEO_TEST_DATA_DIR) + "/fuzz/" + target))
    if (entry.is_regular_file()) files.push_back(entry.path());
  return files;
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("fuzz checks: a response with an escaped exception or a non-finite number is a problem") {
  using paleo_fuzz::response_problem;
  CHECK(response_problem({{"ok", true}, {"x", 1.5}}).empty());
  CHECK(response_problem({{"ok", false}, {"error", {{"message", "layer 'a': field 'b': bad"}}}}).empty());
  CHECK_FALSE(response_problem({{"ok", true}, {"x", {1.0, std::numeric_limits<double>::infinity()}}}).empty());
  CHECK_FALSE(response_problem({{"ok", true}, {"x", std::numeric_limits<double>::quiet_NaN()}}).empty());
  CHECK_FALSE(response_problem({{"ok", false}, {"error", {{"message", "internal error: type_error"}}}}).empty());
  CHECK_FALSE(response_problem({{"ok", false}, {"error", {{"message", "the inputs lead to a non-finite result (x)"}}}}).empty());
  CHECK_FALSE(response_problem(Json::array()).empty());
  CHECK_FALSE(paleo_fuzz::response_text_problem("{\"ok\": tru").empty());
}

TEST_CASE("fuzz findings: every saved request gets a clean response") {
  const auto files = saved_inputs("api");
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    INFO(file.filename().string());
    CHECK(paleo_fuzz::api_input_problem(read_bytes(file)) == "");
  }
}

TEST_CASE("fuzz findings: every saved net spec is read or refused cleanly") {
  const auto files = saved_inputs("net_spec");
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    INFO(file.filename().string());
    CHECK(paleo_fuzz::net_spec_input_problem(read_bytes(file)) == "");
  }
}

// fuzz_api: a number too large for a double ("filter": [5, 51e30892]) made the JSON parser throw
// out_of_range, which escaped handle_request_json (documented never to throw): `paleo api` printed
// no JSON response, the WebAssembly binding answered "internal error". Now malformed JSON.
TEST_CASE("fuzz finding: a number beyond the double range is malformed JSON, not an escaped exception") {
  for (const std::string text : {"{\"command\": \"version\", \"x\": 1e400}", "{\"command\": \"layers\", \"batch_size\": -51e30892}",
                                 "[1e999]"}) {
    INFO(text);
    const Json response = Json::parse(paleo::handle_request_json(text));
    CHECK(response["ok"] == false);
    const std::string message = response["error"]["message"].get<std::string>();
    CHECK(message.rfind("malformed JSON", 0) == 0);
    CHECK(message.find("number overflow") != std::string::npos);
  }
}

// fuzz_api: an ONNX node whose "op" is not a string (["/Flatten_output_0"]) made the search for
// GELU patterns, which runs before the nodes are checked, read it as a string: an escaped
// nlohmann type_error, "internal error". Node names, ops and graph inputs of the wrong kind are
// now errors naming the field.
TEST_CASE("fuzz finding: ONNX nodes and inputs of the wrong kind are errors naming the field") {
  for (const char* file : {"onnx-op-not-a-string.json", "onnx-name-not-a-string.json", "onnx-input-and-node-not-objects.json"}) {
    INFO(file);
    const Json response = Json::parse(paleo::handle_request_json(read_bytes(std::string(PALEO_TEST_DATA_DIR) + "/fuzz/api/" + file)));
    if (std::string(file) == "onnx-name-not-a-string.json") {
      CHECK(response["ok"] == true);  // the node takes its op's name
      continue;
    }
    REQUIRE(response["ok"] == false);
    CHECK(response["error"]["field"].get<std::string>().rfind("net.onnx_graph", 0) == 0);
  }
}

// fuzz_api, through an ONNX graph with dangling branches: where branches cross (a -> b -> c ->
// join <- a, and b -> dangling), the original's walk released `join` inside b's branch and then
// walked it again from a's: the layer was listed twice, a layer read its parent's shape before that
// was built (a heap read past the layers built so far; "internal error: bad_array_new_length" on
// this one). Such nets are now ordered topologically, in spec order where free.
TEST_CASE("fuzz finding: crossing branches list every layer once, after its parents") {
  const Json spec = Json::parse(R"({"name": "crossing", "layers": {
    "data": {"parents": [], "type": "Input", "tensor": [1, 8]},
    "a": {"parents": ["data"], "type": "ReLU"}, "b": {"parents": ["a"], "type": "ReLU"},
    "c": {"parents": ["b"], "type": "ReLU"}, "join": {"parents": ["c", "a"], "type": "Elementwise"},
    "dangling": {"parents": ["b"], "type": "ReLU"}, "after": {"parents": ["join"], "type": "InnerProduct", "num_outputs": 3}}})");
  const Json r = paleo::handle_request(Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2017"}});
  INFO(r.dump());
  REQUIRE(r["ok"] == true);
  std::vector<std::string> order;
  for (const Json& l : r["layers"]) order.push_back(l["name"].get<std::string>());
  CHECK(order == std::vector<std::string>{"data", "a", "b", "c", "join", "dangling", "after"});
  for (const Json& l : r["layers"])
    for (const Json& in : l["inputs"]) CHECK(in == Json({1, 8}));
  CHECK(r["totals"]["forward_flops"] == 2.0 * 8 * 3);
}

// fuzz_api: a user's device, link, interconnect or cluster object whose "key" (its name in
// answers) was not a string escaped as nlohmann's type_error ("internal error: type must be
// string, but is number").
TEST_CASE("fuzz finding: an object's key that is not a string is an error naming the object") {
  const Json device = {{"key", 5}, {"peak_gflops", 1000}, {"mem_bandwidth_gb_per_s", 100}, {"memory_bytes", 1e9}};
  const Json link = {{"key", Json::array({1})}, {"bandwidth_gb_per_s", 10}};
  const std::vector<std::pair<Json, std::string>> requests = {
      {{{"command", "estimate"}, {"net", "alexnet"}, {"device", device}}, "device"},
      {{{"command", "collective"}, {"op", "all_reduce"}, {"workers", 4}, {"bytes", 1000}, {"link", link}}, "link"},
      {{{"command", "estimate"},
        {"net", "alexnet"},
        {"device", "K80"},
        {"interconnect", {{"key", false}, {"bandwidth_gbit_per_s", 10}}}},
       "interconnect"}};
  for (const auto& [request, field] : requests) {
    const Json r = paleo::handle_request(request);
    INFO(r.dump());
    CHECK(r["ok"] == false);
    CHECK(r["error"]["field"] == field);
    CHECK(r["error"]["message"].get<std::string>().find("'key' must be a string") != std::string::npos);
  }
}
