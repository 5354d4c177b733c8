#include "core/cost/network_cost.h"

#include <algorithm>
#include <cmath>

namespace paleo {
namespace {

PassTotals sum_pass(const Network& net, const std::vector<LayerCost>& costs, PassCost LayerCost::*pass) {
  PassTotals t;
  std::vector<double> per_layer(costs.size());
  for (std::size_t i = 0; i < costs.size(); ++i) {
    const PassCost& c = costs[i].*pass;
    t.comp_ms += c.comp_ms;
    t.mem_ms += c.mem_ms;
    t.total_ms += c.total_ms();
    t.pipelined_ms += c.pipelined_ms();
    per_layer[i] = c.total_ms();
  }
  t.branches = branch_bounds(net.nested, per_layer);
  return t;
}

}  // namespace

double gradient_bytes(const NetworkCost& cost) {
  return cost.params_bytes / 4 * dtype_bytes(cost.precision.grad_reduce);
}

BranchBounds branch_bounds(const Branch& nested, const std::vector<double>& layer_ms) {
  BranchBounds b;
  for (const Step& step : nested.steps) {
    if (step.layer >= 0) {
      b.lower_ms += layer_ms[step.layer];
      b.upper_ms += layer_ms[step.layer];
      continue;
    }
    double widest = 0;
    for (const Branch& sub : step.branches) {
      BranchBounds s = branch_bounds(sub, layer_ms);
      widest = std::max(widest, s.lower_ms);
      b.upper_ms += s.upper_ms;
    }
    b.lower_ms += widest;
  }
  return b;
}

PassCost update_cost(const CostModel& model, double params_bytes, Optimizer optimizer) {
  // FLOPs per parameter and tensor passes (reads + writes) of each optimizer.
  double flops_per_param = 2, passes = 3;
  if (optimizer == Optimizer::kMomentum) {
    flops_per_param = 4;
    passes = 5;
  } else if (optimizer == Optimizer::kAdam) {
    flops_per_param = 12;
    passes = 7;
  }
  PassCost cost;
  // The original's integer division of bytes by 4.
  model.add_comp(cost, flops_per_param * std::floor(params_bytes / 4));
  // The original floors one term and multiplies it.
  cost.mem_ms = passes * model.mem_ms(params_bytes);
  cost.bytes = passes * params_bytes;
  if (model.per_kernel()) {  // one fused, memory-bound kernel
    cost.overlapped_ms = std::min(cost.comp_ms, cost.mem_ms);
    // The update runs once per step: the runtime's per-step time is charged with it.
    cost.comp_ms += model.launch_ms(cost.total_ms()) + model.step_overhead_ms();
  }
  return cost;
}

CostModel update_model_for(const CostModel& model) {
  if (!model.profile().update_at_unit_ppp) return model;
  return model.with_ppp(1.0, 1.0);
}

NetworkCost network_cost(const Network& net, const CostModel& model, const CostModel& update_model,
                         const CostOptions& options) {
  NetworkCost out;
  out.precision = model.precision();
  out.layers.reserve(net.layers.size());
  const std::vector<BatchNormFusion> fusion = layer_fusion(net, options);
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    const Layer& l = net.layers[i];
    out.layers.push_back(layer_cost(net, l, model, options, fusion[i]));
    out.params += static_cast<double>(l.params);
    out.params_bytes += l.weights_bytes;
    out.activation_bytes += product(l.output) * model.activation_bytes();
    out.forward_flops += out.layers.back().forward.flops;
  }
  out.forward = sum_pass(net, out.layers, &LayerCost::forward);
  out.backward = sum_pass(net, out.layers, &LayerCost::backward);
  out.update = update_cost(update_model, out.params_bytes, options.optimizer);
  return out;
}

}  // namespace paleo
