// Speed of the model (docs/performance.md): a full `simulate` (weak and strong, workers 1..128,
// all four schemes) through the core and through the JSON API, plain and cluster estimates, the
// layer-wise search alone and as the `search` request answers it.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/api.h"
#include "core/api/request.h"
#include "core/cluster/cluster_step.h"
#include "core/original/simulation.h"
#include "core/search/strategy_search.h"
#include "core/spec/presets.h"

namespace {

using Json = nlohmann::ordered_json;

Json simulate_request(const std::string& net, const std::string& device) {
  return {{"command", "simulate"}, {"net", net}, {"device", device}, {"interconnect", "ethernet"},
          {"batch_size", 128}, {"conv_algorithm", "gemm"},
          {"workers", {1, 2, 4, 8, 16, 32, 64, 128}}, {"scaling", {"weak", "strong"}}};
}

void BM_SimulateCore(benchmark::State& state, const std::string& net) {
  const paleo::Request request = paleo::parse_request(simulate_request(net, "K40"));
  for (auto _ : state) {
    auto tables = paleo::simulate_data_parallel(request.scenario, request.simulation.workers, request.simulation.scalings);
    benchmark::DoNotOptimize(tables);
  }
}

void BM_SimulateJsonApi(benchmark::State& state, const std::string& net) {
  const std::string request = simulate_request(net, "K40").dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

void BM_EstimateJsonApi(benchmark::State& state, const std::string& net) {
  const std::string request =
      Json{{"command", "estimate"}, {"net", net}, {"device", "TITAN_X"}, {"conv_algorithm", "gemm"}}.dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

// The estimate on V100s alone and on a cluster of 16 DGX-1 nodes (data parallelism: every
// all-reduce algorithm, the largest batch that fits, the step on 1, 2, 4, 8, 16 nodes).
Json v100_estimate(const std::string& net) {
  return {{"command", "estimate"}, {"net", net}, {"device", "V100_SXM2_16GB"}};
}

void BM_PlainEstimateV100(benchmark::State& state, const std::string& net) {
  const std::string request = v100_estimate(net).dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

void BM_ClusterEstimate(benchmark::State& state, const std::string& net) {
  Json r = v100_estimate(net);
  r["cluster"] = "dgx1_v100_edr";
  r["nodes"] = state.range(0);
  const std::string request = r.dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

// The `search` request as the page sends it: the search at `devices` plus the scaling plot's
// searches on 1, 2, 4, ... devices and the uniform strategies.
void BM_SearchJsonApi(benchmark::State& state, const std::string& net) {
  const std::string request = Json{{"command", "search"}, {"net", net}, {"devices", state.range(0)},
                                   {"devices_per_node", 4}, {"batch_size", 32}}.dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

// Every (nodes, devices per node, collective, bucket size) up to 1024 devices for inception_v3;
// items = configurations (each cluster_step prices all eight all-reduce algorithms).
void BM_ClusterSweep(benchmark::State& state) {
  Json request = simulate_request("inception_v3", "K40");
  request["cluster"] = {{"intra", {{"bandwidth_gb_per_s", 130}, {"latency_us", 0.7}}},
                        {"inter", {{"bandwidth_gb_per_s", 12.1}, {"latency_us", 1.5}}}};
  request["batch_size"] = 32;
  paleo::Request r = paleo::parse_request(request);
  paleo::ClusterOptions options;
  options.find_max_batch = false;
  long configurations = 0;
  for (auto _ : state) {
    for (long per_node : {1L, 2L, 4L, 8L})
      for (long nodes = 1; nodes * per_node <= 1024; nodes *= 2)
        for (double bucket : {1e6, 25.0 * 1024 * 1024, 1e8, 1e12}) {
          r.scenario.cluster.nodes = nodes;
          r.scenario.cluster.devices_per_node = per_node;
          options.bucket_bytes = bucket;
          paleo::ClusterStep step = paleo::cluster_step(r.scenario, options);
          benchmark::DoNotOptimize(step);
          configurations += static_cast<long>(step.options.size());
        }
  }
  state.SetItemsProcessed(configurations);
}

BENCHMARK(BM_ClusterSweep)->Unit(benchmark::kMillisecond);

// The layer-wise search (OptCNN) at per-device batch 32, 4 devices per node: building the
// configurations and costs, reducing, enumerating and recovering every layer's choice.
void BM_LayerwiseSearch(benchmark::State& state, const std::string& net) {
  const long devices = state.range(0);
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", net}, {"batch_size", 32}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, 32 * devices);
  paleo::Cluster c;
  c.devices_per_node = devices < 4 ? devices : 4;
  c.nodes = devices / c.devices_per_node;
  c.intra = paleo::Presets::instance().link("nvlink2_v100", "intra");
  c.inter = paleo::Presets::instance().link("infiniband_edr", "inter");
  for (auto _ : state) {
    const paleo::StrategyProblem p = paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost, c,
                                                                  paleo::collective_settings(r.scenario.device, 1));
    benchmark::DoNotOptimize(paleo::optimal_strategy(p));
  }
}

BENCHMARK_CAPTURE(BM_LayerwiseSearch, alex_v2, std::string("alex_v2"))->Arg(4)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LayerwiseSearch, vgg16, std::string("vgg16"))->Arg(4)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LayerwiseSearch, inception_v3, std::string("inception_v3"))->Arg(4)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateCore, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateCore, vgg16, std::string("vgg16"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateJsonApi, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateJsonApi, vgg16, std::string("vgg16"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EstimateJsonApi, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlainEstimateV100, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ClusterEstimate, inception_v3, std::string("inception_v3"))->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchJsonApi, alex_v2, std::string("alex_v2"))->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchJsonApi, vgg16, std::string("vgg16"))->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchJsonApi, inception_v3, std::string("inception_v3"))->Arg(64)->Unit(benchmark::kMillisecond);

// The whole validation suite, every case of every family (docs/validation.md): `paleo validate`.
void BM_ValidateSuite(benchmark::State& state) {
  const Json request = {{"command", "validate"}};
  for (auto _ : state) benchmark::DoNotOptimize(paleo::handle_request(request));
}

BENCHMARK(BM_ValidateSuite)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
