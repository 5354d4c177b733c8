// The command registry (core/api/command_registry.h) and its `schema` answer: every command with
// its fields, each enumeration's values as the core's own tables and readers have them, and the
// request checks (unknown fields, unused fields) unchanged by reading them from the registry.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/api.h"
#include "core/api/command_registry.h"
#include "core/api/request.h"
#include "core/api/serving_request.h"
#include "core/api/transformer_request.h"
#include "core/calibration/robust_loss.h"
#include "core/cluster/collectives.h"
#include "core/cost/conv_algorithms.h"
#include "core/spec/model_profile.h"
#include "core/spec/presets.h"

namespace {

using Json = nlohmann::ordered_json;
using Names = std::vector<std::string>;

Json schema() { return paleo::handle_request({{"command", "schema"}}); }

Names strings_of(const Json& list) {
  Names names;
  for (const Json& v : list) names.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return names;
}

Names keys_of(const Json& list) {
  Names names;
  for (const Json& entry : list) names.push_back(entry.at("key").get<std::string>());
  return names;
}

bool has(const Names& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A CNN of three layers, priced in no time.
Json small_net() {
  Json spec = {{"name", "small"}, {"layers", Json::object()}};
  spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {2, 8, 8, 3}}};
  spec["layers"]["fc"] = {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 4}};
  return spec;
}

// The field the request's error names, or "" when it succeeds.
std::string failing_field(const Json& request) {
  const Json out = paleo::handle_request(request);
  return out.at("ok").get<bool>() ? "" : out.at("error").at("field").get<std::string>();
}

}  // namespace

TEST_CASE("schema lists every command with the fields it takes", "[schema]") {
  const Json s = schema();
  REQUIRE(s.at("ok") == true);
  Names listed;
  for (const Json& c : s.at("commands")) listed.push_back(c.at("name"));
  for (const char* name : {"estimate", "layers", "summary", "simulate", "search", "plan", "inference", "collective",
                           "validate", "calibrate", "presets", "schema"})
    CHECK(has(listed, name));
  CHECK(s.at("fields").size() >= 50);
  // Every field a command lists is described, and names that command among its commands.
  for (const Json& c : s.at("commands")) {
    const Names fields = strings_of(c.at("fields"));
    CHECK(has(fields, "command"));
    for (const std::string& f : fields) {
      INFO(c.at("name").get<std::string>() + "." + f);
      REQUIRE(s.at("fields").contains(f));
      if (f != "command") CHECK(has(strings_of(s["fields"][f].at("commands")), c.at("name")));
    }
  }
  // A few fields each command is documented to take (docs/api.md).
  auto fields_of = [&s](const std::string& command) {
    for (const Json& c : s.at("commands"))
      if (c.at("name") == command) return strings_of(c.at("fields"));
    return Names();
  };
  CHECK(has(fields_of("estimate"), "dataset_samples"));
  CHECK(has(fields_of("estimate"), "training_scheme"));
  CHECK(has(fields_of("collective"), "op"));
  CHECK(has(fields_of("collective"), "bytes"));
  CHECK(has(fields_of("simulate"), "parallel"));
  CHECK(has(fields_of("search"), "devices"));
  CHECK(has(fields_of("plan"), "top"));
  CHECK(has(fields_of("inference"), "generate_len"));
  CHECK(has(fields_of("validate"), "family"));
  CHECK(has(fields_of("calibrate"), "measurements"));
  CHECK(fields_of("presets") == Names{"command"});
  CHECK_FALSE(has(fields_of("summary"), "dataset_samples"));
  CHECK_FALSE(has(fields_of("collective"), "net"));
}

TEST_CASE("schema's enumerations are the core's own lists", "[schema]") {
  const Json f = schema().at("fields");
  const Json presets = paleo::handle_request({{"command", "presets"}});
  CHECK(strings_of(f["profile"]["allowed"]) == paleo::profile_names());
  CHECK(strings_of(f["conv_algorithm"]["allowed"]) == paleo::conv_algorithm_names());
  CHECK(strings_of(f["collective"]["allowed"]) == strings_of(presets["collectives"]));
  CHECK(strings_of(f["device"]["preset_keys"]) == keys_of(presets["devices"]));
  CHECK(strings_of(f["interconnect"]["preset_keys"]) == keys_of(presets["interconnects"]));
  CHECK(strings_of(f["software"]["preset_keys"]) == keys_of(presets["software"]));
  CHECK(strings_of(f["software_era"]["preset_keys"]) == keys_of(presets["software_eras"]));
  CHECK(strings_of(f["cluster"]["preset_keys"]) == keys_of(presets["clusters"]));
  CHECK(strings_of(f["link"]["preset_keys"]) == keys_of(presets["links"]));
  CHECK(strings_of(f["price_per_gpu_hour"]["preset_keys"]) == keys_of(presets["prices"]));
  Names nets = keys_of(presets["nets"]);
  for (const std::string& k : keys_of(presets["transformers"])) nets.push_back(k);
  CHECK(strings_of(f["net"]["preset_keys"]) == nets);
  Names commands;
  for (const paleo::CommandSpec& c : paleo::command_specs()) commands.push_back(c.name);
  CHECK(strings_of(f["command"]["allowed"]) == commands);
}

TEST_CASE("every value a schema enumeration allows is read, and another is refused", "[schema]") {
  const Json f = schema().at("fields");
  // CNN request fields, read by core/api/request.cpp.
  for (const char* name : {"profile", "conv_algorithm", "parallel", "scaling", "collective", "collective_library",
                           "optimizer", "memory_format", "timing"}) {
    INFO(name);
    REQUIRE(f[name].contains("allowed"));
    CHECK(f[name]["allowed"].size() >= 2);
    for (const Json& value : f[name]["allowed"])
      CHECK(failing_field({{"command", "summary"}, {"net", small_net()}, {name, value}}) == "");
    CHECK(failing_field({{"command", "summary"}, {"net", small_net()}, {name, "no_such_value"}}) == name);
  }
  // Transformer fields, read by core/api/transformer_request.cpp.
  const std::string transformer = paleo::Presets::instance().transformer_keys().front();
  for (const char* name : {"schedule", "recompute", "attention", "zero"}) {
    INFO(name);
    REQUIRE(f[name].contains("allowed"));
    for (const Json& value : f[name]["allowed"])
      CHECK(failing_field({{"command", "summary"}, {"net", transformer}, {name, value}}) == "");
    const Json bad = f[name]["type"] == "integer" ? Json(f[name]["allowed"].size()) : Json("no_such_value");
    CHECK(failing_field({{"command", "summary"}, {"net", transformer}, {name, bad}}) == name);
  }
  // The `collective` command's operation and algorithm, and calibrate's loss: the core's parsers.
  for (const Json& op : f["op"]["allowed"]) CHECK_NOTHROW(paleo::parse_collective_op(op.get<std::string>()));
  CHECK_THROWS(paleo::parse_collective_op("no_such_value"));
  for (const Json& a : f["algorithm"]["allowed"]) CHECK_NOTHROW(paleo::parse_collective_algorithm(a.get<std::string>()));
  CHECK(f["algorithm"]["allowed"].size() == 10);  // the 10 of CollectiveAlgorithm, each once
  for (const Json& l : f["loss"]["allowed"]) CHECK_NOTHROW(paleo::loss_kind_from_name(l.get<std::string>(), "loss"));
  CHECK_THROWS(paleo::loss_kind_from_name("no_such_value", "loss"));
}

TEST_CASE("the registry describes every field the request readers read", "[schema]") {
  for (const std::string& name : paleo::request_reader_names()) {
    INFO(name);
    const paleo::FieldSpec* f = paleo::find_field_spec(name);
    REQUIRE(f != nullptr);
    CHECK((f->nets == paleo::FieldNets::kAny || f->nets == paleo::FieldNets::kCnn));
  }
  for (const std::string& name : paleo::transformer_request_fields()) {
    INFO(name);
    const paleo::FieldSpec* f = paleo::find_field_spec(name);
    REQUIRE(f != nullptr);
    CHECK((f->nets == paleo::FieldNets::kAny || f->nets == paleo::FieldNets::kTransformer));
  }
}

TEST_CASE("unknown and unused fields are answered as before the registry", "[schema]") {
  const Json unknown = paleo::handle_request({{"command", "layers"}, {"net", small_net()}, {"colective", "ring"}});
  CHECK(unknown.at("ok") == false);
  CHECK(unknown["error"]["field"] == "colective");
  CHECK(unknown["error"]["message"] == "field 'colective': unknown request field (see docs/api.md)");
  // A field of `calibrate` is unknown to the other commands.
  CHECK(failing_field({{"command", "layers"}, {"net", small_net()}, {"measurements", Json::array()}}) == "measurements");
  CHECK(failing_field({{"command", "layers"}, {"net", small_net()}, {"seq_len", 128}}) == "seq_len");

  const Json layers = paleo::handle_request({{"command", "layers"}, {"net", small_net()}, {"epochs", 2}});
  REQUIRE(layers.at("ok") == true);
  CHECK(has(strings_of(layers["warnings"]), "unused: 'epochs' applies to the 'estimate' command only; 'layers' ignores it"));
  const Json estimate = paleo::handle_request({{"command", "estimate"}, {"net", small_net()}, {"epochs", 2}});
  REQUIRE(estimate.at("ok") == true);
  CHECK(has(strings_of(estimate["warnings"]), "unused: 'epochs' has no effect without 'dataset_samples'"));
}

TEST_CASE("the unknown-command error lists every command, calibrate and schema included", "[schema]") {
  const Json out = paleo::handle_request({{"command", "estimat"}, {"net", small_net()}});
  REQUIRE(out.at("ok") == false);
  const std::string message = out["error"]["message"];
  for (const char* name : {"estimate", "calibrate", "schema", "version", "presets"})
    CHECK(message.find(name) != std::string::npos);
  CHECK(paleo::handle_request({{"command", "schema"}, {"net", "vgg16"}})["error"]["field"] == "net");
}

TEST_CASE("a value outside an enumeration is refused with the same message as before the registry", "[schema]") {
  auto message = [](const Json& request) { return paleo::handle_request(request)["error"]["message"].get<std::string>(); };
  const Json net = small_net();
  CHECK(message({{"command", "summary"}, {"net", net}, {"parallel", "x"}}) ==
        "field 'parallel': must be \"data\", \"model\" or \"hybrid\", got \"x\"");
  CHECK(message({{"command", "summary"}, {"net", net}, {"optimizer", "x"}}) ==
        "field 'optimizer': must be \"sgd\", \"momentum\" or \"adam\"");
  CHECK(message({{"command", "summary"}, {"net", net}, {"memory_format", "x"}}) ==
        "field 'memory_format': must be \"nhwc\" or \"nchw\"");
  CHECK(message({{"command", "summary"}, {"net", net}, {"timing", "x"}}) == "field 'timing': must be \"step\" or \"kernel\"");
  CHECK(message({{"command", "summary"}, {"net", net}, {"scaling", "x"}}) ==
        "field 'scaling': unknown scaling 'x' (known: weak, strong)");
  CHECK(message({{"command", "summary"}, {"net", net}, {"pipeline", {{"schedule", "x"}}}}) ==
        "field 'pipeline.schedule': must be \"gpipe\" or \"1f1b\"");
  const std::string transformer = paleo::Presets::instance().transformer_keys().front();
  CHECK(message({{"command", "summary"}, {"net", transformer}, {"schedule", "x"}}) ==
        "field 'schedule': must be \"gpipe\" or \"1f1b\" (interleaved: 1f1b with virtual_stages > 1)");
  CHECK(message({{"command", "summary"}, {"net", transformer}, {"optimizer", "x"}}) ==
        "field 'optimizer': must be \"sgd\", \"momentum\" or \"adam\"");
}

TEST_CASE("schema describes training_scheme's members, each enumerated value read and another refused", "[schema]") {
  const Json members = schema().at("fields").at("training_scheme").at("members");
  for (const char* name : {"consistency", "staleness", "jitter", "slow_worker", "compression", "exchange", "server_layout",
                           "servers", "push", "offload_fc", "averaging", "averaging_every", "gossip_peers", "batch_norm"})
    CHECK(members.contains(name));
  int enumerated = 0;
  for (auto it = members.begin(); it != members.end(); ++it) {
    if (!it.value().contains("allowed")) continue;
    ++enumerated;
    INFO(it.key());
    for (const Json& value : it.value()["allowed"])
      CHECK(failing_field({{"command", "summary"}, {"net", small_net()}, {"training_scheme", {{it.key(), value}}}}) == "");
    CHECK(failing_field({{"command", "summary"}, {"net", small_net()}, {"training_scheme", {{it.key(), "no_such_value"}}}}) ==
          "training_scheme." + it.key());
  }
  CHECK(enumerated == 6);  // consistency, exchange, server_layout, push, averaging, batch_norm
  CHECK(strings_of(members["consistency"]["allowed"]) == Names{"sync", "ssp", "async"});
}

TEST_CASE("every number format the schema allows is read as precision and as the KV cache's, and another refused",
          "[schema]") {
  const Json f = schema().at("fields");
  CHECK(strings_of(f["precision"]["allowed"]) == Names{"fp32", "tf32", "fp16", "bf16", "fp8", "fp8_e4m3", "fp8_e5m2"});
  CHECK(f["kv_cache_dtype"]["allowed"] == f["precision"]["allowed"]);
  const std::string transformer = paleo::Presets::instance().transformer_keys().front();
  for (const Json& value : f["precision"]["allowed"]) {
    INFO(value.dump());
    CHECK(failing_field({{"command", "layers"}, {"net", small_net()}, {"precision", value}}) == "");
    CHECK(failing_field({{"command", "inference"}, {"net", transformer}, {"kv_cache_dtype", value}}) == "");
  }
  CHECK(failing_field({{"command", "layers"}, {"net", small_net()}, {"precision", "no_such_value"}}) == "precision");
  CHECK(failing_field({{"command", "inference"}, {"net", transformer}, {"kv_cache_dtype", "no_such_value"}}) ==
        "kv_cache_dtype");
}

TEST_CASE("a transformer's serving fields given to another command are answered with a warning each", "[schema]") {
  const std::string transformer = paleo::Presets::instance().transformer_keys().front();
  const Json out = paleo::handle_request({{"command", "estimate"},
                                          {"net", transformer},
                                          {"speculative", {{"draft_tokens", 2}, {"acceptance_rate", 0.5}}},
                                          {"concurrency", 4},
                                          {"generate_len", 8},
                                          {"price_per_gpu_hour", 2}});
  REQUIRE(out.at("ok") == true);
  Names unused;
  for (const std::string& w : strings_of(out["warnings"]))
    if (w.rfind("unused: ", 0) == 0) unused.push_back(w);
  // In the registry's order; the price (which a transformer's estimate reads) is not warned of.
  CHECK(unused == Names{"unused: 'generate_len' applies to 'inference'; 'estimate' ignores it",
                        "unused: 'concurrency' applies to the 'inference' command only; 'estimate' ignores it",
                        "unused: 'speculative' applies to the 'inference' command only; 'estimate' ignores it"});
  CHECK(paleo::serving_request_fields() ==
        Names{"concurrency", "request_rate", "kv_cache_dtype", "gpu_memory_utilization",
              "kv_cache_free_gpu_mem_fraction", "cuda_graphs", "mixed_steps", "runtime", "decode_attention",
              "moe_routing_skew", "block_size", "max_num_batched_tokens", "speculative", "prefix_cache_hit_rate",
              "tpot_target_ms", "ttft_target_ms"});
}

TEST_CASE("a training run's fields given to inference are warned of, and its layouts refused", "[schema]") {
  const Json request = {{"command", "inference"}, {"net", "mixtral_8x7b"}, {"device", "H100_SXM"}, {"tp", 2},
                        {"batch_size", 4},        {"prompt_len", 128},     {"generate_len", 16}};
  Json with_training = request;
  with_training["recompute"] = "full";
  with_training["micro_batch"] = 2;
  const Json out = paleo::handle_request(with_training);
  REQUIRE(out.at("ok") == true);
  Names unused;
  for (const std::string& w : strings_of(out["warnings"]))
    if (w.rfind("unused: ", 0) == 0) unused.push_back(w);
  CHECK(unused == Names{"unused: 'micro_batch' applies to 'estimate', 'layers' or 'plan'; 'inference' ignores it",
                        "unused: 'recompute' applies to 'estimate', 'layers' or 'plan'; 'inference' ignores it"});
  // Neither changes the answer it is ignored by.
  CHECK(out.at("decode_ms_per_token") == paleo::handle_request(request).at("decode_ms_per_token"));
  // Expert and context parallelism would change what a replica is: an error, not a silent answer.
  for (const char* layout : {"ep", "cp"}) {
    Json with_layout = request;
    with_layout[layout] = 2;
    const Json refused = paleo::handle_request(with_layout);
    CHECK(refused.at("ok") == false);
    CHECK(refused.at("error").at("field") == layout);
  }
}

TEST_CASE("each example of a training-scheme member whose strings take a parameter is read", "[schema]") {
  const Json members = schema().at("fields").at("training_scheme").at("members");
  for (const char* name : {"jitter", "compression"}) {
    INFO(name);
    REQUIRE(members[name].contains("examples"));
    CHECK(members[name]["examples"].size() >= 4);
    for (const Json& value : members[name]["examples"])
      CHECK(failing_field({{"command", "summary"}, {"net", small_net()}, {"training_scheme", {{name, value}}}}) == "");
    CHECK(
        failing_field({{"command", "summary"}, {"net", small_net()}, {"training_scheme", {{name, "no_such_value"}}}}) ==
        std::string("training_scheme.") + name);
  }
}
