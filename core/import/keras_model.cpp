#include "core/import/keras_model.h"

#include <map>
#include <unordered_map>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/import/keras_layer_config.h"
#include "core/spec/shape.h"

namespace paleo {
namespace {

using namespace keras;  // the layer and its config readers

class KerasMapper {
 public:
  KerasMapper(const std::string& field, std::vector<std::string>& warnings) : field_(field), warnings_(warnings) {}

  Json convert(const Json& model) {
    if (!model.is_object() || !model.contains("class_name") || !model["class_name"].is_string())
      throw Error("must be a Keras model document (model.to_json()) with a class_name", "", field_);
    const std::string kind = model["class_name"].get<std::string>();
    const Json& config = model.contains("config") ? model["config"] : Json();
    spec_["name"] = config.is_object() && config.contains("name") && config["name"].is_string() ? config["name"] : Json("keras");
    spec_["layers"] = Json::object();
    if (kind == "Sequential") sequential(config);
    else if (kind == "Functional" || kind == "Model") functional(config);
    else throw Error("must be a Sequential or Functional model, got '" + kind + "'", "", field_ + ".class_name");
    if (spec_["layers"].size() > kMaxLayers) throw Error("has more layers than the layer limit", "", field_);
    if (!unmapped_.empty()) {
      std::string list;
      for (const auto& [type, count] : unmapped_) list += (list.empty() ? "" : ", ") + type + " x" + std::to_string(count);
      warnings_.push_back("Keras layers without a Paleo layer, priced as free Generic layers: " + list);
    }
    return spec_;
  }

 private:
  // ---- the model's structure ----
  void sequential(const Json& config) {
    const Json& layers = config.is_array() ? config : config.is_object() && config.contains("layers") ? config["layers"] : Json();
    if (!layers.is_array() || layers.empty()) throw Error("a Sequential model needs its list of layers", "", field_ + ".config.layers");
    std::string previous;
    for (const Json& l : layers) {
      const std::string name = layer_name(l);
      const std::string cls = class_of(l, name);
      const Json& c = l["config"];
      if (previous.empty()) {
        const Json* shape = input_shape_of(c);
        if (!shape && config.is_object() && config.contains("build_input_shape")) shape = &config["build_input_shape"];
        if (!shape) throw Error("the first layer needs batch_input_shape (or an InputLayer)", name, "config");
        previous = input_layer(*shape, name);
        if (cls == "InputLayer") continue;
      }
      previous = map_layer(name, cls, c, {previous});
    }
  }

  void functional(const Json& config) {
    const Json& layers = config.is_object() && config.contains("layers") ? config["layers"] : Json();
    if (!layers.is_array() || layers.empty()) throw Error("a Functional model needs its list of layers", "", field_ + ".config.layers");
    for (const Json& l : layers) {
      const std::string name = layer_name(l);
      const std::string cls = class_of(l, name);
      if (cls == "InputLayer") {
        if (spec_["layers"].contains("data"))
          throw Error("only models with one input are mapped", name, "class_name");
        const Json* shape = input_shape_of(l["config"]);
        if (!shape) throw Error("an InputLayer needs batch_input_shape or batch_shape", name, "config");
        keras_to_paleo_[name] = input_layer(*shape, name);
        continue;
      }
      std::vector<std::string> parents;
      for (const std::string& in : inbound(l, name)) {
        auto it = keras_to_paleo_.find(in);
        if (it == keras_to_paleo_.end()) throw Error("reads '" + in + "', which no earlier layer writes", name, "inbound_nodes");
        parents.push_back(it->second);
      }
      if (parents.empty()) throw Error("has no inbound node", name, "inbound_nodes");
      keras_to_paleo_[name] = map_layer(name, cls, l["config"], parents);
    }
  }

  std::string layer_name(const Json& l) const {
    if (!l.is_object() || !l.contains("config") || !l["config"].is_object())
      throw Error("each layer needs a class_name and a config", "", field_ + ".config.layers");
    if (l.contains("name") && l["name"].is_string()) return l["name"].get<std::string>();
    const Json& c = l["config"];
    if (c.contains("name") && c["name"].is_string()) return c["name"].get<std::string>();
    throw Error("a layer needs a name", "", field_ + ".config.layers");
  }
  static std::string class_of(const Json& l, const std::string& name) {
    if (!l.contains("class_name") || !l["class_name"].is_string()) throw Error("needs a class_name", name, "class_name");
    return l["class_name"].get<std::string>();
  }
  static const Json* input_shape_of(const Json& c) {
    for (const char* key : {"batch_input_shape", "batch_shape"})
      if (c.is_object() && c.contains(key) && c[key].is_array()) return &c[key];
    return nullptr;
  }

  // The layers a Functional layer reads: Keras 2 writes [[["name", node, tensor, {}], ...]],
  // Keras 3 [{"args": [...], "kwargs": {}}] with {"keras_history": ["name", node, tensor]} tensors.
  std::vector<std::string> inbound(const Json& l, const std::string& name) {
    std::vector<std::string> out;
    if (!l.contains("inbound_nodes") || !l["inbound_nodes"].is_array() || l["inbound_nodes"].empty()) return out;
    const Json& nodes = l["inbound_nodes"];
    if (nodes.size() > 1) warnings_.push_back("Keras layer '" + name + "' is shared; only its first call is priced");
    const Json& node = nodes[0];
    if (node.is_array()) {
      for (const Json& t : node)
        if (t.is_array() && !t.empty() && t[0].is_string()) out.push_back(t[0].get<std::string>());
    } else if (node.is_object()) {
      collect_history(node.contains("args") ? node["args"] : Json(), out);
    }
    return out;
  }
  static void collect_history(const Json& j, std::vector<std::string>& out) {
    if (j.is_array()) {
      for (const Json& x : j) collect_history(x, out);
    } else if (j.is_object()) {
      if (j.contains("config") && j["config"].is_object() && j["config"].contains("keras_history")) {
        const Json& h = j["config"]["keras_history"];
        if (h.is_array() && !h.empty() && h[0].is_string()) out.push_back(h[0].get<std::string>());
        return;
      }
      for (const auto& [key, value] : j.items()) collect_history(value, out);
    }
  }

  std::string input_layer(const Json& shape, const std::string& name) {
    Shape s = {1};
    for (std::size_t i = 1; i < shape.size(); ++i) {
      if (!shape[i].is_number_integer() || shape[i].get<Dim>() <= 0)
        throw Error("every size but the batch must be a positive integer", name, "batch_input_shape");
      s.push_back(shape[i].get<Dim>());
    }
    if (s.size() < 2 || s.size() > 4) throw Error("the input must be [N, H, W, C], [N, T, D] or [N, D]", name, "batch_input_shape");
    spec_["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", s}};
    shapes_["data"] = s;
    return "data";
  }

  // ---- one layer ----
  using Handler = std::string (KerasMapper::*)(KerasLayer&);

  std::string map_layer(const std::string& name, const std::string& cls, const Json& config, const std::vector<std::string>& parents) {
    static const std::unordered_map<std::string, Handler> handlers = {
        {"Conv2D", &KerasMapper::conv2d},
        {"DepthwiseConv2D", &KerasMapper::depthwise_conv2d},
        {"Dense", &KerasMapper::dense},
        {"MaxPooling2D", &KerasMapper::max_pooling},
        {"AveragePooling2D", &KerasMapper::average_pooling},
        {"GlobalAveragePooling2D", &KerasMapper::global_average_pooling},
        {"GlobalMaxPooling2D", &KerasMapper::global_max_pooling},
        {"BatchNormalization", &KerasMapper::batch_norm},
        {"Activation", &KerasMapper::activation_layer},
        {"ReLU", &KerasMapper::relu},
        {"Softmax", &KerasMapper::softmax_layer},
        {"Add", &KerasMapper::elementwise},
        {"Multiply", &KerasMapper::elementwise},
        {"Subtract", &KerasMapper::elementwise},
        {"Average", &KerasMapper::elementwise},
        {"Concatenate", &KerasMapper::concatenate},
        {"Flatten", &KerasMapper::flatten},
        {"Reshape", &KerasMapper::reshape},
        {"Dropout", &KerasMapper::dropout},
        {"SpatialDropout2D", &KerasMapper::dropout},
        {"ZeroPadding2D", &KerasMapper::zero_padding},
    };
    KerasLayer l{name, cls, &config, parents, {}};
    for (const std::string& p : parents) l.inputs.push_back(shapes_.at(p));
    auto it = handlers.find(cls);
    if (it != handlers.end()) return (this->*(it->second))(l);
    ++unmapped_[cls];
    return emit(name, {{"type", "Generic"}}, l, one_input(l));
  }

  std::string emit(const std::string& name, Json params, const KerasLayer& l, const Shape& output) {
    return emit_from(name, std::move(params), l.parents, output);
  }
  std::string emit_from(const std::string& name, Json params, const std::vector<std::string>& parents, const Shape& output) {
    if (spec_["layers"].contains(name)) throw Error("a second layer of this name", name, "name");
    params["parents"] = parents;
    spec_["layers"][name] = std::move(params);
    shapes_[name] = output;
    return name;
  }

  // A layer's own activation (Conv2D, Dense): its Paleo layer type, or "" for linear.
  std::string activation_type(const std::string& activation) {
    static const std::map<std::string, std::string> types = {
        {"relu", "ReLU"},       {"relu6", "ReLU6"}, {"sigmoid", "Sigmoid"}, {"hard_sigmoid", "Sigmoid"},
        {"tanh", "Sigmoid"},    {"softmax", "Softmax"}, {"gelu", "GELU"},   {"linear", ""},
    };
    auto it = types.find(activation);
    if (it != types.end()) return it->second;
    ++unmapped_["activation " + activation];
    return "Generic";
  }
  // ---- the layers ----
  std::string convolution(KerasLayer& l, Dim filters, Dim group) {
    const Shape& in = image_input(l);
    const auto [kh, kw] = pair_of(l, "kernel_size", {0, 0});
    if (kh == 0) throw Error("is missing", l.name, "kernel_size");
    const auto [sh, sw] = pair_of(l, "strides", {1, 1});
    const auto dilation = pair_of(l, "dilation_rate", {1, 1});
    if (dilation != std::pair<Dim, Dim>{1, 1})
      warnings_.push_back("Keras layer '" + l.name + "': dilation_rate is priced as an undilated convolution");
    const std::string pad = padding_of(l);
    const Shape out = {in[0], out_size(in[1], kh, sh, pad, l, "kernel_size"), out_size(in[2], kw, sw, pad, l, "kernel_size"), filters};
    const std::string act = activation_type(activation_name(l));
    Json p = {{"type", "Convolution"}, {"filter", {kh, kw, in[3], filters}}, {"strides", {1, sh, sw, 1}}, {"padding", pad},
              {"bias", use_bias(l)}, {"activation_fn", nullptr}};
    if (group != 1) p["group"] = group;
    // ReLU and sigmoid fuse into the convolution (costed by paleo2026); others follow as a layer.
    if (act == "ReLU" || act == "ReLU6" || act == "Sigmoid") p["activation_fn"] = act == "ReLU" ? "relu" : act == "ReLU6" ? "relu6" : "sigmoid";
    const std::string conv = emit(l.name, p, l, out);
    if (act.empty() || act == "ReLU" || act == "ReLU6" || act == "Sigmoid") return conv;
    return emit_from(l.name + "/activation", {{"type", act}}, {conv}, out);
  }
  std::string conv2d(KerasLayer& l) {
    if (!l.config->contains("filters")) throw Error("is missing", l.name, "filters");
    return convolution(l, int_of(l, "filters", 0), int_of(l, "groups", 1));
  }
  std::string depthwise_conv2d(KerasLayer& l) {
    const Dim channels = image_input(l)[3];
    return convolution(l, checked_multiply(channels, int_of(l, "depth_multiplier", 1), "depth_multiplier", kMaxElements, l.name),
                       channels);
  }

  std::string dense(KerasLayer& l) {
    const Shape& in = one_input(l);
    const Json& c = *l.config;
    if (!c.contains("units")) throw Error("is missing", l.name, "units");
    const Dim units = int_of(l, "units", 0);
    Json p = {{"type", "InnerProduct"}, {"num_outputs", units}};
    Shape out = {in[0], units};
    if (in.size() > 2) {  // Keras's Dense works on the last axis
      p["axis"] = -1;
      out = in;
      out.back() = units;
    }
    if (!use_bias(l)) warnings_.push_back("Keras layer '" + l.name + "': use_bias false; Paleo's InnerProduct counts a bias");
    const std::string act = activation_type(activation_name(l));
    const std::string layer = emit(l.name, p, l, out);
    if (act.empty()) return layer;
    Json a = {{"type", act}};
    if (act == "Softmax" && out.size() > 2) a["axis"] = -1;
    return emit_from(l.name + "/activation", a, {layer}, out);
  }

  std::string pooling(KerasLayer& l, const std::string& type) {
    const Shape& in = image_input(l);
    const auto [kh, kw] = pair_of(l, "pool_size", {2, 2});
    const auto [sh, sw] = pair_of(l, "strides", {kh, kw});
    const std::string pad = padding_of(l);
    const Shape out = {in[0], out_size(in[1], kh, sh, pad, l, "pool_size"), out_size(in[2], kw, sw, pad, l, "pool_size"), in[3]};
    return emit(l.name, {{"type", type}, {"ksize", {1, kh, kw, 1}}, {"strides", {1, sh, sw, 1}}, {"padding", pad}}, l, out);
  }
  std::string max_pooling(KerasLayer& l) { return pooling(l, "Pooling"); }
  std::string average_pooling(KerasLayer& l) { return pooling(l, "AvgPool"); }

  // The whole map, then [N, C] as Keras gives it (unless keepdims).
  std::string global_pooling(KerasLayer& l, const std::string& type) {
    const Shape& in = image_input(l);
    const Json& c = *l.config;
    const bool keepdims = c.contains("keepdims") && c["keepdims"].is_boolean() && c["keepdims"].get<bool>();
    Json p = {{"type", type}, {"ksize", {1, in[1], in[2], 1}}, {"strides", {1, 1, 1, 1}}, {"padding", "VALID"}};
    const Shape pooled = {in[0], 1, 1, in[3]};
    if (keepdims) return emit(l.name, p, l, pooled);
    const std::string pool = emit(l.name + "/pool", p, l, pooled);
    return emit_from(l.name, {{"type", "Reshape"}, {"output_shape", {in[0], in[3]}}}, {pool}, {in[0], in[3]});
  }
  std::string global_average_pooling(KerasLayer& l) { return global_pooling(l, "AvgPool"); }
  std::string global_max_pooling(KerasLayer& l) { return global_pooling(l, "Pooling"); }

  std::string batch_norm(KerasLayer& l) { return emit(l.name, {{"type", "BatchNorm"}}, l, one_input(l)); }

  std::string activation_layer(KerasLayer& l) {
    const Shape& in = one_input(l);
    const std::string act = activation_type(activation_name(l));
    if (act.empty()) return l.parents[0];  // linear: the input itself
    Json p = {{"type", act}};
    if (act == "Softmax" && in.size() > 2) p["axis"] = -1;
    return emit(l.name, p, l, in);
  }
  std::string relu(KerasLayer& l) {
    const Json& c = *l.config;
    const bool six = c.contains("max_value") && c["max_value"].is_number() && c["max_value"].get<double>() == 6.0;
    return emit(l.name, {{"type", six ? "ReLU6" : "ReLU"}}, l, one_input(l));
  }
  std::string softmax_layer(KerasLayer& l) {
    const Shape& in = one_input(l);
    Json p = {{"type", "Softmax"}};
    if (in.size() > 2) p["axis"] = -1;
    return emit(l.name, p, l, in);
  }

  // Keras broadcasts a dimension of 1 (a squeeze-and-excitation's Multiply of [N, H, W, C] by
  // [N, 1, 1, C]); so does Paleo's Elementwise.
  std::string elementwise(KerasLayer& l) {
    if (l.inputs.size() < 2) throw Error("needs two or more inputs", l.name, "inbound_nodes");
    Shape out = l.inputs[0];
    for (const Shape& s : l.inputs) {
      if (!broadcast_shapes(out, s, out))
        throw Error("inputs of shapes that do not broadcast: [" + shape_to_string(out) + "] and [" +
                        shape_to_string(s) + "]", l.name, "inbound_nodes");
    }
    Json params = {{"type", "Elementwise"}};
    if (l.class_name == "Multiply") params["operation"] = "product";
    return emit(l.name, std::move(params), l, out);
  }

  std::string concatenate(KerasLayer& l) {
    if (l.inputs.empty()) throw Error("needs inputs", l.name, "inbound_nodes");
    const Json& c = *l.config;
    const Dim rank = static_cast<Dim>(l.inputs[0].size());
    Dim axis = c.contains("axis") && c["axis"].is_number_integer() ? c["axis"].get<Dim>() : -1;
    if (axis < 0) axis += rank;
    if (axis <= 0 || axis >= rank) throw Error("must be an axis other than the batch", l.name, "axis");
    Shape out = l.inputs[0];
    out[axis] = 0;
    for (const Shape& s : l.inputs)
      out[axis] = checked_add(out[axis], s.size() == out.size() ? s[axis] : 0, "inbound_nodes", kMaxElements, l.name);
    return emit(l.name, {{"type", "Concatenate"}, {"dim", axis}}, l, out);
  }

  std::string flatten(KerasLayer& l) {
    const Shape& in = one_input(l);
    Dim features = 1;
    for (std::size_t i = 1; i < in.size(); ++i) features = checked_multiply(features, in[i], "inbound_nodes", kMaxElements, l.name);
    return emit(l.name, {{"type", "Reshape"}, {"output_shape", {in[0], features}}}, l, {in[0], features});
  }

  std::string reshape(KerasLayer& l) {
    const Shape& in = one_input(l);
    const Json& c = *l.config;
    if (!c.contains("target_shape") || !c["target_shape"].is_array()) throw Error("is missing", l.name, "target_shape");
    Shape out = {in[0]};
    Dim known = 1, total = 1;
    int unknown = -1;
    for (std::size_t i = 1; i < in.size(); ++i) total = checked_multiply(total, in[i], "inbound_nodes", kMaxElements, l.name);
    for (const Json& d : c["target_shape"]) {
      if (!d.is_number_integer()) throw Error("sizes must be integers", l.name, "target_shape");
      out.push_back(d.get<Dim>());
      if (out.back() == -1) unknown = static_cast<int>(out.size() - 1);
      else if (out.back() <= 0) throw Error("sizes must be positive (one -1 allowed)", l.name, "target_shape");
      else known = checked_multiply(known, out.back(), "target_shape", kMaxElements, l.name);
    }
    if (unknown >= 0) out[static_cast<std::size_t>(unknown)] = total / known;
    return emit(l.name, {{"type", "Reshape"}, {"output_shape", out}}, l, out);
  }

  std::string dropout(KerasLayer& l) { return emit(l.name, {{"type", "Dropout"}}, l, one_input(l)); }

  // Free: a Generic layer of the padded shape.
  std::string zero_padding(KerasLayer& l) {
    const Shape& in = image_input(l);
    const Json& c = *l.config;
    Dim top = 1, bottom = 1, left = 1, right = 1;
    if (c.contains("padding")) {
      const Json& p = c["padding"];
      auto ok = [](const Json& v) { return v.is_number_integer() && v.get<Dim>() >= 0; };
      if (ok(p)) {
        top = bottom = left = right = p.get<Dim>();
      } else if (p.is_array() && p.size() == 2 && ok(p[0]) && ok(p[1])) {
        top = bottom = p[0].get<Dim>();
        left = right = p[1].get<Dim>();
      } else if (p.is_array() && p.size() == 2 && p[0].is_array() && p[1].is_array() && p[0].size() == 2 && p[1].size() == 2 &&
                 ok(p[0][0]) && ok(p[0][1]) && ok(p[1][0]) && ok(p[1][1])) {
        top = p[0][0].get<Dim>();
        bottom = p[0][1].get<Dim>();
        left = p[1][0].get<Dim>();
        right = p[1][1].get<Dim>();
      } else {
        throw Error("must be n, [h, w] or [[top, bottom], [left, right]]", l.name, "padding");
      }
    }
    auto grow = [&](Dim size, Dim a, Dim b) {
      return checked_add(checked_add(size, a, "padding", kMaxElements, l.name), b, "padding", kMaxElements, l.name);
    };
    const Shape out = {in[0], grow(in[1], top, bottom), grow(in[2], left, right), in[3]};
    return emit(l.name, {{"type", "Generic"}, {"output_shape", out}}, l, out);
  }

  const std::string& field_;
  std::vector<std::string>& warnings_;
  Json spec_ = Json::object();
  std::unordered_map<std::string, Shape> shapes_;            // Paleo layer -> output shape
  std::unordered_map<std::string, std::string> keras_to_paleo_;  // Keras layer -> the Paleo layer of its output
  std::map<std::string, int> unmapped_;
};

}  // namespace

Json keras_model_to_spec(const Json& model, const std::string& field, std::vector<std::string>& warnings) {
  if (model.is_string()) return KerasMapper(field, warnings).convert(parse_json_text(model.get<std::string>(), field));
  return KerasMapper(field, warnings).convert(model);
}

}  // namespace paleo
