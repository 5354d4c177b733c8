// Speed of the transformer model through the JSON API: one estimate (Llama 3 8B on 64 H100s)
// and the planner for GPT-3 175B on 1024 A100 80 GB (global batch 1536, sequence 2048), and a
// serving estimate of Llama 3 70B on 8 H100s at a request rate (the concurrency solved for it).
// Targets: the plan under 1 s natively and in the page; a serving re-estimate under 5 ms.
#include <benchmark/benchmark.h>

#include <string>

#include "core/api.h"

namespace {

using Json = nlohmann::ordered_json;

void BM_TransformerEstimate(benchmark::State& state) {
  const std::string request =
      Json{{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"nodes", 8}, {"devices_per_node", 8},
           {"precision", "bf16"}, {"tp", 8}, {"global_batch", 512}, {"seq_len", 8192}, {"recompute", "selective"},
           {"zero", 1}}.dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

void BM_TransformerPlan(benchmark::State& state) {
  const std::string request = Json{{"command", "plan"}, {"net", "gpt3_175b"}, {"device", "A100_80GB_SXM"},
                                   {"devices", 1024}, {"devices_per_node", 8}, {"global_batch", 1536},
                                   {"seq_len", 2048}, {"precision", "bf16"}}.dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

void BM_ServingAtRequestRate(benchmark::State& state) {
  const std::string request = Json{{"command", "inference"}, {"net", "llama3_70b"}, {"device", "H100_SXM"},
                                   {"tp", 8}, {"prompt_len", 2048}, {"generate_len", 256},
                                   {"request_rate", 3}}.dump();
  for (auto _ : state) {
    std::string response = paleo::handle_request_json(request);
    benchmark::DoNotOptimize(response);
  }
}

}  // namespace

BENCHMARK(BM_ServingAtRequestRate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TransformerEstimate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TransformerPlan)->Unit(benchmark::kMillisecond);
