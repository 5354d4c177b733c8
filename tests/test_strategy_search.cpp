// Layer-wise parallelism: the reduced-graph search against the exhaustive oracle, and the
// paper's findings on AlexNet, VGG-16 and Inception-v3.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <string>

#include "core/api.h"
#include "core/api/request.h"
#include "core/cluster/cluster_step.h"
#include "core/search/strategy_search.h"
#include "core/search/strategy_traffic.h"
#include "core/search/strategy_transfer.h"
#include "small_layer_graphs.h"

namespace {

using Json = nlohmann::ordered_json;

paleo::Link link(double latency_us, double gb_per_s) {
  paleo::Link l;
  l.latency_us = latency_us;
  l.bandwidth_gb_per_s = gb_per_s;
  return l;
}

paleo::Cluster cluster(long nodes, long per_node, const paleo::Link& intra, const paleo::Link& inter) {
  paleo::Cluster c;
  c.nodes = nodes;
  c.devices_per_node = per_node;
  c.intra = intra;
  c.inter = inter;
  return c;
}

// The search's problem for `spec` (paleo2026, the default era with `efficiency` laid over it) on
// cluster `c`. A problem points at its network: a deque keeps every one in place for the run.
paleo::StrategyProblem problem_of(const Json& spec, const Json& efficiency, const paleo::Cluster& c,
                                  paleo::GradientExchange exchange = paleo::GradientExchange::kAllReduce) {
  const paleo::Request r = paleo::parse_request(
      Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2026"}, {"efficiency", efficiency}});
  static std::deque<paleo::Network> nets;
  nets.push_back(paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size));
  const paleo::CostModel model = r.scenario.cost_model();
  return paleo::make_strategy_problem(nets.back(), model, r.scenario.cost, c,
                                      paleo::collective_settings(r.scenario.device, 1, model.message_overhead_ms()),
                                      exchange);
}

// Solves `net` (a spec) on 2 nodes x 2 devices both ways.
void check_against_oracle(const Json& net, double* eliminations = nullptr, const Json& efficiency = Json::object()) {
  const paleo::StrategyProblem p = problem_of(net, efficiency, cluster(2, 2, link(0.7, 130), link(2, 12)));
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
    // A runtime that moves every device's part in turn prices the edges otherwise: still exact.
    check_against_oracle(net, nullptr, Json{{"transfer_serialization", 1}});
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
      Json{{"command", "search"}, {"net", "alex_v2"}, {"devices", 16}, {"devices_per_node", 4}, {"batch_size", 32},
           // NVLink inside a node, one 100 Gb/s EDR NIC between nodes (the search's default before
           // its links followed the device's node preset).
           {"cluster", {{"intra", "nvlink2_v100"}, {"inter", "infiniband_edr"}, {"nics_per_node", 1}}}});
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

TEST_CASE("OptCNN's parameter-server exchange and the era's runtime overheads, priced by hand", "[search]") {
  // One 3x3x8x8 convolution on 2 nodes x 4 devices, sample-split 8 ways: its server's node holds
  // 3 other replicas, one message each over the node's link, and the other node sends one over
  // the inter-node link: t_s = 3 (alpha1 + o + w / B1) + (alpha2 + o + w / B2).
  const Json spec = net_of({{"conv", layer("Convolution", {"data"})}});
  auto problem = [&](const Json& efficiency, paleo::GradientExchange exchange) {
    // Latencies 0.001 and 0.005 ms, 20 and 10 GB/s.
    return problem_of(spec, efficiency, cluster(2, 4, link(1.0, 20), link(5.0, 10)), exchange);
  };
  const paleo::StrategyProblem p =
      problem(Json{{"message_overhead_ms", 0.25}}, paleo::GradientExchange::kParameterServer);
  const std::size_t conv = 1;
  REQUIRE(p.net->layers[conv].name == "conv");
  const double w = static_cast<double>(p.net->layers[conv].weights_bytes);
  REQUIRE(w >= 3 * 3 * 8 * 8 * 4);
  bool found = false;
  for (std::size_t k = 0; k < p.configs[conv].size(); ++k) {
    if (!(p.configs[conv][k] == paleo::StrategyConfig{8, 1, 1, 1})) continue;
    found = true;
    const double by_hand = 3 * (0.001 + 0.25 + w / 20e9 * 1e3) + (0.005 + 0.25 + w / 10e9 * 1e3);
    CHECK(p.sync_ms[conv][k] == Approx(by_hand).epsilon(1e-9));
  }
  CHECK(found);
  // A step overhead is charged once per step, whatever the strategy.
  const paleo::StrategyProblem plain = problem(Json::object(), paleo::GradientExchange::kAllReduce);
  const paleo::StrategyProblem slow = problem(Json{{"step_overhead_ms", 7.5}}, paleo::GradientExchange::kAllReduce);
  const std::vector<int> first(plain.configs.size(), 0);
  CHECK(paleo::strategy_cost(slow, first) == Approx(paleo::strategy_cost(plain, first) + 7.5).epsilon(1e-12));
  CHECK(paleo::optimal_strategy(slow).cost_ms == Approx(paleo::optimal_strategy(plain).cost_ms + 7.5).epsilon(1e-12));
}

TEST_CASE("the bytes a strategy moves per step, counted by hand", "[search]") {
  // data [8, 8, 8, 8] -> conv1 -> conv2 (3x3x8x8, SAME) on 2 nodes x 4 devices, fp32 (4 bytes).
  const Json spec = net_of({{"conv1", layer("Convolution", {"data"})}, {"conv2", layer("Convolution", {"conv1"})}});
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  const paleo::Cluster c = cluster(2, 4, link(1.0, 20), link(5.0, 10));
  auto problem = [&](paleo::GradientExchange exchange) {
    return paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost, c,
                                        paleo::collective_settings(r.scenario.device, 1), exchange);
  };
  const double w = static_cast<double>(n.layers[1].weights_bytes);
  REQUIRE(w == static_cast<double>(n.layers[2].weights_bytes));
  // Data parallel: every layer sample-split 8 ways, so no edge moves anything; each convolution's
  // 8 replicas push and pull through a parameter server (2 x 8 x w), or ring-all-reduce (2 x 7 x w).
  const paleo::StrategyProblem server = problem(paleo::GradientExchange::kParameterServer);
  const std::vector<int> dp = paleo::uniform_strategy(server, {8, 1, 1, 1});
  CHECK(paleo::strategy_traffic_bytes(server, dp) == Approx(2 * (2 * 8 * w)).epsilon(1e-12));
  const paleo::StrategyProblem ring = problem(paleo::GradientExchange::kAllReduce);
  CHECK(paleo::strategy_traffic_bytes(ring, paleo::uniform_strategy(ring, {8, 1, 1, 1})) ==
        Approx(2 * (2 * 7 * w)).epsilon(1e-12));
  // Model parallel: both convolutions channel-split 8 ways (nothing replicated, no exchange); the
  // input, which splits only by samples, stays sample-split. Each device needs the whole 4,096
  // elements of its convolution's input and holds 512 of them: 8 x 3,584 elements per edge, on two
  // edges, as activations forward and gradients back.
  const std::vector<int> mp = paleo::uniform_strategy(server, {1, 8, 1, 1});
  REQUIRE(server.configs[1][static_cast<std::size_t>(mp[1])] == paleo::StrategyConfig{1, 8, 1, 1});
  REQUIRE(server.configs[0][static_cast<std::size_t>(mp[0])] == paleo::StrategyConfig{8, 1, 1, 1});
  CHECK(paleo::strategy_traffic_bytes(server, mp) == Approx(2.0 * 2 * 8 * 3584 * 4).epsilon(1e-12));
}

TEST_CASE("a transfer across nodes shares the node's NICs among its devices, priced by hand", "[search]") {
  // data [8, 8, 8, 8] -> conv1 on 2 nodes x 4 devices, fp32. data sample-split 8 ways, conv1
  // channel-split 8 ways: each device needs the whole 4,096 elements and holds 512, so 3,584 x 4
  // bytes arrive on the slowest device, over InfiniBand (5 us, 10 GB/s) since the parts span both
  // nodes; the node's 4 devices take theirs at once through its NICs.
  const Json spec = net_of({{"conv1", layer("Convolution", {"data"})}});
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  const double bytes = 3584.0 * 4;
  for (long nics : {1L, 2L, 4L, 8L}) {
    INFO("NICs per node: " << nics);
    paleo::Cluster c = cluster(2, 4, link(1.0, 20), link(5.0, 10));
    c.nics_per_node = nics;
    const paleo::StrategyProblem p = paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost, c,
                                                                  paleo::collective_settings(r.scenario.device, 1));
    const double share = static_cast<double>(std::min(nics, 4L)) / 4;  // 8 NICs: still one per device
    CHECK(paleo::transfer_entry_ms(p, 0, {8, 1, 1, 1}, 1, {1, 8, 1, 1}) ==
          Approx(0.005 + bytes / (10e9 * share) * 1e3).epsilon(1e-12));
  }
  // Inside one node (4 devices, channel-split 4 ways): NVLink-class link, no sharing.
  const paleo::StrategyProblem one = paleo::make_strategy_problem(
      n, r.scenario.cost_model(), r.scenario.cost, cluster(1, 4, link(1.0, 20), link(5.0, 10)),
      paleo::collective_settings(r.scenario.device, 1));
  CHECK(paleo::transfer_entry_ms(one, 0, {4, 1, 1, 1}, 1, {1, 4, 1, 1}) ==
        Approx(0.001 + 3072.0 * 4 / 20e9 * 1e3).epsilon(1e-12));
}

TEST_CASE("a runtime that moves one device pair after another: every device's part in turn, priced by hand",
          "[search]") {
  // As above: data [8, 8, 8, 8] sample-split 8 ways, conv1 channel-split 8 ways on 2 nodes x 4,
  // fp32, one NIC a node: each of the 8 devices lacks 3,584 elements, 512 from each other device,
  // 3 of them in its node. In turn (the era's transfer_serialization 1, OptCNN's t_x), every pair
  // at its link's rate: 8 x 3 x 512 x 4 bytes over the node's link (20 GB/s), 8 x 4 x 512 x 4
  // over InfiniBand (5 us, 10 GB/s). At once (0), the slowest device's 3,584 x 4 bytes through a
  // quarter of the node's NIC; halfway (0.5), the mean of the two.
  const Json spec = net_of({{"conv1", layer("Convolution", {"data"})}});
  auto problem = [&](double serialization, long nodes) {
    return problem_of(spec, Json{{"transfer_serialization", serialization}},
                      cluster(nodes, 4, link(1.0, 20), link(5.0, 10)));
  };
  const double in_turn_ms = (8 * 3 * 512.0 * 4 / 20e9 + 8 * 4 * 512.0 * 4 / 10e9) * 1e3;
  const double at_once_ms = 3584.0 * 4 / 2.5e9 * 1e3;
  CHECK(paleo::transfer_entry_ms(problem(1, 2), 0, {8, 1, 1, 1}, 1, {1, 8, 1, 1}) ==
        Approx(0.005 + in_turn_ms).epsilon(1e-12));
  CHECK(paleo::transfer_entry_ms(problem(0, 2), 0, {8, 1, 1, 1}, 1, {1, 8, 1, 1}) ==
        Approx(0.005 + at_once_ms).epsilon(1e-12));
  CHECK(paleo::transfer_entry_ms(problem(0.5, 2), 0, {8, 1, 1, 1}, 1, {1, 8, 1, 1}) ==
        Approx(0.005 + (in_turn_ms + at_once_ms) / 2).epsilon(1e-12));
  // More consumers than producers: data split by samples over the first node's 4 devices (1,024
  // elements each). Each of those lacks 3 x 1,024 from its node; each device of the second node
  // lacks all 4,096, from the other node.
  CHECK(paleo::transfer_entry_ms(problem(1, 2), 0, {4, 1, 1, 1}, 1, {1, 8, 1, 1}) ==
        Approx(0.005 + (4 * 3072.0 * 4 / 20e9 + 4 * 4096.0 * 4 / 10e9) * 1e3).epsilon(1e-12));
  // Inside one node (channel-split 4 ways, each device lacking 3,072 elements): 4 x 3,072 x 4
  // bytes in turn over the node's link (1 us, 20 GB/s).
  CHECK(paleo::transfer_entry_ms(problem(1, 1), 0, {4, 1, 1, 1}, 1, {1, 4, 1, 1}) ==
        Approx(0.001 + 4 * 3072.0 * 4 / 20e9 * 1e3).epsilon(1e-12));
  // The search's edge tables price it alike: the strategy's step grows by the difference. The
  // bytes it moves do not depend on how.
  const paleo::StrategyProblem two = problem(1, 2), zero = problem(0, 2);
  const std::vector<int> mp = paleo::uniform_strategy(two, {1, 8, 1, 1});
  REQUIRE(two.configs[0][static_cast<std::size_t>(mp[0])] == paleo::StrategyConfig{8, 1, 1, 1});
  CHECK(paleo::strategy_cost(two, mp) - paleo::strategy_cost(zero, mp) ==
        Approx(in_turn_ms - at_once_ms).epsilon(1e-9));
  CHECK(paleo::transfer_entry_bytes(two, 0, {8, 1, 1, 1}, 1, {1, 8, 1, 1}) == 8 * 3584.0 * 4);
}

TEST_CASE("an upsampling layer split by samples needs only its samples' input: nothing moves", "[search]") {
  // data [8, 8, 8, 8] -> up (UpSampling2D 2x2: [8, 16, 16, 8]) -> conv on 4 devices, all split by
  // samples: each device already holds its samples' input, whatever the upsampled size.
  const Json up = {{"type", "UpSampling2D"}, {"parents", {"data"}}, {"ksize", {1, 2, 2, 1}}};
  const Json spec = net_of({{"up", up}, {"conv", layer("Convolution", {"up"})}});
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  REQUIRE(n.layers[1].output == paleo::Shape({8, 16, 16, 8}));
  const paleo::StrategyProblem p = paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost,
                                                                cluster(1, 4, link(1.0, 20), link(5.0, 10)),
                                                                paleo::collective_settings(r.scenario.device, 1));
  CHECK(paleo::transfer_entry_bytes(p, 0, {4, 1, 1, 1}, 1, {4, 1, 1, 1}) == 0);
  CHECK(paleo::transfer_entry_ms(p, 0, {4, 1, 1, 1}, 1, {4, 1, 1, 1}) == 0);
  // From one device, the other three lack their samples' 6 x 512 input elements.
  CHECK(paleo::transfer_entry_bytes(p, 0, {1, 1, 1, 1}, 1, {4, 1, 1, 1}) == 6 * 512.0 * 4);
}

TEST_CASE("one weird trick: samples split up to the first dense layer, channels from it on", "[search]") {
  // conv -> pool -> fc6 (a convolution over the whole 8x8 map: one output position) -> fc7.
  Json fc6 = layer("Convolution", {"pool"});
  fc6["filter"] = {8, 8, 8, 16};
  fc6["padding"] = "VALID";
  const Json fc7 = {{"type", "InnerProduct"}, {"parents", {"fc6"}}, {"num_outputs", 8}};
  const Json spec = net_of({{"conv", layer("Convolution", {"data"})}, {"pool", layer("Pooling", {"conv"})},
                            {"fc6", fc6}, {"fc7", fc7}});
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  const paleo::StrategyProblem p = paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost,
                                                                cluster(1, 4, link(1.0, 20), link(5.0, 10)),
                                                                paleo::collective_settings(r.scenario.device, 1));
  const std::vector<int> owt = paleo::one_weird_trick_strategy(p);
  const paleo::StrategyConfig samples{4, 1, 1, 1}, channels{1, 4, 1, 1};
  for (std::size_t i = 0; i < n.layers.size(); ++i) {
    INFO(n.layers[i].name);
    const paleo::StrategyConfig& c = p.configs[i][static_cast<std::size_t>(owt[i])];
    CHECK(c == (n.layers[i].name == "fc6" || n.layers[i].name == "fc7" ? channels : samples));
  }
}

TEST_CASE("search takes collective auto or parameter_server, nothing else", "[search]") {
  Json q = {{"command", "search"}, {"net", "alexnet_owt"}, {"devices", 4}, {"devices_per_node", 4}, {"batch_size", 32}};
  const Json all_reduce = paleo::handle_request(q);
  q["collective"] = "parameter_server";
  const Json server = paleo::handle_request(q);
  REQUIRE(all_reduce["ok"].get<bool>());
  REQUIRE(server["ok"].get<bool>());
  // Three messages of every layer's gradients through one device cost more than an all-reduce.
  CHECK(server["data_parallel_step_ms"].get<double>() > all_reduce["data_parallel_step_ms"].get<double>());
  q["collective"] = "ring";
  const Json ring = paleo::handle_request(q);
  CHECK_FALSE(ring["ok"].get<bool>());
  CHECK(ring["error"]["field"] == "collective");
}

TEST_CASE("overlapped step: each layer's exchange waits for its gradients and for the channel", "[search]") {
  // data -> a -> b, sample-split on 4 devices of one node (no transfers between them). With the
  // tables set by hand (ms): a forward 2, backward 4, exchange 5; b forward 1, backward 3,
  // exchange 6. Backward runs b then a: b's gradients are ready at 3, its exchange ends at 9; a's
  // are ready at 7, its exchange starts when the channel frees at 9 and ends at 14. Step =
  // forward 3 + 14 = 17; Equation 1 adds everything: 3 + 7 + 11 = 21.
  const Json spec = net_of({{"a", layer("Convolution", {"data"})}, {"b", layer("Convolution", {"a"})}});
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", spec}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  const paleo::Cluster c = cluster(1, 4, link(1.0, 20), link(1.0, 20));
  paleo::StrategyProblem p = paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost, c,
                                                          paleo::collective_settings(r.scenario.device, 1));
  const std::vector<int> dp = paleo::uniform_strategy(p, {4, 1, 1, 1});
  const double fwd[] = {0, 2, 1}, bwd[] = {0, 4, 3}, sync[] = {0, 5, 6};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto k = static_cast<std::size_t>(dp[i]);
    REQUIRE(p.configs[i][k] == (paleo::StrategyConfig{4, 1, 1, 1}));
    p.compute_ms[i][k] = fwd[i] + bwd[i];
    p.backward_ms[i][k] = bwd[i];
    p.sync_ms[i][k] = sync[i];
  }
  CHECK(paleo::strategy_cost(p, dp) == Approx(21).epsilon(1e-12));
  CHECK(paleo::overlapped_strategy_cost(p, dp) == Approx(17).epsilon(1e-12));
}

TEST_CASE("search with overlap: never slower than without, and never slower than data parallelism", "[search]") {
  Json q = {{"command", "search"}, {"net", "vgg16"}, {"device", "P100_SXM2"}, {"devices", 8},
            {"devices_per_node", 4}, {"batch_size", 32}, {"collective", "parameter_server"}};
  const Json plain = paleo::handle_request(q);
  q["overlap"] = true;
  const Json overlapped = paleo::handle_request(q);
  REQUIRE(plain["ok"].get<bool>());
  REQUIRE(overlapped["ok"].get<bool>());
  CHECK_FALSE(plain["overlap"].get<bool>());
  CHECK(overlapped["overlap"].get<bool>());
  CHECK(overlapped["data_parallel_step_ms"].get<double>() < plain["data_parallel_step_ms"].get<double>());
  CHECK(overlapped["step_ms"].get<double>() <= plain["step_ms"].get<double>() + 1e-9);
  CHECK(overlapped["speedup_over_data_parallel"].get<double>() >= 1.0 - 1e-12);
}
