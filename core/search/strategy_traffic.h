#pragma once
// The data a layer-wise strategy moves per step (docs/layerwise.md, "Traffic"): what OptCNN's
// Figure 8 plots, beside the time that Equation 1 prices.
#include <vector>

#include "core/cluster/gradient_exchange.h"

namespace paleo {

struct StrategyProblem;

// Bytes one layer's gradient exchange moves among `replicas` copies of `gradient_bytes`: through
// a parameter server every replica pushes its gradients and pulls the parameters back (2 x
// replicas x bytes: the server's own copy counted, as Figure 8's data-parallel bars are); a ring
// all-reduce sends 2 (r - 1) / r of the bytes from each of the r replicas.
double exchange_bytes(GradientExchange exchange, long replicas, double gradient_bytes);

// Bytes a full assignment (config index per layer) moves per step: every layer's exchange, plus
// on every edge what each consumer device lacks of its producer's output, sent forward as
// activations and back as their gradients.
double strategy_traffic_bytes(const StrategyProblem& p, const std::vector<int>& choice);

}  // namespace paleo
