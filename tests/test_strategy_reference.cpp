// The layer-wise search against the implementation it replaced (tests/reference_strategy_search.cpp,
// which intersects boxes per configuration pair): the same configurations, node costs, every
// edge's t_x for every pair of configurations, the same chosen configuration for every layer and
// the same total, on the nets and device counts the other tests search.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "core/api/request.h"
#include "core/cluster/cluster_step.h"
#include "core/spec/presets.h"
#include "core/search/strategy_search.h"
#include "tests/reference_strategy_search.h"
#include "tests/small_layer_graphs.h"

namespace {

using Json = nlohmann::ordered_json;

bool same(double a, double b) { return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

// Counts entries that differ, so that one failure does not print a quarter of a million lines.
struct Mismatches {
  long count = 0;
  std::string first;
  void check(double fast, double reference, const std::string& where) {
    if (same(fast, reference)) return;
    if (count++ == 0) first = where + ": " + std::to_string(fast) + " vs " + std::to_string(reference);
  }
};

paleo::Cluster paper_cluster(long devices, long per_node) {
  paleo::Cluster c;
  c.intra = paleo::Presets::instance().link("nvlink2_v100", "cluster");
  c.inter = paleo::Presets::instance().link("infiniband_edr", "cluster");
  c.devices_per_node = std::min(devices, per_node);
  c.nodes = (devices + c.devices_per_node - 1) / c.devices_per_node;
  return c;
}

void compare(const paleo::Request& r, const paleo::Network& net, const paleo::Cluster& cluster) {
  const paleo::CostModel model = r.scenario.cost_model();
  const paleo::CollectiveSettings sync = paleo::collective_settings(r.scenario.device, 1);
  const paleo::StrategyProblem fast = paleo::make_strategy_problem(net, model, r.scenario.cost, cluster, sync);
  const paleo::reference::StrategyProblem ref =
      paleo::reference::make_strategy_problem(net, model, r.scenario.cost, cluster, sync);
  REQUIRE(fast.configs == ref.configs);

  Mismatches nodes, edges, entries;
  long pairs = 0;
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    for (std::size_t c = 0; c < ref.configs[i].size(); ++c) {
      nodes.check(fast.compute_ms[i][c], ref.compute_ms[i][c], net.layers[i].name + " t_c");
      nodes.check(fast.sync_ms[i][c], ref.sync_ms[i][c], net.layers[i].name + " t_s");
    }
    for (std::size_t k = 0; k < net.layers[i].parents.size(); ++k) {
      const int parent = net.layers[i].parents[k];
      const auto& as = ref.configs[static_cast<std::size_t>(parent)];
      const auto& bs = ref.configs[i];
      const std::vector<double>& table = fast.transfer.edge(i, k);
      REQUIRE(table.size() == as.size() * bs.size());
      for (std::size_t a = 0; a < as.size(); ++a)
        for (std::size_t b = 0; b < bs.size(); ++b) {
          const double expected = paleo::reference::transfer_ms(ref, parent, as[a], static_cast<int>(i), bs[b]);
          const std::string where = net.layers[i].name + " <- " + std::to_string(parent) + " " + as[a].to_string() +
                                    " / " + bs[b].to_string();
          edges.check(table[a * bs.size() + b], expected, where);
          // The entry alone (the search's per-layer report) only for a sample: it lays out boxes per call.
          if ((a + b) % 7 == 0)
            entries.check(paleo::transfer_ms(fast, parent, as[a], static_cast<int>(i), bs[b]), expected, where);
          ++pairs;
        }
    }
  }
  INFO(nodes.first << edges.first << entries.first);
  CHECK(nodes.count == 0);
  CHECK(edges.count == 0);
  CHECK(entries.count == 0);
  CHECK(pairs > 0);

  const paleo::StrategyResult got = paleo::optimal_strategy(fast);
  const paleo::reference::StrategyResult want = paleo::reference::optimal_strategy(ref);
  CHECK(got.reduced == want.reduced);
  CHECK(got.remaining_nodes == want.remaining_nodes);
  CHECK(got.node_eliminations == want.node_eliminations);
  CHECK(got.edge_eliminations == want.edge_eliminations);
  CHECK(got.choice == want.choice);  // every layer's configuration
  CHECK(same(got.cost_ms, want.cost_ms));
  CHECK(same(paleo::strategy_cost(fast, want.choice), want.cost_ms));
  for (const paleo::StrategyConfig& uniform :
       {paleo::StrategyConfig{fast.devices, 1, 1, 1}, paleo::StrategyConfig{1, fast.devices, 1, 1}}) {
    const std::vector<int> choice = paleo::uniform_strategy(fast, uniform);
    CHECK(choice == paleo::reference::uniform_strategy(ref, uniform));
    CHECK(same(paleo::strategy_cost(fast, choice), paleo::reference::strategy_cost(ref, choice)));
  }
}

void compare_preset(const std::string& key, long devices, long per_node, const std::string& era = "") {
  INFO(key << " on " << devices << " devices, " << per_node << " per node" << (era.empty() ? "" : ", era " + era));
  Json request{{"command", "layers"}, {"net", key}, {"batch_size", 32}};
  if (!era.empty()) request["software_era"] = era;
  const paleo::Request r = paleo::parse_request(request);
  const paleo::Network net = paleo::build_network(r.scenario.spec, r.scenario.graph, 32 * devices, *r.scenario.profile);
  compare(r, net, paper_cluster(devices, per_node));
}

}  // namespace

TEST_CASE("the layer-wise search matches its reference on AlexNet VGG-16 and Inception-v3 at 1 to 64 devices") {
  for (const char* key : {"alex_v2", "vgg16", "inception_v3"})
    for (long devices : {1L, 2L, 3L, 4L, 6L, 8L, 12L, 16L, 24L, 32L, 48L, 64L}) compare_preset(key, devices, 4);
  compare_preset("inception_v3", 64, 8);  // more of the configurations stay inside a node
  compare_preset("vgg16", 16, 1);         // every split crosses nodes
}

TEST_CASE("the layer-wise search matches its reference on the other CNN presets") {
  for (const char* key : {"googlenet_v1", "resnet50_v1_5", "mobilenet_v2", "nin", "overfeat", "vgg_a", "alexnet_owt",
                          "dcgan_generator_test", "se_resnext101_32x4d"})
    for (long devices : {4L, 16L}) compare_preset(key, devices, 4);
}

TEST_CASE("the layer-wise search matches its reference where the era moves transfers in turn") {
  // OptCNN's runtime (transfer_serialization 1): the edge tables sum every device's missing part.
  for (const char* key : {"alexnet_owt", "vgg16", "inception_v3"})
    for (long devices : {4L, 8L, 16L}) compare_preset(key, devices, 4, "legion_cudnn7_2018");
}

TEST_CASE("the layer-wise search matches its reference on random layer graphs") {
  // The graphs of test_strategy_search.cpp's oracle test (small_layer_graphs.h), on 2 nodes x 2
  // devices.
  std::mt19937 random(20181214);
  for (int trial = 0; trial < 12; ++trial) {
    const Json net_spec = small_graphs::random_net(random);
    INFO("trial " << trial);
    const paleo::Request r = paleo::parse_request(
        Json{{"command", "layers"}, {"net", net_spec}, {"profile", "paleo2026"}});
    const paleo::Network net = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
    paleo::Cluster c = paper_cluster(4, 2);
    c.intra.latency_us = 0.7;
    c.intra.bandwidth_gb_per_s = 130;
    c.inter.latency_us = 2;
    c.inter.bandwidth_gb_per_s = 12;
    compare(r, net, c);
  }
}
