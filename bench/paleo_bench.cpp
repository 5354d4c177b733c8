// Speed of the model: a full `simulate` (weak and strong, workers 1..128, all four schemes),
// through the core and through the JSON API. Target: < 2 ms for inception_v3 natively.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/api.h"
#include "core/api_request.h"
#include "core/simulation.h"

namespace {

using Json = nlohmann::ordered_json;

Json simulate_request(const std::string& net, const std::string& device) {
  return {{"command", "simulate"}, {"net", net}, {"device", device}, {"network", "ethernet"},
          {"batch_size", 128}, {"conv_algorithm", "gemm"},
          {"workers", {1, 2, 4, 8, 16, 32, 64, 128}}, {"scaling", {"weak", "strong"}}};
}

void BM_SimulateCore(benchmark::State& state, const std::string& net) {
  const paleo::Request request = paleo::parse_request(simulate_request(net, "K40"));
  for (auto _ : state) {
    auto tables = paleo::simulate_data_parallel(request.scenario, request.workers, request.scalings);
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

BENCHMARK_CAPTURE(BM_SimulateCore, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateCore, vgg16, std::string("vgg16"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateJsonApi, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimulateJsonApi, vgg16, std::string("vgg16"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EstimateJsonApi, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
