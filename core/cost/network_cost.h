#pragma once
// Whole-network time: per-pass sums (plain, "pipelined", branch-parallel) and the weight update.
#include <vector>

#include "core/cost/layer_cost.h"
#include "core/spec/network.h"

namespace paleo {

struct BranchBounds {
  double lower_ms = 0;  // parallel branches cost their maximum
  double upper_ms = 0;  // parallel branches cost their sum
};

struct PassTotals {
  double comp_ms = 0;
  double mem_ms = 0;
  double total_ms = 0;
  double pipelined_ms = 0;  // sum over layers of max(comp, comm)
  BranchBounds branches;
};

struct NetworkCost {
  std::vector<LayerCost> layers;  // per Network::layers position
  PassTotals forward, backward;
  PassCost update;
  double params = 0;
  double params_bytes = 0;
  double activation_bytes = 0;
  double forward_flops = 0;
  PrecisionPolicy precision;  // the formats it was costed in (memory footprint, gradient sync)
};

// Bytes of the network's gradients in the format they are reduced in (the policy's grad_reduce;
// fp32 keeps params_bytes).
double gradient_bytes(const NetworkCost& cost);

// Bounds of a nested sequence given a time per layer position (0 for layers left out).
// Nested branches (a branch that forks again) are handled recursively.
BranchBounds branch_bounds(const Branch& nested, const std::vector<double>& layer_ms);

// The weight update of `params_bytes` of parameters. SGD (the original): read weights, read
// gradients, write weights, 2 FLOPs per parameter; momentum and Adam also read and write their
// one or two state tensors.
PassCost update_cost(const CostModel& model, double params_bytes, Optimizer optimizer = Optimizer::kSgd);

NetworkCost network_cost(const Network& net, const CostModel& model, const CostModel& update_model,
                         const CostOptions& options);

// Which model to cost the update with: PPP 1.0 under paleo2017 (update_at_unit_ppp).
CostModel update_model_for(const CostModel& model);

}  // namespace paleo
