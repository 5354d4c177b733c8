#include "core/import/caffe_prototxt.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/base/error.h"
#include "core/import/prototxt_text.h"
#include "core/base/request_limits.h"
#include "core/spec/shape.h"

namespace paleo {
namespace {

// A blob's spatial size, tracked only to size global pooling windows.
struct BlobShape {
  bool image = false;
  Dim h = 0, w = 0;
};

// Old (V1) `layers { type: CONVOLUTION }` enum names.
const std::map<std::string, std::string>& v1_types() {
  static const std::map<std::string, std::string> types = {
      {"CONVOLUTION", "Convolution"}, {"POOLING", "Pooling"}, {"INNER_PRODUCT", "InnerProduct"},
      {"RELU", "ReLU"}, {"LRN", "LRN"}, {"CONCAT", "Concat"}, {"ELTWISE", "Eltwise"},
      {"DROPOUT", "Dropout"}, {"SOFTMAX", "Softmax"}, {"SOFTMAX_LOSS", "SoftmaxWithLoss"},
      {"DATA", "Data"}, {"ACCURACY", "Accuracy"}, {"SIGMOID", "Sigmoid"}, {"TANH", "TanH"},
      {"SPLIT", "Split"}, {"FLATTEN", "Flatten"}};
  return types;
}

// Caffe types with a Paleo type of the same cost (free in paleo2017) when not in place.
const std::map<std::string, std::string>& free_types() {
  static const std::map<std::string, std::string> types = {
      {"ReLU", "ReLU"}, {"LRN", "LRN"}, {"Sigmoid", "Sigmoid"}, {"BatchNorm", "BatchNorm"}, {"Scale", "Scale"}};
  return types;
}

class Converter {
 public:
  Converter(const std::string& field, bool as_original, std::vector<std::string>& warnings)
      : field_(field), as_original_(as_original), warnings_(warnings) {}

  Json convert(const TextMessage& net) {
    spec_["name"] = net.has("name") ? net.first("name")->scalar : std::string("caffe");
    spec_["layers"] = Json::object();
    root_input(net);
    const std::vector<const TextField*> layers = net.has("layer") ? net.all("layer") : net.all("layers");
    if (layers.size() > kMaxLayers)
      throw Error("has " + std::to_string(layers.size()) + " layers; the limit is " + std::to_string(kMaxLayers), "", field_);
    for (const TextField* l : layers) {
      if (!l->is_message) throw Error("line " + std::to_string(l->line) + ": 'layer' must be a message", "", field_);
      layer(l->message);
    }
    if (!spec_["layers"].contains("data"))
      throw Error("the prototxt gives no input shape: add input_dim (N, C, H, W), input_shape or an Input layer",
                  "", field_);
    if (!dropped_.empty()) {
      std::string list;
      for (const auto& [type, count] : dropped_) list += (list.empty() ? "" : ", ") + std::to_string(count) + " " + type;
      warnings_.push_back("in-place layers dropped as the original PALEO converter does (" + list + ")");
    }
    return spec_;
  }

 private:
  // --- field readers, naming the layer and field on bad values ---
  Dim integer(const TextField& f, const std::string& layer) const {
    if (f.is_message || f.quoted) throw Error("must be a number", layer, f.name);
    try {
      std::size_t used = 0;
      const long long v = std::stoll(f.scalar, &used);
      if (used == f.scalar.size() && v >= 0 && v <= kMaxElements) return v;
    } catch (const std::exception&) {
    }
    throw Error("must be an integer from 0 to 2^50, got '" + f.scalar + "'", layer, f.name);
  }
  std::optional<Dim> integer_field(const TextMessage& m, const std::string& name, const std::string& layer) const {
    const TextField* f = m.first(name);
    if (!f) return std::nullopt;
    return integer(*f, layer);
  }
  std::vector<Dim> integers(const TextMessage& m, const std::string& name, const std::string& layer) const {
    std::vector<Dim> out;
    for (const TextField* f : m.all(name)) out.push_back(integer(*f, layer));
    return out;
  }
  const TextMessage& message(const TextMessage& m, const std::string& name, const std::string& layer) const {
    static const TextMessage empty;
    const TextField* f = m.first(name);
    if (!f) return empty;
    if (!f->is_message) throw Error("must be a message { ... }", layer, name);
    return f->message;
  }
  std::string text(const TextMessage& m, const std::string& name, const std::string& layer) const {
    const TextField* f = m.first(name);
    if (!f) return "";
    if (f->is_message) throw Error("must be a string", layer, name);
    return f->scalar;
  }

    // (h, w) of a window field: `x` (one value for both, or two), or `base_h` and `base_w`.
  std::array<Dim, 2> pair(const TextMessage& p, const std::string& x, const std::string& base, Dim fallback,
                          const std::string& layer) const {
    const std::vector<Dim> v = integers(p, x, layer);
    if (!v.empty()) return {v[0], v.size() > 1 ? v[1] : v[0]};
    return {integer_field(p, base + "_h", layer).value_or(fallback), integer_field(p, base + "_w", layer).value_or(fallback)};
  }

  // --- the network ---
  void add_input(const std::string& blob, const std::vector<Dim>& dims, const std::string& layer) {
    if (spec_["layers"].contains("data")) throw Error("a second input; Paleo nets have one", layer, "input");
    Json tensor;
    if (dims.size() == 4) tensor = {dims[0], dims[2], dims[3], dims[1]};  // NCHW to NHWC
    else if (dims.size() == 2) tensor = {dims[0], dims[1]};
    else throw Error("must list 4 sizes (N, C, H, W) or 2 (N, D), got " + std::to_string(dims.size()), layer, "input_dim");
    spec_["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", tensor}};
    producer_[blob] = "data";
    shape_[blob] = dims.size() == 4 ? BlobShape{true, dims[2], dims[3]} : BlobShape{};
  }

  void root_input(const TextMessage& net) {
    std::vector<Dim> dims = integers(net, "input_dim", "input");
    if (dims.empty() && net.has("input_shape")) dims = integers(message(net, "input_shape", "input"), "dim", "input_shape");
    if (dims.empty()) return;
    const std::string blob = net.has("input") ? net.first("input")->scalar : "data";
    add_input(blob, dims, "input");
  }

  std::string parent_of(const std::string& blob, const std::string& layer) const {
    auto it = producer_.find(blob);
    if (it == producer_.end()) throw Error("bottom '" + blob + "' is the top of no earlier layer", layer, "bottom");
    return it->second;
  }

  static bool test_phase(const TextMessage& l) {
    const TextField* include = l.first("include");
    if (!include || !include->is_message) return false;
    const TextField* phase = include->message.first("phase");
    return phase && (phase->scalar == "TEST" || phase->scalar == "1");
  }

  void layer(const TextMessage& l) {
    std::string name = text(l, "name", "layer");
    if (name.empty()) throw Error("a layer has no name", "", "name");
    std::string type = text(l, "type", name);
    if (v1_types().count(type)) type = v1_types().at(type);
    if (test_phase(l)) return;
    const std::vector<std::string> bottoms = strings(l, "bottom", name);
    const std::vector<std::string> tops = strings(l, "top", name);

    if (type == "Input" || type == "Data") {
      const TextMessage& shape = message(message(l, "input_param", name), "shape", name);
      const std::vector<Dim> dims = integers(shape, "dim", name);
      if (dims.empty())
        throw Error("gives no input shape: add input_param { shape { dim: N dim: C dim: H dim: W } } or input_dim", name, "type");
      add_input(tops.empty() ? name : tops[0], dims, name);
      for (std::size_t i = 1; i < tops.size(); ++i) producer_[tops[i]] = "data";  // the label
      return;
    }
    const bool in_place = bottoms.size() == 1 && tops.size() == 1 && bottoms[0] == tops[0];
    Json params = {{"parents", Json::array()}};
    std::vector<std::string> used = bottoms;
    BlobShape in = bottoms.empty() ? BlobShape{} : shape_[bottoms[0]];
    BlobShape out = in;
    if (type == "Convolution") {
      out = convolution(l, name, in, params);
    } else if (type == "InnerProduct") {
      const TextMessage& p = message(l, "inner_product_param", name);
      params["type"] = "InnerProduct";
      params["num_outputs"] = require(p, "num_output", name);
      out = BlobShape{};
    } else if (type == "Pooling") {
      out = pooling(l, name, in, params);
    } else if (type == "Dropout") {
      params["type"] = "Dropout";
      const TextMessage& p = message(l, "dropout_param", name);
      params["dropout_keep_prob"] = 1.0 - (p.has("dropout_ratio") ? ratio(*p.first("dropout_ratio"), name) : 0.5);
    } else if (type == "Concat") {
      const TextMessage& p = message(l, "concat_param", name);
      long long axis = p.has("axis") ? signed_integer(*p.first("axis"), name) : p.has("concat_dim") ? integer(*p.first("concat_dim"), name) : 1;
      if (axis < 0) axis += 4;
      if (axis < 0 || axis > 3) throw Error("must be an axis of an NCHW blob (0 to 3 or -4 to -1)", name, "axis");
      static const int kNchwToNhwc[4] = {0, 3, 1, 2};
      params["type"] = "Concatenate";
      params["dim"] = kNchwToNhwc[axis];
    } else if (type == "Eltwise") {
      params["type"] = "Elementwise";
      // EltwiseParameter.operation: PROD (0) multiplies; SUM (1, the default) and MAX price alike.
      const std::string op = text(message(l, "eltwise_param", name), "operation", name);
      if (op == "PROD" || op == "0") params["operation"] = "product";
    } else if (type == "Softmax" || type == "SoftmaxWithLoss" || type == "Accuracy") {
      params["type"] = type == "Accuracy" ? "Generic" : "Softmax";
      if (type != "Softmax" && used.size() > 1) used.resize(1);  // the label is no input
      out = BlobShape{};
    } else if (in_place) {
      ++dropped_[type];
      return;
    } else if (free_types().count(type)) {
      params["type"] = free_types().at(type);
    } else {
      params["type"] = "Generic";
      warnings_.push_back("layer '" + name + "': Caffe type '" + type +
                          "' is not modelled; priced as a free Generic layer, as the original PALEO does");
    }
    if (used.empty()) throw Error("has no bottom", name, "bottom");
    if (params["type"] == "Generic" && used.size() > 1) used.resize(1);  // a free layer passes one input on
    for (const std::string& b : used) params["parents"].push_back(parent_of(b, name));
    if (spec_["layers"].contains(name)) throw Error("a second layer of this name", name, "name");
    spec_["layers"][name] = std::move(params);
    for (const std::string& t : tops) {
      producer_[t] = name;
      shape_[t] = out;
    }
  }

  std::vector<std::string> strings(const TextMessage& l, const std::string& field, const std::string& layer) const {
    std::vector<std::string> out;
    for (const TextField* f : l.all(field)) {
      if (f->is_message) throw Error("must be a blob name", layer, field);
      out.push_back(f->scalar);
    }
    return out;
  }

  long long signed_integer(const TextField& f, const std::string& layer) const {
    if (!f.scalar.empty() && f.scalar[0] == '-') {
      TextField positive = f;
      positive.scalar = f.scalar.substr(1);
      return -integer(positive, layer);
    }
    return integer(f, layer);
  }

  double ratio(const TextField& f, const std::string& layer) const {
    try {
      std::size_t used = 0;
      const double v = std::stod(f.scalar, &used);
      if (used == f.scalar.size() && v >= 0 && v < 1) return v;
    } catch (const std::exception&) {
    }
    throw Error("must be a number in [0, 1), got '" + f.scalar + "'", layer, f.name);
  }

  Dim require(const TextMessage& p, const std::string& field, const std::string& layer) const {
    const std::optional<Dim> v = integer_field(p, field, layer);
    if (!v || *v <= 0) throw Error("must be a positive integer", layer, field);
    return *v;
  }

  // Paleo's output sizes (core/conv_geometry, the pooling rule): SAME ceil(H/s), VALID ceil((H-k+1)/s).
  static BlobShape window_output(const BlobShape& in, Dim kh, Dim kw, Dim sh, Dim sw, bool same) {
    if (!in.image) return in;
    BlobShape out = in;
    out.h = same ? (in.h + sh - 1) / sh : (in.h - kh + sh) / sh;
    out.w = same ? (in.w + sw - 1) / sw : (in.w - kw + sw) / sw;
    return out;
  }

  BlobShape convolution(const TextMessage& l, const std::string& name, const BlobShape& in, Json& params) {
    const TextMessage& p = message(l, "convolution_param", name);
    const Dim cout = require(p, "num_output", name);
    const auto [kh, kw] = pair(p, "kernel_size", "kernel", 0, name);
    if (kh <= 0 || kw <= 0) throw Error("must be positive (kernel_size, or kernel_h and kernel_w)", name, "kernel_size");
    const auto [sh, sw] = pair(p, "stride", "stride", 1, name);
    if (sh <= 0 || sw <= 0) throw Error("must be positive", name, "stride");
    const auto [ph, pw] = pair(p, "pad", "pad", 0, name);
    const bool same = ph != 0 || pw != 0;
    last_window_ = {kh, kw};
    params["type"] = "Convolution";
    params["filter"] = {kh, kw, -1, cout};  // -1: the input's channels
    params["strides"] = {1, sh, sw, 1};
    params["padding"] = same ? "SAME" : "VALID";
    const Dim group = integer_field(p, "group", name).value_or(1);
    if (group != 1) params["group"] = group;
    return window_output(in, kh, kw, sh, sw, same);
  }

  BlobShape pooling(const TextMessage& l, const std::string& name, const BlobShape& in, Json& params) {
    const TextMessage& p = message(l, "pooling_param", name);
    const bool global = text(p, "global_pooling", name) == "true";
    Dim kh = 0, kw = 0;
    if (global && as_original_ && last_window_[0] > 0) {
      // The original reads no global_pooling: its window is the one of the convolution or
      // pooling before (a variable left over from that layer).
      kh = last_window_[0];
      kw = last_window_[1];
      warnings_.push_back("layer '" + name + "': global pooling takes the " + std::to_string(kh) + "x" + std::to_string(kw) +
                          " window of the layer before it, as the original PALEO converter did (paleo2017); "
                          "paleo2026 pools the whole map");
    } else if (global) {
      if (!in.image) throw Error("global pooling needs an image input", name, "global_pooling");
      kh = in.h;
      kw = in.w;
    } else {
      const auto k = pair(p, "kernel_size", "kernel", 0, name);
      kh = k[0];
      kw = k[1];
      if (kh <= 0 || kw <= 0) throw Error("must be positive (kernel_size, or kernel_h and kernel_w)", name, "kernel_size");
    }
    const auto [sh, sw] = pair(p, "stride", "stride", 1, name);
    if (sh <= 0 || sw <= 0) throw Error("must be positive", name, "stride");
    const auto [ph, pw] = pair(p, "pad", "pad", 0, name);
    const bool same = !global && (ph != 0 || pw != 0);
    last_window_ = {kh, kw};
    const std::string pool = text(p, "pool", name);
    params["type"] = pool == "AVE" || pool == "1" ? "AvgPool" : "Pooling";
    params["ksize"] = {1, kh, kw, 1};
    params["strides"] = {1, sh, sw, 1};
    params["padding"] = same ? "SAME" : "VALID";
    return window_output(in, kh, kw, sh, sw, same);
  }

  const std::string& field_;
  const bool as_original_;
  std::vector<std::string>& warnings_;
  std::array<Dim, 2> last_window_ = {0, 0};  // the last convolution's or pooling's window
  Json spec_ = Json::object();
  std::unordered_map<std::string, std::string> producer_;  // top blob -> the layer writing it last
  std::unordered_map<std::string, BlobShape> shape_;
  std::map<std::string, int> dropped_;
};

}  // namespace

Json caffe_prototxt_to_spec(const std::string& text, const std::string& field, bool as_original,
                            std::vector<std::string>& warnings) {
  const TextMessage net = parse_prototxt(text, field);
  return Converter(field, as_original, warnings).convert(net);
}

}  // namespace paleo
