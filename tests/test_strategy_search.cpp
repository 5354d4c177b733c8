// Layer-wise parallelism: the reduced-graph search against the exhaustive oracle, and the
// paper's findings on AlexNet, VGG-16 and Inception-v3.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "core/api.h"
#include "core/api/request.h"
#include "core/cluster/cluster_step.h"
#include "core/search/strategy_search.h"
#include "small_layer_graphs.h"

namespace {

using Json = nlohmann::ordered_json;

paleo::Link link(double latency_us, double gb_per_s) {
  paleo::Link l;
  l.latency_us = latency_us;
  l.bandwidth_gb_per_s = gb_per_s;
  return l;
}

// Solves `net` (a spec) on 2 nodes x 2 devices both ways.
void check_against_oracle(const Json& net, double* eliminations = nullptr) {
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", net}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  paleo::Cluster c;
  c.nodes = 2;
  c.devices_per_node = 2;
  c.intra = link(0.7, 130);
  c.inter = link(2, 12);
  const paleo::StrategyProblem p = paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost, c,
                                                                paleo::collective_settings(r.scenario.device, 1));
  const paleo::StrategyResult fast = paleo::optimal_strategy(p);
  const paleo::StrategyResult oracle = paleo::exhaustive_strategy(p);
  REQUIRE(oracle.reduced);
  REQUIRE(fast.reduced);
  CHECK(fast.cost_ms == Approx(oracle.cost_ms).epsilon(1e-9));
  // The recovered configurations really cost what the search claims.
  CHECK(paleo::strategy_cost(p, fast.choice) == Approx(fast.cost_ms).epsilon(1e-12));
  if (eliminations) *eliminations = static_cast<double>(fast.node_eliminations + fast.edge_eliminations);
}

using small_graphs::layer;
using small_graphs::net_of;

}  // namespace

TEST_CASE("the search equals the exhaustive oracle on a chain") {
  double eliminations = 0;
  check_against_oracle(net_of({{"a", layer("Convolution", {"data"})}, {"b", layer("Pooling", {"a"})},
                               {"c", layer("Convolution", {"b"})}, {"d", layer("Convolution", {"c"})}}),
                       &eliminations);
  CHECK(eliminations >= 3);  // the chain reduces to its two ends
}

TEST_CASE("the search equals the exhaustive oracle on branchy graphs") {
  // Two towers joined by an element-wise sum, then a second fork joined by a concatenation.
  check_against_oracle(net_of({{"a", layer("Convolution", {"data"})}, {"b1", layer("Convolution", {"a"})},
                               {"b2", layer("Pooling", {"a"})}, {"s", layer("Elementwise", {"b1", "b2"})},
                               {"t1", layer("Convolution", {"s"})}, {"t2", layer("Convolution", {"s"})},
                               {"cat", {{"type", "Concatenate"}, {"parents", {"t1", "t2"}}, {"dim", 3}}}}));
  // A skip connection straight from the input (an edge parallel to a path).
  check_against_oracle(net_of({{"a", layer("Convolution", {"data"})}, {"b", layer("Convolution", {"a"})},
                               {"sum", layer("Elementwise", {"b", "data"})}}));
}

TEST_CASE("the search equals the exhaustive oracle on random layer graphs") {
  std::mt19937 random(20181214);
  for (int trial = 0; trial < 12; ++trial) {
    const Json net = small_graphs::random_net(random);
    INFO("trial " << trial);
    check_against_oracle(net);
  }
}

TEST_CASE("layer-wise parallelism is never worse than data parallelism on AlexNet, VGG-16 and Inception-v3") {
  for (const char* net : {"alex_v2", "vgg16", "inception_v3"}) {
    for (long devices : {1L, 2L, 4L, 16L, 64L}) {
      const Json r = paleo::handle_request(
          Json{{"command", "search"}, {"net", net}, {"devices", devices}, {"devices_per_node", 4}, {"batch_size", 32}});
      INFO(net << " on " << devices);
      REQUIRE(r["ok"].get<bool>());
      CHECK(r["reduced"].get<bool>());
      CHECK(r["remaining_nodes"] == 2);  // as the paper reports for these networks
      CHECK(r["step_ms"].get<double>() <= r["data_parallel_step_ms"].get<double>() * (1 + 1e-12));
      CHECK(r["step_ms"].get<double>() <= r["best_uniform"]["step_ms"].get<double>() * (1 + 1e-12));
    }
  }
}

TEST_CASE("on AlexNet (16 GPUs, 4 nodes x 4) the search splits the fully-connected layers") {
  const Json r = paleo::handle_request(
      Json{{"command", "search"}, {"net", "alex_v2"}, {"devices", 16}, {"devices_per_node", 4}, {"batch_size", 32}});
  REQUIRE(r["ok"].get<bool>());
  for (const Json& l : r["layers"]) {
    const std::string name = l["name"].get<std::string>();
    if (name == "fc6" || name == "fc7") {
      INFO(name);
      CHECK(l["config"]["c"].get<long>() > 1);
    }
    // The convolutions keep their channels whole (OptCNN's finding); the first runs data parallel.
    if (name.rfind("conv", 0) == 0) CHECK(l["config"]["c"].get<long>() == 1);
    if (name == "conv1") CHECK(l["config"]["n"].get<long>() == 16);
  }
  CHECK(r["speedup_over_data_parallel"].get<double>() > 1.2);
  CHECK(r["scaling"].size() == 5);  // 1, 2, 4, 8, 16 devices
}
