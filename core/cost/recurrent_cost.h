#pragma once
// The passes of a recurrent layer (LSTM, GRU, Elman RNN) over T steps, unrolled for
// backpropagation through time: the input projection of all steps as one matrix product, one
// recurrent product and the gate arithmetic per step (in one fused kernel, or one kernel per
// operation), the same backward, and the weight gradients as two products over all steps.
// docs/model.md, "Recurrent layers".
#include "core/cost/cost_model.h"
#include "core/spec/network.h"

namespace paleo {

struct RecurrentPasses {
  PassCost forward, backward_data, backward_filter;
};

// Elementwise operations of one step per unit: LSTM 3 sigmoids, 2 tanh, 3 products, 1 sum and
// 4 bias adds (13); GRU 2 sigmoids, 1 tanh, 3 products, 2 sums, 3 bias adds (11, counted as
// cuDNN's GRU); Elman a bias add and a tanh (2). Unfused, each is a kernel of its own reading two
// operands and writing one: LSTM 9 kernels, GRU 8, Elman 2 per step.
double recurrent_elementwise_flops_per_unit(Dim gates);
double recurrent_kernels_per_step(Dim gates, bool fused);

RecurrentPasses recurrent_passes(const Layer& layer, const CostModel& model);

// Values BPTT keeps per layer beyond its output: the G gate activations of every step, and the
// LSTM's cell state.
double recurrent_saved_values(const Layer& layer);

}  // namespace paleo
