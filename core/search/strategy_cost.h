#pragma once
// Layer-wise parallelism (Jia, Lin, Qi & Aiken, ICML 2018, "OptCNN"): the configurations of a
// layer, and the three costs of the paper's Equation 1 on Paleo's layer and cluster models
// (docs/layerwise.md).
#include <cstdint>
#include <string>
#include <vector>

#include "core/cluster/collectives.h"
#include "core/cluster/gradient_exchange.h"
#include "core/cost/cost_model.h"
#include "core/cost/layer_cost.h"
#include "core/spec/network.h"
#include "core/search/strategy_transfer.h"

namespace paleo {

// Degrees of parallelism along the output's sample, channel, height and width dimensions;
// the parts go to devices 0 .. n*c*h*w - 1.
struct StrategyConfig {
  std::int64_t n = 1, c = 1, h = 1, w = 1;
  std::int64_t degree() const { return n * c * h * w; }
  bool operator==(const StrategyConfig& o) const { return n == o.n && c == o.c && h == o.h && w == o.w; }
  std::string to_string() const;
};

struct StrategyProblem {
  const Network* net = nullptr;
  CostModel model;
  CostOptions options;
  Cluster cluster;  // devices 0 .. D-1, devices_per_node to a node
  CollectiveSettings sync;
  // t_s: the fastest all-reduce (inside a node, or hierarchical across nodes), or OptCNN's
  // per-layer parameter server (docs/layerwise.md).
  GradientExchange exchange = GradientExchange::kAllReduce;
  std::int64_t devices = 1;
  // Per layer (Network::layers position): its configurations and their t_c + t_s.
  std::vector<std::vector<StrategyConfig>> configs;
  std::vector<std::vector<double>> compute_ms;  // t_c: forward + backward of the slowest part
  std::vector<std::vector<double>> backward_ms; // the backward share of t_c
  std::vector<std::vector<double>> sync_ms;     // t_s: all-reduce of the replicated parameters
  std::vector<std::vector<double>> sync_bytes;  // the bytes that exchange moves (strategy_traffic.h)
  TransferTables transfer;                      // t_x of every edge for every pair of configurations
};

// The configurations a layer may take on `devices` devices (docs/layerwise.md: which
// dimensions each type splits; square spatial splits; every degree within its dimension).
std::vector<StrategyConfig> layer_configs(const Layer& layer, long devices);

// The search's work: the configuration pairs priced along the net's edges (t_x of every pair)
// times the devices each pair's parts cover. Throws paleo::Error naming "devices" past
// kMaxSearchWork (docs/api.md, "Limits").
void check_search_space(const StrategyProblem& p);

// Builds the problem: configurations, node costs and edge costs of every layer; checks the
// search's size (check_search_space) before pricing anything.
StrategyProblem make_strategy_problem(const Network& net, const CostModel& model, const CostOptions& options,
                                      const Cluster& cluster, const CollectiveSettings& sync,
                                      GradientExchange exchange = GradientExchange::kAllReduce);

// t_x of the edge producer -> consumer (positions in the network) for a pair of configurations:
// the slowest device's incoming bytes over the link they cross, plus one latency.
double transfer_ms(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                   const StrategyConfig& b);

// The step of a full assignment when each layer's t_s overlaps the backward passes after it
// (wait-free backpropagation on one communication channel, docs/layerwise.md): the layers'
// forward shares and the transfers in sequence, then the backward passes in reverse order, each
// layer's exchange starting when its gradients are ready and the channel is free.
double overlapped_strategy_cost(const StrategyProblem& p, const std::vector<int>& choice);

// Equation 1 for a full assignment (config index per layer), from the problem's tables, plus the
// software era's time per step outside any layer (step_overhead_ms).
double strategy_cost(const StrategyProblem& p, const std::vector<int>& choice);

}  // namespace paleo
