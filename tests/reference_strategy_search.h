#pragma once
// The layer-wise search as it was before the strategy cost was restructured (one box
// intersection per device for every configuration pair of every edge), kept verbatim as the
// reference the restructured search must match. Compiled into the tests only.
#include <string>
#include <vector>

#include "core/cluster/collectives.h"
#include "core/cost/cost_model.h"
#include "core/cost/layer_cost.h"
#include "core/spec/network.h"
#include "core/search/strategy_cost.h"

namespace paleo::reference {

using paleo::StrategyConfig;

struct StrategyProblem {
  const Network* net = nullptr;
  CostModel model;
  CostOptions options;
  Cluster cluster;
  CollectiveSettings sync;
  long devices = 1;
  std::vector<std::vector<StrategyConfig>> configs;
  std::vector<std::vector<double>> compute_ms;
  std::vector<std::vector<double>> sync_ms;
};

struct StrategyResult {
  std::vector<int> choice;
  double cost_ms = 0;
  bool reduced = true;
  long remaining_nodes = 0;
  long node_eliminations = 0;
  long edge_eliminations = 0;
  std::string message;
};

constexpr double kMaxEnumeration = 2e6;

std::vector<StrategyConfig> layer_configs(const Layer& layer, long devices);
StrategyProblem make_strategy_problem(const Network& net, const CostModel& model, const CostOptions& options,
                                      const Cluster& cluster, const CollectiveSettings& sync);
double transfer_ms(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                   const StrategyConfig& b);
double strategy_cost(const StrategyProblem& p, const std::vector<int>& choice);
StrategyResult optimal_strategy(const StrategyProblem& problem);
std::vector<int> uniform_strategy(const StrategyProblem& problem, const StrategyConfig& config);

}  // namespace paleo::reference
