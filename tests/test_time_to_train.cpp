// Time and cost to train (core/cost/time_to_train.h) and the `train` section of a CNN estimate,
// each number derived by hand from the step time the response reports; the simulate rows' step
// times and fastest scheme; the totals' throughput; the lists and labels of `presets`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "core/api.h"
#include "core/cost/time_to_train.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;
using Catch::Detail::Approx;

constexpr auto& ok = ok_answer;  // tests/api_answer.h

std::string error_field(const Json& request) {
  Json out = paleo::handle_request(request);
  INFO(out.dump());
  REQUIRE_FALSE(out["ok"].get<bool>());
  return out["error"]["field"].get<std::string>();
}

}  // namespace

TEST_CASE("time_to_train: steps x step time, device-hours and their price") {
  // 48 steps of 250 ms = 12 s; on 8 devices 12 / 3600 x 8 = 0.02667 device-hours; at $2: $0.05333.
  const paleo::TimeToTrain t = paleo::time_to_train(48, 250, 8, 2);
  CHECK(t.steps == 48);
  CHECK(t.time_s == Approx(12));
  CHECK(t.time_days == Approx(12.0 / 86400));
  CHECK(t.device_hours == Approx(0.0266667).epsilon(1e-5));
  CHECK(t.cost_usd == Approx(0.0533333).epsilon(1e-5));
  CHECK(paleo::time_to_train(48, 250, 8, 0).cost_usd == 0);
}

TEST_CASE("epoch_steps: each epoch ends with a partial step") {
  // ImageNet-1k (1,281,167 images) at 256 a step: 5004.56 -> 5005 steps an epoch; 90 epochs 450,450.
  CHECK(paleo::epoch_steps(1281167, 90, 256) == 450450);
  CHECK(paleo::epoch_steps(1024, 2, 256) == 8);  // divides: no partial step
  CHECK(paleo::epoch_steps(1000, 3, 64) == 48);  // 15.6 -> 16 an epoch
}

TEST_CASE("a CNN estimate's train section: one device, the simulated worker counts, the cluster") {
  Json request = {{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"}, {"batch_size", 64},
                  {"workers", {1, 4}}, {"scaling", {"weak"}}, {"cluster", "dgx1_v100_edr"},
                  {"dataset_samples", 1000}, {"epochs", 3}, {"price_per_gpu_hour", 2}};
  const Json out = ok(request);
  const Json& train = out["train"];
  REQUIRE(train["setups"].size() == 3);
  CHECK(train["dataset_samples"] == 1000);
  CHECK(train["epochs"] == 3);
  CHECK(train["price_per_gpu_hour"] == 2);

  // One device: 64 a step, ceil(1000 / 64) = 16 steps an epoch, 48 in all.
  const Json& one = train["setups"][0];
  const double step_ms = out["totals"]["step_ms"].get<double>();
  CHECK(one["setup"] == "one device");
  CHECK(one["kind"] == "one_device");
  CHECK(one["scheme"].is_null());
  CHECK(one["devices"] == 1);
  CHECK(one["samples_per_step"] == 64);
  CHECK(one["step_ms"].get<double>() == step_ms);
  CHECK(one["steps"] == 48);
  CHECK(one["time_s"].get<double>() == Approx(48 * step_ms / 1e3));
  CHECK(one["device_hours"].get<double>() == Approx(48 * step_ms / 1e3 / 3600));
  CHECK(one["cost_usd"].get<double>() == Approx(2 * 48 * step_ms / 1e3 / 3600));

  // 4 workers, weak scaling: 256 a step, ceil(1000 / 256) = 4 steps an epoch, 12 in all, at the
  // fastest scheme's time per iteration.
  const Json& row = out["simulation"]["scaling"][0]["rows"][1];
  const std::string scheme = row["fastest_scheme"].get<std::string>();
  const double four_ms = row["time_comp_ms"].get<double>() + row["comm_ms"][scheme].get<double>();
  const Json& four = train["setups"][1];
  CHECK(four["setup"] == "4 workers, PALEO 2017 over Ethernet");
  CHECK(four["kind"] == "paleo2017_workers");  // the page shows it in its PALEO 2017 section
  CHECK(four["scheme"] == scheme);
  CHECK(four["samples_per_step"] == 256);
  CHECK(four["steps"] == 12);
  CHECK(four["time_s"].get<double>() == Approx(12 * four_ms / 1e3));
  CHECK(four["device_hours"].get<double>() == Approx(12 * four_ms / 1e3 / 3600 * 4));

  // The cluster: 8 devices x 64 = 512 a step, 2 steps an epoch, 6 in all; it is the headline.
  const Json& cluster = train["setups"][2];
  const double cluster_ms = out["cluster"]["step_ms"].get<double>();
  CHECK(cluster["setup"] == "cluster 1x8");
  CHECK(cluster["kind"] == "cluster");
  CHECK(cluster["devices"] == 8);
  CHECK(cluster["samples_per_step"] == 512);
  CHECK(cluster["steps"] == 6);
  CHECK(cluster["time_s"].get<double>() == Approx(6 * cluster_ms / 1e3));
  CHECK(cluster["cost_usd"].get<double>() == Approx(2 * 6 * cluster_ms / 1e3 / 3600 * 8));
  CHECK(train["headline_index"] == 2);
  // The fastest by hand: one device takes 48 x one_ms, 4 workers 12 x four_ms, the cluster
  // 6 x cluster_ms. The cluster's 8 V100s on NVLink sync alexnet's gradients in far less than a
  // step, so cluster_ms < 8 x one_ms and < 2 x four_ms (four workers over 1 Gb/s Ethernet wait
  // seconds for theirs): the cluster, index 2.
  REQUIRE(cluster_ms < 8 * step_ms);
  REQUIRE(cluster_ms < 2 * four_ms);
  CHECK(train["fastest_index"] == 2);
}

TEST_CASE("train: the fastest setup of a one-sample dataset is the one device") {
  // One sample: every setup takes one step, so the least time is the least step. Each worker and
  // each cluster device computes the same 64 samples as the one device and then syncs gradients,
  // which takes time: the one device (index 0) is fastest, while the cluster is the headline.
  const Json out = ok({{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"}, {"batch_size", 64},
                       {"workers", {1, 4}}, {"scaling", {"weak"}}, {"cluster", "dgx1_v100_edr"},
                       {"dataset_samples", 1}});
  const Json& train = out["train"];
  for (const Json& setup : train["setups"]) CHECK(setup["steps"] == 1);
  CHECK(train["headline_index"] == 2);
  CHECK(train["fastest_index"] == 0);
  CHECK_FALSE(train.contains("price_per_gpu_hour"));  // no price given
  CHECK_FALSE(train.contains("price_key"));
}

TEST_CASE("train: without a cluster the headline is one device, a price preset, no dataset no section") {
  Json request = {{"command", "estimate"}, {"net", "alex_v2"}, {"dataset_samples", 128}};
  const Json presets = ok({{"command", "presets"}});
  REQUIRE(!presets["prices"].empty());
  request["price_per_gpu_hour"] = presets["prices"][0]["key"];
  const double usd = presets["prices"][0]["usd_per_device_hour"].get<double>();
  const Json out = ok(request);
  CHECK(out["train"]["headline_index"] == 0);
  CHECK(out["train"]["fastest_index"] == 0);  // the only setup
  CHECK(out["train"]["price_key"] == presets["prices"][0]["key"]);
  CHECK(out["train"]["price_per_gpu_hour"].get<double>() == usd);
  // alex_v2's batch is 128: one step, one epoch.
  CHECK(out["train"]["setups"][0]["steps"] == 1);
  CHECK(out["train"]["setups"][0]["cost_usd"].get<double>() ==
        Approx(out["totals"]["step_ms"].get<double>() / 1e3 / 3600 * usd));
  CHECK_FALSE(ok({{"command", "estimate"}, {"net", "alex_v2"}}).contains("train"));
  // Without a price the section has no cost.
  CHECK_FALSE(ok({{"command", "estimate"}, {"net", "alex_v2"}, {"dataset_samples", 10}})["train"]["setups"][0].contains(
      "cost_usd"));
}

TEST_CASE("train fields: bad values name the field, a transformer takes train_tokens instead") {
  const Json base = {{"command", "estimate"}, {"net", "alex_v2"}};
  auto with = [&](const char* field, const Json& value) {
    Json r = base;
    r[field] = value;
    return r;
  };
  CHECK(error_field(with("dataset_samples", 0)) == "dataset_samples");
  CHECK(error_field(with("dataset_samples", -5)) == "dataset_samples");
  CHECK(error_field(with("dataset_samples", 1e16)) == "dataset_samples");
  CHECK(error_field(with("dataset_samples", "many")) == "dataset_samples");
  CHECK(error_field(with("dataset_samples", 1000.5)) == "dataset_samples");  // samples are whole
  CHECK(error_field(with("epochs", 0)) == "epochs");
  CHECK(error_field(with("epochs", -3)) == "epochs");
  CHECK(error_field(with("epochs", 2.5)) == "epochs");
  CHECK(error_field(with("epochs", 1e7)) == "epochs");
  CHECK(error_field(with("price_per_gpu_hour", -1)) == "price_per_gpu_hour");
  CHECK(error_field(with("price_per_gpu_hour", 1e7)) == "price_per_gpu_hour");
  CHECK(error_field(with("price_per_gpu_hour", 1000000.5)) == "price_per_gpu_hour");  // 0 to 1e6 inclusive
  CHECK(ok(with("price_per_gpu_hour", 1e6))["ok"] == true);
  CHECK(ok(with("price_per_gpu_hour", 0))["ok"] == true);
  CHECK(error_field(with("price_per_gpu_hour", true)) == "price_per_gpu_hour");
  // The largest dataset, epochs and price allowed still give finite numbers.
  const Json most = ok({{"command", "estimate"}, {"net", "alex_v2"}, {"batch_size", 1}, {"dataset_samples", 1e15},
                        {"epochs", 1000000}, {"price_per_gpu_hour", 999999}});
  CHECK(most["train"]["setups"][0]["steps"].get<double>() == Approx(1e21));
  CHECK(std::isfinite(most["train"]["setups"][0]["cost_usd"].get<double>()));
  CHECK(error_field(with("price_per_gpu_hour", "no_such_price")) == "price_per_gpu_hour");
  CHECK(error_field(with("train_tokens", 1e9)) == "train_tokens");
  CHECK(error_field({{"command", "estimate"}, {"net", "gpt3_125m"}, {"dataset_samples", 10}}) == "dataset_samples");
}

TEST_CASE("simulate rows carry each scheme's time per iteration and the fastest scheme") {
  const Json out = ok({{"command", "simulate"}, {"net", "alex_v2"}, {"workers", {1, 2, 8, 32}}});
  const std::vector<std::string> schemes = {"OneToAll", "TreeAllReduce", "ButterflyAllReduce", "ButterflyMixing"};
  for (const Json& table : out["scaling"]) {
    for (const Json& row : table["rows"]) {
      std::string fastest = schemes[0];
      for (const std::string& s : schemes) {
        CHECK(row["step_ms"][s].get<double>() ==
              Approx(row["time_comp_ms"].get<double>() + row["comm_ms"][s].get<double>()));
        if (row["comm_ms"][s].get<double>() < row["comm_ms"][fastest].get<double>()) fastest = s;
      }
      CHECK(row["fastest_scheme"] == fastest);
    }
  }
  // comm.py's times in link times t (the gradients over one link): one-to-all 2(n-1)t, tree
  // 2 log2(n) t, butterfly log2(n) t, butterfly mixing t. One worker: all 0 but mixing (the first
  // of the ties wins); two: butterfly t ties mixing t; eight and more: mixing alone.
  const std::vector<std::string> expected = {"OneToAll", "ButterflyAllReduce", "ButterflyMixing", "ButterflyMixing"};
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(out["scaling"][0]["rows"][i]["fastest_scheme"] == expected[i]);
}

TEST_CASE("totals carry the throughput: batch / step time") {
  const Json out = ok({{"command", "estimate"}, {"net", "alex_v2"}, {"batch_size", 64}});
  const Json& t = out["totals"];
  CHECK(t["throughput_samples_per_s"].get<double>() == Approx(64 / t["step_ms"].get<double>() * 1e3));
}

TEST_CASE("presets: the PALEO 2017 schemes, the gradient collectives, human labels with a year") {
  const Json p = ok({{"command", "presets"}});
  CHECK(p["original_schemes"] == Json({"OneToAll", "TreeAllReduce", "ButterflyAllReduce", "ButterflyMixing"}));
  CHECK(p["collectives"] == Json({"auto", "ring", "recursive_doubling", "rabenseifner", "binomial_tree",
                                  "double_binary_tree", "parameter_server", "sharded_parameter_server",
                                  "hierarchical"}));
  // Every collective listed is one a request may name.
  for (const Json& c : p["collectives"])
    ok({{"command", "estimate"}, {"net", "alex_v2"}, {"cluster", "dgx1_v100_edr"}, {"nodes", 2}, {"collective", c}});
  const std::regex year(R"(\((.*, )?[^)]*(19|20)\d\d)");
  for (const char* list : {"nets", "clusters"}) {
    for (const Json& entry : p[list]) {
      INFO(entry["key"]);
      REQUIRE(entry.contains("label"));
      const std::string label = entry["label"].get<std::string>();
      CHECK(label != entry["key"].get<std::string>());
      CHECK(std::regex_search(label, year));
    }
  }
  auto label_of = [&](const char* list, const char* key) {
    for (const Json& e : p[list])
      if (e["key"] == key) return e["label"].get<std::string>();
    return std::string();
  };
  CHECK(label_of("clusters", "dgx_h100_ndr").rfind("DGX H100, 8 GPUs, NVLink 4", 0) == 0);
  CHECK(label_of("nets", "resnet50_v1_5").rfind("ResNet-50", 0) == 0);
}

TEST_CASE("train fields a request cannot use are named in its warnings") {
  auto warnings_of = [](const Json& request) {
    const Json out = ok(request);
    REQUIRE(out.contains("warnings"));
    return out["warnings"].get<std::vector<std::string>>();
  };
  auto names = [](const std::vector<std::string>& warnings, const std::string& text) {
    return std::count_if(warnings.begin(), warnings.end(),
                         [&](const std::string& w) { return w.find(text) != std::string::npos; });
  };
  // An estimate without dataset_samples prices no training: epochs and the price say so.
  const auto no_dataset =
      warnings_of({{"command", "estimate"}, {"net", "alex_v2"}, {"epochs", 3}, {"price_per_gpu_hour", 2}});
  CHECK(names(no_dataset, "'epochs' has no effect without 'dataset_samples'") == 1);
  CHECK(names(no_dataset, "'price_per_gpu_hour' has no effect without 'dataset_samples'") == 1);
  // With the dataset, nothing to say about them.
  CHECK(names(warnings_of({{"command", "estimate"}, {"net", "alex_v2"}, {"dataset_samples", 10}, {"epochs", 3},
                           {"price_per_gpu_hour", 2}}),
              "unused:") == 0);
  // Commands that price no training name each of the three fields once.
  for (const char* command : {"layers", "simulate", "search"}) {
    INFO(command);
    Json request = {{"command", command}, {"net", "alex_v2"}, {"dataset_samples", 10}, {"epochs", 3},
                    {"price_per_gpu_hour", 2}};
    if (std::string(command) == "search") request.update({{"devices", 2}, {"devices_per_node", 2}});
    const auto w = warnings_of(request);
    for (const char* field : {"'dataset_samples'", "'epochs'", "'price_per_gpu_hour'"})
      CHECK(names(w, std::string("unused: ") + field + " applies to the 'estimate' command only; '" + command +
                         "' ignores it") == 1);
  }
  const auto collective = warnings_of({{"command", "collective"}, {"workers", 4}, {"bytes", 1e6},
                                       {"link", {{"bandwidth_gb_per_s", 10}, {"latency_us", 0}}}, {"epochs", 2}});
  CHECK(names(collective, "'epochs' applies to the 'estimate' command only") == 1);
}
