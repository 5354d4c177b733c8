#include "core/search/strategy_traffic.h"

#include "core/search/strategy_cost.h"

namespace paleo {

double exchange_bytes(GradientExchange exchange, long replicas, double gradient_bytes) {
  if (replicas <= 1) return 0;
  const double r = static_cast<double>(replicas);
  return exchange == GradientExchange::kParameterServer ? 2 * r * gradient_bytes : 2 * (r - 1) * gradient_bytes;
}

double strategy_traffic_bytes(const StrategyProblem& p, const std::vector<int>& choice) {
  const auto& layers = p.net->layers;
  double total = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto c = static_cast<std::size_t>(choice[i]);
    total += p.sync_bytes[i][c];
    for (int parent : layers[i].parents) {
      const auto from = static_cast<std::size_t>(parent);
      total += 2 * transfer_entry_bytes(p, parent, p.configs[from][static_cast<std::size_t>(choice[from])],
                                        static_cast<int>(i), p.configs[i][c]);
    }
  }
  return total;
}

}  // namespace paleo
