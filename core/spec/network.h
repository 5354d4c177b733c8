#pragma once
// A network instantiated at one batch size: every layer with its input and output shapes,
// parameters and convolution geometry, in the original's topological order.
#include <cstdint>
#include <string>
#include <vector>

#include "core/spec/conv_geometry.h"
#include "core/spec/layer_graph.h"
#include "core/spec/model_profile.h"
#include "core/spec/net_spec.h"
#include "core/spec/shape.h"

namespace paleo {

// kZeroCost: layers that keep their input's shape and that the original treats as free
// (activations, BatchNorm, LRN, Scale, Generic); profiles with cost_memory_bound_layers cost them.
enum class LayerKind {
  kInput, kConvolution, kDeconvolution, kPooling, kInnerProduct, kDropout,
  kConcatenate, kElementwise, kSoftmax, kReshape, kUpSampling, kMatMul, kZeroCost, kRecurrent
};

struct Layer {
  std::string name;
  std::string type;  // as written in the spec
  LayerKind kind = LayerKind::kZeroCost;
  std::vector<int> parents;  // positions in Network::layers
  std::vector<Shape> inputs;
  Shape output;
  bool on_split_device = false;
  std::string split_device;
  std::int64_t split_index = 0;  // split_device as a number
  bool backprop = true;  // false when a parent is named "data": no gradient w.r.t. the input
  ConvGeometry conv;     // Convolution: itself. Deconvolution: its transposed convolution.
  Dim pool_kh = 0, pool_kw = 0, pool_sh = 1, pool_sw = 1;
  Shape weights;         // InnerProduct: [inputs, outputs]. MatMul: [K, P] of its second operand
  // A convolution's fused epilogue: activation_fn (absent = "relu", as the original's default;
  // null = none) and normalizer_fn "batch_norm". Costed only by profiles that cost them.
  std::string fused_activation;
  bool fused_batch_norm = false;
  // A convolution's per-channel bias ("bias", default true), unless a fused batch norm replaces it.
  bool conv_bias = false;
  // The layer's own "conv_algorithm" (a Paleo extension of the spec); empty = the request's.
  std::string conv_algorithm;
  Dim params = 0;
  Dim weights_bytes = 0;
  // LSTM, GRU, RNN (Elman) over the input's [N, T, I] time steps (core/cost/recurrent_cost.h).
  Dim rnn_units = 0;     // H
  Dim rnn_gates = 0;     // 4, 3, 1
  bool rnn_fused = true;  // one fused elementwise kernel per step, or one per operation
  // Elementwise: "operation": "product" multiplies the inputs (a squeeze-and-excitation's channel
  // scaling); the default "sum" adds them. Its backward pass reads the other inputs.
  bool elementwise_product = false;

  // The original's device id: the split number, or device 0.
  std::string device_id() const { return on_split_device ? split_device : "0"; }
};

struct Network {
  std::string name;
  Dim batch_size = 0;
  std::vector<Layer> layers;  // topological order
  Branch nested;              // Step::layer indices are positions in `layers`
};

// Layer type names understood by the spec reader, in the order docs list them.
const std::vector<std::string>& known_layer_types();

// The batch size written in the spec's Input layer.
Dim spec_batch_size(const NetSpec& spec);

// Instantiates the network at `batch_size` (> 0) under `profile` (which decides, for one, whether
// BatchNorm layers have parameters). Throws paleo::Error on bad layer fields.
Network build_network(const NetSpec& spec, const LayerGraph& graph, Dim batch_size,
                      const ModelProfile& profile = default_profile());

}  // namespace paleo
