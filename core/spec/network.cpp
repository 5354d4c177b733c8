#include "core/spec/network.h"

#include <algorithm>
#include <unordered_map>

#include "core/base/checked_math.h"
#include "core/spec/conv_algorithm_names.h"
#include "core/base/error.h"

namespace paleo {
namespace {

const std::unordered_map<std::string, LayerKind>& kinds() {
  static const std::unordered_map<std::string, LayerKind> table = {
      {"Input", LayerKind::kInput},           {"Convolution", LayerKind::kConvolution},
      {"Deconvolution", LayerKind::kDeconvolution}, {"Pooling", LayerKind::kPooling},
      {"AvgPool", LayerKind::kPooling},       {"InnerProduct", LayerKind::kInnerProduct},
      {"Dropout", LayerKind::kDropout},       {"Concatenate", LayerKind::kConcatenate},
      {"Elementwise", LayerKind::kElementwise}, {"Softmax", LayerKind::kSoftmax},
      {"Sigmoid", LayerKind::kZeroCost},      {"Reshape", LayerKind::kReshape},
      {"UpSampling2D", LayerKind::kUpSampling}, {"Generic", LayerKind::kZeroCost},
      {"ReLU", LayerKind::kZeroCost},         {"ReLU6", LayerKind::kZeroCost},
      {"BatchNorm", LayerKind::kZeroCost},    {"LRN", LayerKind::kZeroCost},
      {"Scale", LayerKind::kZeroCost},        {"LayerNorm", LayerKind::kZeroCost},
      {"LSTM", LayerKind::kRecurrent},        {"GRU", LayerKind::kRecurrent},
      {"RNN", LayerKind::kRecurrent},
      {"MatMul", LayerKind::kMatMul},         {"GELU", LayerKind::kZeroCost},
  };
  return table;
}

Padding read_padding(const Json& params, const std::string& layer) {
  std::string p = read_string(params, "padding", layer);
  if (p == "VALID") return Padding::kValid;
  if (p == "SAME") return Padding::kSame;
  throw Error("must be \"VALID\" or \"SAME\", got \"" + p + "\"", layer, "padding");
}

// [1, a, b, 1] -> (a, b), all positive.
std::pair<Dim, Dim> read_window(const Json& params, const std::string& field, const std::string& layer) {
  Shape s = read_dims(params, field, layer, 4);
  element_count(s, layer, field);
  return {s[1], s[2]};
}

Shape read_filter(const Json& params, const std::string& layer, Dim input_channels, bool allow_infer) {
  Shape f = read_dims(params, "filter", layer, 4);
  if (allow_infer && f[2] == -1) f[2] = input_channels;
  element_count(f, layer, "filter");
  return f;
}

const Shape& single_input(const Layer& l) {
  if (l.inputs.size() != 1)
    throw Error("takes exactly one parent, got " + std::to_string(l.inputs.size()), l.name, "parents");
  return l.inputs[0];
}

const Shape& image_input(const Layer& l) {
  const Shape& in = single_input(l);
  if (in.size() != 4)
    throw Error("needs a 4-D input [N, H, W, C], got [" + shape_to_string(in) + "]", l.name, "parents");
  return in;
}

// A target shape with at most one -1, whose batch dimension follows the input's.
Shape infer_reshape(Shape target, const Shape& input, const std::string& layer, const std::string& field) {
  target[0] = input[0];
  const Dim total = element_count(input, layer, "parents");
  Dim known = 1;
  int unknown = -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if (target[i] <= 0) {
      throw Error("dimensions must be positive (one -1 allowed)", layer, field);
    } else {
      known = checked_multiply(known, target[i], field, kMaxElements, layer);
    }
  }
  if (unknown >= 0 && known > 0 && total % known == 0) target[unknown] = total / known;
  if (unknown >= 0 && target[unknown] == -1)
    throw Error("cannot infer -1: " + std::to_string(total) + " elements", layer, field);
  if (element_count(target, layer, field) != total)
    throw Error("[" + shape_to_string(target) + "] does not hold the input's " +
                    std::to_string(total) + " elements", layer, field);
  return target;
}

// A convolution may pin its own algorithm.
void read_conv_algorithm(Layer& l, const LayerSpec& spec) {
  if (!spec.params->contains("conv_algorithm")) return;
  l.conv_algorithm = read_string(*spec.params, "conv_algorithm", l.name);
  try {
    parse_conv_algorithm(l.conv_algorithm);
  } catch (const Error& e) {
    throw Error(e.detail(), l.name, "conv_algorithm");
  }
}

// "group": g splits the channels into g independent convolutions (g = Cin: depthwise).
Dim read_group(const Json& params, const Shape& filter, const std::string& layer) {
  if (!params.contains("group")) return 1;
  const Dim g = read_dim(params["group"], "group", layer);
  if (g <= 0) throw Error("must be a positive integer, got " + std::to_string(g), layer, "group");
  if (filter[2] % g != 0 || filter[3] % g != 0)
    throw Error(std::to_string(g) + " does not divide the input channels (" + std::to_string(filter[2]) +
                    ") and the output channels (" + std::to_string(filter[3]) + ")",
                layer, "group");
  return g;
}

// "bias": false drops the per-channel bias (convolutions followed by batch norm have none). The
// original's specs write the bias shape there ("bias": [64]), which keeps it.
bool read_bias(const Json& params, const std::string& layer) {
  if (!params.contains("bias")) return true;
  const Json& b = params["bias"];
  if (b.is_boolean()) return b.get<bool>();
  if (b.is_array()) return true;
  throw Error("must be true, false or the bias shape, got " + echo(b), layer, "bias");
}

void shape_convolution(Layer& l, const LayerSpec& spec) {
  read_conv_algorithm(l, spec);
  const Shape& in = image_input(l);
  Shape f = read_filter(*spec.params, l.name, in[3], /*allow_infer=*/true);
  if (spec.splits > 0) {
    f[3] /= spec.splits;
    if (f[3] == 0) throw Error("fewer output channels than model-parallel splits", l.name, "filter");
  }
  auto [sh, sw] = read_window(*spec.params, "strides", l.name);
  l.conv = make_conv(in, f, sh, sw, read_padding(*spec.params, l.name), 0, 0, l.name);
  l.conv.groups = read_group(*spec.params, f, l.name);
  l.output = l.conv.output;
  l.fused_activation = "relu";
  if (spec.params->contains("activation_fn")) {
    const Json& a = (*spec.params)["activation_fn"];
    l.fused_activation = a.is_string() ? a.get<std::string>() : "";
  }
  const Json& norm = spec.params->contains("normalizer_fn") ? (*spec.params)["normalizer_fn"] : Json();
  l.fused_batch_norm = norm.is_string() && norm.get<std::string>() == "batch_norm";
  const bool bias = read_bias(*spec.params, l.name);
  l.conv_bias = bias && !l.fused_batch_norm;
  l.params = f[0] * f[1] * (f[2] / l.conv.groups) * f[3] + (bias ? f[3] : 0);
  l.weights_bytes = 4 * l.params;
}

void shape_deconvolution(Layer& l, const LayerSpec& spec) {
  read_conv_algorithm(l, spec);
  const Shape& in = image_input(l);
  Shape f = read_filter(*spec.params, l.name, 0, /*allow_infer=*/false);
  if (read_group(*spec.params, f, l.name) != 1) throw Error("grouped deconvolutions are not modelled", l.name, "group");
  auto [sh, sw] = read_window(*spec.params, "strides", l.name);
  Shape out = read_dims(*spec.params, "output_shape", l.name, 4);
  out[0] = in[0];
  output_element_count(out, l.name, "output_shape");
  // The deconvolution is the transposed convolution from its output back to its input.
  l.conv = make_conv(out, f, sh, sw, read_padding(*spec.params, l.name), 0, 0, l.name);
  if (l.conv.output != in)
    throw Error("the transposed convolution of output_shape [" + shape_to_string(out) + "] gives [" +
                    shape_to_string(l.conv.output) + "], not the input [" + shape_to_string(in) + "]",
                l.name, "output_shape");
  ConvGeometry equivalent = data_gradient_conv(l.conv, l.name);
  if (equivalent.output != out)
    throw Error("the filter and strides cannot produce output_shape [" + shape_to_string(out) + "]",
                l.name, "output_shape");
  l.output = out;
  l.params = f[0] * f[1] * f[2] * f[3] + f[3];
  l.weights_bytes = 4 * l.params;
}

void shape_pooling(Layer& l, const LayerSpec& spec) {
  const Shape& in = image_input(l);
  auto [kh, kw] = read_window(*spec.params, "ksize", l.name);
  auto [sh, sw] = read_window(*spec.params, "strides", l.name);
  Dim oh = 0, ow = 0;
  if (read_padding(*spec.params, l.name) == Padding::kValid) {
    oh = in[1] - kh + 1 > 0 ? (in[1] - kh + sh) / sh : 0;
    ow = in[2] - kw + 1 > 0 ? (in[2] - kw + sw) / sw : 0;
  } else {
    oh = (in[1] + sh - 1) / sh;
    ow = (in[2] + sw - 1) / sw;
  }
  if (oh <= 0 || ow <= 0) throw Error("the window does not fit the input", l.name, "ksize");
  l.pool_kh = kh;
  l.pool_kw = kw;
  l.pool_sh = sh;
  l.pool_sw = sw;
  l.output = {in[0], oh, ow, in[3]};
}

// "axis": -1 applies the layer to the last dimension only ([N, T, D] -> [N, T, num_outputs], a
// transformer's projections); without it the input is flattened to [N, D] first, as the original.
bool read_last_axis(const Json& params, const std::string& layer) {
  if (!params.contains("axis")) return false;
  const Json& a = params["axis"];
  if (a.is_number_integer() && a.get<Dim>() == -1) return true;
  throw Error("must be -1 (the last dimension), got " + echo(a), layer, "axis");
}

void shape_inner_product(Layer& l, const LayerSpec& spec) {
  const Shape& in = single_input(l);
  Dim k = read_dim(require_field(*spec.params, "num_outputs", l.name), "num_outputs", l.name);
  if (k <= 0 || k > kMaxElements) throw Error("must be a positive integer", l.name, "num_outputs");
  if (read_last_axis(*spec.params, l.name) && in.size() > 2) {
    l.output = in;
    l.output.back() = k;
    output_element_count(l.output, l.name, "num_outputs");
  } else {
    const Dim features = element_count(in, l.name, "parents") / in[0];
    l.inputs[0] = {in[0], features};  // auto-flattened, as the original
    l.output = {in[0], k};
  }
  const Dim features = l.inputs[0].back();
  l.weights = {features, k};
  element_count(l.weights, l.name, "num_outputs");
  l.params = features * k + k;
  l.weights_bytes = 4 * l.params;
}

// LSTM (4 gates), GRU (3) and Elman RNN (1) over [N, T, I]: output [N, T, H]; weights as cuDNN
// and PyTorch keep them, G H (I + H) plus two bias vectors of G H.
void shape_recurrent(Layer& l, const LayerSpec& spec) {
  const Shape& in = single_input(l);
  if (in.size() != 3) throw Error("needs a [batch, steps, features] input, got [" + shape_to_string(in) + "]", l.name, "parents");
  const Dim h = read_dim(require_field(*spec.params, "num_units", l.name), "num_units", l.name);
  if (h <= 0 || h > (Dim{1} << 24)) throw Error("must be an integer from 1 to 16777216", l.name, "num_units");
  if (spec.params->contains("fused")) {
    const Json& f = (*spec.params)["fused"];
    if (!f.is_boolean()) throw Error("must be true or false", l.name, "fused");
    l.rnn_fused = f.get<bool>();
  }
  l.rnn_units = h;
  l.rnn_gates = l.type == "LSTM" ? 4 : l.type == "GRU" ? 3 : 1;
  l.output = {in[0], in[1], h};
  output_element_count(l.output, l.name, "num_units");
  const Dim gh = checked_multiply(l.rnn_gates, h, "num_units", kMaxElements, l.name);
  l.weights = {checked_add(in[2], h, "num_units", kMaxElements, l.name), gh};
  l.params = checked_add(checked_multiply(gh, l.weights[0], "num_units", kMaxElements, l.name), 2 * gh, "num_units",
                         kMaxElements, l.name);
  l.weights_bytes = 4 * l.params;
}

// The product of two activations, batched over the leading dimensions: [N, ..., M, K] x
// [N, ..., K, P] -> [N, ..., M, P] (attention's scores and its weighted sum of values). A leading
// dimension of 1 broadcasts. No parameters.
void shape_matmul(Layer& l) {
  if (l.inputs.size() != 2)
    throw Error("takes exactly two parents (A and B of A x B), got " + std::to_string(l.inputs.size()), l.name, "parents");
  const Shape& a = l.inputs[0];
  const Shape& b = l.inputs[1];
  if (a.size() < 3 || a.size() != b.size())
    throw Error("needs two inputs [N, ..., M, K] and [N, ..., K, P] of one rank, got [" + shape_to_string(a) + "] and [" +
                    shape_to_string(b) + "]", l.name, "parents");
  const std::size_t r = a.size();
  if (a[r - 1] != b[r - 2])
    throw Error("inner dimensions differ: [" + shape_to_string(a) + "] x [" + shape_to_string(b) + "]", l.name, "parents");
  l.output = a;
  for (std::size_t d = 1; d + 2 < r; ++d) {
    if (a[d] != b[d] && a[d] != 1 && b[d] != 1)
      throw Error("leading dimensions differ: [" + shape_to_string(a) + "] x [" + shape_to_string(b) + "]", l.name, "parents");
    l.output[d] = std::max(a[d], b[d]);
  }
  l.output[r - 1] = b[r - 1];
  output_element_count(l.output, l.name, "parents");
  l.weights = {a[r - 1], b[r - 1]};
}

// A free layer that only names its output's shape: Generic with "output_shape" (the batch
// follows the input), for operators that select or rearrange (an imported graph's Slice, Gather).
void shape_generic(Layer& l, const LayerSpec& spec) {
  const Shape& in = single_input(l);
  if (!spec.params->contains("output_shape")) {
    l.output = in;
    return;
  }
  Shape out = read_dims(*spec.params, "output_shape", l.name);
  if (out.empty()) throw Error("must be a non-empty list", l.name, "output_shape");
  out[0] = in[0];
  output_element_count(out, l.name, "output_shape");
  l.output = out;
}

void shape_concatenate(Layer& l, const LayerSpec& spec) {
  if (l.inputs.empty()) throw Error("needs at least one parent", l.name, "parents");
  Dim dim = read_dim(require_field(*spec.params, "dim", l.name), "dim", l.name);
  const Shape& first = l.inputs[0];
  if (dim < 0 || dim >= static_cast<Dim>(first.size()))
    throw Error("must index a dimension of the inputs", l.name, "dim");
  l.output = first;
  l.output[dim] = 0;
  for (const Shape& in : l.inputs) {
    bool same_rank = in.size() == first.size();
    for (std::size_t d = 0; same_rank && d < in.size(); ++d)
      if (static_cast<Dim>(d) != dim && in[d] != first[d]) same_rank = false;
    if (!same_rank)
      throw Error("inputs [" + shape_to_string(first) + "] and [" + shape_to_string(in) +
                      "] differ outside dimension " + std::to_string(dim), l.name, "parents");
    l.output[dim] = checked_add(l.output[dim], in[dim], "parents", kMaxElements, l.name);
  }
  output_element_count(l.output, l.name, "parents");
}

// Inputs of one rank whose dimensions agree or are 1 past the batch (broadcast, as NumPy and
// PyTorch do: a squeeze-and-excitation's [N, 1, 1, C] scale over its [N, H, W, C] features).
void shape_elementwise(Layer& l, const LayerSpec& spec) {
  if (l.inputs.empty()) throw Error("needs at least one parent", l.name, "parents");
  if (spec.params->contains("operation")) {
    const Json& op = (*spec.params)["operation"];
    if (!op.is_string() || (op != "sum" && op != "product"))
      throw Error("must be \"sum\" or \"product\"", l.name, "operation");
    l.elementwise_product = op == "product";
  }
  l.output = l.inputs[0];
  for (const Shape& in : l.inputs) {
    if (!broadcast_shapes(l.output, in, l.output))
      throw Error("inputs of shape [" + shape_to_string(l.output) + "] and [" + shape_to_string(in) +
                      "] neither match nor broadcast (a dimension past the batch may be 1)", l.name, "parents");
  }
}

// Batch norm learns a scale and a shift per channel (the last dimension); its running mean and
// variance are statistics, not parameters. The original's BatchNorm is a free Generic layer.
// Layer norm (over the last dimension of each sample) learns the same 2 C and is priced alike.
void shape_batch_norm(Layer& l, const ModelProfile& profile) {
  l.output = single_input(l);
  if (!profile.batch_norm_parameters) return;
  l.params = 2 * l.output.back();
  l.weights_bytes = 4 * l.params;
}

void shape_layer(Layer& l, const LayerSpec& spec, Dim batch_size, const ModelProfile& profile) {
  switch (l.kind) {
    case LayerKind::kInput: {
      if (!l.inputs.empty()) throw Error("an Input layer has no parents", l.name, "parents");
      Shape t = read_dims(*spec.params, "tensor", l.name);
      element_count(t, l.name, "tensor");
      t[0] = batch_size;
      element_count(t, l.name, "tensor");
      l.output = t;
      return;
    }
    case LayerKind::kConvolution: return shape_convolution(l, spec);
    case LayerKind::kDeconvolution: return shape_deconvolution(l, spec);
    case LayerKind::kPooling: return shape_pooling(l, spec);
    case LayerKind::kInnerProduct: return shape_inner_product(l, spec);
    case LayerKind::kRecurrent: return shape_recurrent(l, spec);
    case LayerKind::kConcatenate: return shape_concatenate(l, spec);
    case LayerKind::kElementwise: return shape_elementwise(l, spec);
    case LayerKind::kSoftmax: {
      const Shape& in = single_input(l);
      Dim classes = in.back();
      if (spec.params->contains("num_classes") && !(*spec.params)["num_classes"].is_null()) {
        classes = read_dim((*spec.params)["num_classes"], "num_classes", l.name);
        if (classes <= 0) throw Error("must be positive", l.name, "num_classes");
      }
      if (read_last_axis(*spec.params, l.name)) {  // over the last dimension: the shape stays
        l.output = in;
        return;
      }
      l.output = {in[0], classes};
      output_element_count(l.output, l.name, "num_classes");
      return;
    }
    case LayerKind::kReshape:
      l.output = infer_reshape(read_dims(*spec.params, "output_shape", l.name), single_input(l), l.name,
                               "output_shape");
      return;
    case LayerKind::kUpSampling: {
      const Shape& in = image_input(l);
      auto [kh, kw] = read_window(*spec.params, "ksize", l.name);
      // Each product checked before it is formed; then the whole tensor.
      l.output = {in[0], checked_multiply(in[1], kh, "ksize", kMaxElements, l.name),
                  checked_multiply(in[2], kw, "ksize", kMaxElements, l.name), in[3]};
      output_element_count(l.output, l.name, "ksize");
      return;
    }
    case LayerKind::kMatMul: return shape_matmul(l);
    case LayerKind::kDropout:
    case LayerKind::kZeroCost:
      if (l.type == "BatchNorm" || l.type == "LayerNorm") return shape_batch_norm(l, profile);
      if (l.type == "Generic") return shape_generic(l, spec);
      l.output = single_input(l);
      return;
  }
}

}  // namespace

const std::vector<std::string>& known_layer_types() {
  static const std::vector<std::string> names = {
      "Input", "Convolution", "Deconvolution", "Pooling", "AvgPool", "InnerProduct",
      "Dropout", "Concatenate", "Elementwise", "Softmax", "Sigmoid", "Reshape",
      "UpSampling2D", "Generic", "ReLU", "ReLU6", "BatchNorm", "LayerNorm", "LRN", "Scale", "LSTM", "GRU", "RNN", "MatMul", "GELU"};
  return names;
}

Dim spec_batch_size(const NetSpec& spec) {
  auto it = spec.index_of.find("data");
  if (it == spec.index_of.end()) throw Error("the network needs an input layer named 'data'", "data", "layers");
  const LayerSpec& data = spec.layers[it->second];
  if (data.type != "Input") throw Error("the layer 'data' must be of type Input", "data", "type");
  Shape t = read_dims(*data.params, "tensor", "data");
  element_count(t, "data", "tensor");
  return t[0];
}

Network build_network(const NetSpec& spec, const LayerGraph& graph, Dim batch_size, const ModelProfile& profile) {
  if (batch_size <= 0 || batch_size > kMaxElements) throw Error("must be a positive integer", "", "batch_size");
  Network net;
  net.name = spec.name;
  net.batch_size = batch_size;
  std::vector<int> position(spec.layers.size(), -1);
  for (std::size_t pos = 0; pos < graph.order.size(); ++pos) position[graph.order[pos]] = static_cast<int>(pos);
  net.layers.reserve(graph.order.size());
  for (int index : graph.order) {
    const LayerSpec& s = spec.layers[index];
    Layer l;
    l.name = s.name;
    l.type = s.type;
    auto kind = kinds().find(s.type);
    if (kind == kinds().end()) {
      std::string known;
      for (const std::string& k : known_layer_types()) known += (known.empty() ? "" : ", ") + k;
      throw Error("unknown layer type '" + s.type + "' (known: " + known + ")", s.name, "type");
    }
    l.kind = kind->second;
    if (l.kind == LayerKind::kInput && s.name != "data")
      throw Error("the only Input layer must be named 'data'", s.name, "type");
    l.on_split_device = s.on_split_device;
    l.split_device = s.split_device;
    l.split_index = s.split_index;
    l.backprop = std::find(s.parents.begin(), s.parents.end(), "data") == s.parents.end();
    for (int p : graph.parents[index]) {
      l.parents.push_back(position[p]);
      l.inputs.push_back(net.layers[position[p]].output);
    }
    shape_layer(l, s, batch_size, profile);
    net.layers.push_back(std::move(l));
  }
  // Re-index the nested structure from spec indices to topological positions.
  struct Remap {
    const std::vector<int>& position;
    void operator()(Branch& b) const {
      for (Step& step : b.steps) {
        if (step.layer >= 0) step.layer = position[step.layer];
        for (Branch& sub : step.branches) (*this)(sub);
      }
    }
  };
  net.nested = graph.nested;
  Remap{position}(net.nested);
  return net;
}

}  // namespace paleo
