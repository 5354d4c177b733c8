#include "core/cost/recurrent_cost.h"

#include "core/cost/layer_cost.h"

namespace paleo {
namespace {

void scale(PassCost& c, double k) {
  c.comp_ms *= k;
  c.mem_ms *= k;
  c.flops *= k;
  c.bytes *= k;
}

// (a x b) by (b x c), `times` times: the inner product's cost (layer_cost.h), repeated.
void matmul(PassCost& cost, const CostModel& model, double a, double b, double c, int weight, double times = 1) {
  PassCost one = matmul_cost(model, a, b, c, weight);
  scale(one, times);
  cost += one;
}

// The gate arithmetic of T steps of N x H units: fused, one read of the G pre-activations (and the
// cell) and one write of h (and the cell) per step; unfused, every operation reads two operands and
// writes one. `factor` 2 for the backward pass.
void gates(PassCost& cost, const CostModel& model, const Layer& l, double factor) {
  const double n = static_cast<double>(l.output[0]), t = static_cast<double>(l.output[1]);
  const double h = static_cast<double>(l.rnn_units), g = static_cast<double>(l.rnn_gates);
  const double units = n * t * h;
  model.add_comp(cost, factor * units * recurrent_elementwise_flops_per_unit(l.rnn_gates));
  const double cell = l.rnn_gates == 4 ? 2 : 0;
  const double values = l.rnn_fused ? units * (g + 1 + cell) : units * 3 * (recurrent_kernels_per_step(l.rnn_gates, false) - 1);
  model.add_mem(cost, factor * values * model.activation_bytes());
}

}  // namespace

double recurrent_elementwise_flops_per_unit(Dim gates) { return gates == 4 ? 13 : gates == 3 ? 11 : 2; }

double recurrent_kernels_per_step(Dim gates, bool fused) {
  if (fused) return 2;  // the recurrent product and one fused cell kernel
  return 1 + (gates == 4 ? 9 : gates == 3 ? 8 : 2);
}

RecurrentPasses recurrent_passes(const Layer& l, const CostModel& model) {
  RecurrentPasses p;
  const double n = static_cast<double>(l.output[0]), t = static_cast<double>(l.output[1]);
  const double in = static_cast<double>(l.inputs[0][2]), h = static_cast<double>(l.rnn_units);
  const double gh = static_cast<double>(l.rnn_gates) * h;
  // Forward: x W_x for all steps at once, then h_{t-1} W_h and the gates step by step.
  matmul(p.forward, model, n * t, in, gh, 2);
  matmul(p.forward, model, n, h, gh, 2, t);
  gates(p.forward, model, l, 1);
  // Data gradient: back through the gates and dh_{t-1} = d(gates) W_h^T step by step, then dx for
  // all steps (none when the layer reads the net's input).
  gates(p.backward_data, model, l, 2);
  matmul(p.backward_data, model, n, gh, h, 2, t);
  if (l.backprop) matmul(p.backward_data, model, n * t, gh, in, 2);
  // Filter gradients over all steps: dW_x = x^T d(gates), dW_h = h^T d(gates).
  matmul(p.backward_filter, model, in, n * t, gh, 3);
  matmul(p.backward_filter, model, h, n * t, gh, 3);
  if (model.per_kernel()) {
    // Every step launches its kernels (T x kernels per step, and one more product for all
    // steps); the caller charges each pass one launch.
    const double launches = t * recurrent_kernels_per_step(l.rnn_gates, l.rnn_fused);
    p.forward.comp_ms += model.launch_ms(p.forward.total_ms(), launches);
    p.backward_data.comp_ms += model.launch_ms(p.backward_data.total_ms(), launches - (l.backprop ? 0 : 1));
    p.backward_filter.comp_ms += model.launch_ms(p.backward_filter.total_ms());
  }
  return p;
}

double recurrent_saved_values(const Layer& l) {
  if (l.kind != LayerKind::kRecurrent) return 0;
  const double steps = static_cast<double>(l.output[0]) * static_cast<double>(l.output[1]);
  const double h = static_cast<double>(l.rnn_units);
  return steps * h * (static_cast<double>(l.rnn_gates) + (l.rnn_gates == 4 ? 1 : 0));
}

}  // namespace paleo
