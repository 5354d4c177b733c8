#pragma once
// The OptCNN search (Algorithm 1): node and edge eliminations until the graph is reduced, an
// enumeration of the reduced graph, and the eliminations undone to recover every layer's
// configuration. Plus the exhaustive search that serves as its oracle on small graphs.
#include <cstdint>
#include <string>
#include <vector>

#include "core/search/strategy_cost.h"

namespace paleo {

struct StrategyResult {
  std::vector<int> choice;  // configuration index per layer
  double cost_ms = 0;       // Equation 1
  bool reduced = true;      // the reduced graph was small enough to enumerate
  std::int64_t remaining_nodes = 0; // K, nodes left after the eliminations
  std::int64_t node_eliminations = 0;
  std::int64_t edge_eliminations = 0;
  std::string message;
};

// Enumerates at most this many assignments of the reduced graph before falling back.
constexpr double kMaxEnumeration = 2e6;

StrategyResult optimal_strategy(const StrategyProblem& problem);

// Every assignment; only for graphs with at most `max_assignments` of them.
StrategyResult exhaustive_strategy(const StrategyProblem& problem, double max_assignments = 5e6);

// The same configuration for every layer that has it (else its sample split of the same
// degree, else no split): data parallelism is {n = D}.
std::vector<int> uniform_strategy(const StrategyProblem& problem, const StrategyConfig& config);

// Krizhevsky's "one weird trick" (2014), OptCNN's OWT baseline: data parallelism up to the first
// fully-connected layer (or convolution with a single output position), model (channel)
// parallelism from it on, on all the devices.
std::vector<int> one_weird_trick_strategy(const StrategyProblem& problem);

}  // namespace paleo
