#include "core/import/onnx_graph.h"

#include <map>
#include <unordered_map>

#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/spec/shape.h"

namespace paleo {
namespace {

// A tensor the net computes: the Paleo layer writing it and its ONNX shape (NCHW for images).
struct Tensor {
  std::string layer;
  std::vector<Dim> shape;
};

class OnnxMapper {
 public:
  OnnxMapper(const Json& g, const std::string& field, std::vector<std::string>& warnings)
      : g_(g), field_(field), warnings_(warnings) {}

  Json convert() {
    if (!g_.is_object() || !g_.contains("nodes") || !g_["nodes"].is_array())
      throw Error("must be an object with a list of nodes", "", field_);
    spec_["name"] = g_.contains("name") && g_["name"].is_string() ? g_["name"] : Json("onnx");
    spec_["layers"] = Json::object();
    input();
    if (g_["nodes"].size() > kMaxLayers) throw Error("has more nodes than the layer limit", "", field_ + ".nodes");
    for (const Json& n : g_["nodes"]) node(n);
    if (!unmapped_.empty()) {
      std::string list;
      for (const auto& [op, count] : unmapped_) list += (list.empty() ? "" : ", ") + op + " x" + std::to_string(count);
      warnings_.push_back("ONNX operators without a Paleo layer, priced as free Generic layers: " + list);
    }
    return spec_;
  }

 private:
  const Json& initializer(const std::string& name) const {
    static const Json none;
    const Json& inits = g_.contains("initializers") ? g_["initializers"] : none;
    return inits.is_object() && inits.contains(name) ? inits[name] : none;
  }
  std::vector<Dim> dims_of(const Json& t, const std::string& layer) const {
    std::vector<Dim> out;
    if (!t.is_object() || !t.contains("dims") || !t["dims"].is_array()) throw Error("has no dims", layer, "initializer");
    for (const Json& d : t["dims"]) out.push_back(read_dim(d, "dims", layer));
    return out;
  }
  static std::vector<Dim> ints(const Json& attrs, const std::string& key, std::vector<Dim> fallback) {
    if (!attrs.is_object() || !attrs.contains(key) || !attrs[key].is_array()) return fallback;
    std::vector<Dim> out;
    for (const Json& v : attrs[key]) out.push_back(v.is_number_integer() ? v.get<Dim>() : 0);
    return out;
  }
  static Dim int_attr(const Json& attrs, const std::string& key, Dim fallback) {
    return attrs.is_object() && attrs.contains(key) && attrs[key].is_number_integer() ? attrs[key].get<Dim>() : fallback;
  }

  void input() {
    if (!g_.contains("inputs") || !g_["inputs"].is_array() || g_["inputs"].size() != 1)
      throw Error("must have exactly one graph input (besides the initializers)", "", field_ + ".inputs");
    const Json& in = g_["inputs"][0];
    std::vector<Dim> shape;
    if (in.contains("shape") && in["shape"].is_array())
      for (const Json& d : in["shape"]) shape.push_back(d.is_number_integer() && d.get<Dim>() > 0 ? d.get<Dim>() : 1);
    Json tensor;
    if (shape.size() == 4) tensor = {shape[0], shape[2], shape[3], shape[1]};
    else if (shape.size() == 2) tensor = {shape[0], shape[1]};
    else throw Error("the graph input must be NCHW or [N, D] with known sizes", "", field_ + ".inputs");
    spec_["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", tensor}};
    tensors_[in.value("name", "")] = {"data", shape};
  }

  // The computed (non-constant) inputs of a node.
  std::vector<const Tensor*> activations(const Json& n) const {
    std::vector<const Tensor*> out;
    for (const Json& name : n["inputs"]) {
      auto it = tensors_.find(name.get<std::string>());
      if (it != tensors_.end()) out.push_back(&it->second);
    }
    return out;
  }

  void add(const std::string& name, Json params, const std::vector<const Tensor*>& parents, const Json& n,
           std::vector<Dim> shape) {
    params["parents"] = Json::array();
    for (const Tensor* p : parents) params["parents"].push_back(p->layer);
    if (spec_["layers"].contains(name)) throw Error("a second node of this name", name, "name");
    spec_["layers"][name] = std::move(params);
    for (const Json& out : n["outputs"]) tensors_[out.get<std::string>()] = {name, shape};
  }

  void alias(const Json& n, const Tensor& t) {
    for (const Json& out : n["outputs"]) tensors_[out.get<std::string>()] = t;
  }

  void node(const Json& n) {
    if (!n.is_object() || !n.contains("op") || !n["op"].is_string() || !n.contains("inputs") || !n["inputs"].is_array() ||
        !n.contains("outputs") || !n["outputs"].is_array())
      throw Error("a node needs op, inputs and outputs", "", field_ + ".nodes");
    for (const Json& s : n["inputs"]) if (!s.is_string()) throw Error("input names must be strings", "", field_ + ".nodes");
    for (const Json& s : n["outputs"]) if (!s.is_string()) throw Error("output names must be strings", "", field_ + ".nodes");
    const std::string op = n["op"].get<std::string>();
    const std::string name = n.value("name", op);
    const Json attrs = n.value("attributes", Json::object());
    const std::vector<const Tensor*> in = activations(n);
    if (in.empty()) return;  // computes a constant (shapes, axes): no layer
    const Tensor& x = *in[0];
    const std::vector<Dim>& s = x.shape;
    if (op == "Identity" || op == "Dropout") return alias(n, x);
    if (op == "Conv") return conv(n, name, attrs, x);
    if (op == "MaxPool" || op == "AveragePool") return pool(n, name, attrs, x, op == "MaxPool" ? "Pooling" : "AvgPool");
    if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
      need_image(x, name);
      Json p = {{"type", op == "GlobalMaxPool" ? "Pooling" : "AvgPool"}, {"ksize", {1, s[2], s[3], 1}},
                {"strides", {1, 1, 1, 1}}, {"padding", "VALID"}};
      return add(name, p, {&x}, n, {s[0], s[1], 1, 1});
    }
    if (op == "Gemm" || (op == "MatMul" && s.size() == 2)) {
      const Json& w = initializer(n["inputs"][1].get<std::string>());
      if (w.is_null() || in.size() != 1) return generic(n, name, op, x);
      const std::vector<Dim> wd = dims_of(w, name);
      if (wd.size() != 2) throw Error("a weight of rank 2 expected", name, "initializer");
      const Dim k = op == "Gemm" && int_attr(attrs, "transB", 0) ? wd[0] : wd[1];
      return add(name, {{"type", "InnerProduct"}, {"num_outputs", k}}, {&x}, n, {s[0], k});
    }
    if (op == "Flatten") {
      Dim features = 1;
      for (std::size_t i = 1; i < s.size(); ++i) features *= s[i];
      return add(name, {{"type", "Reshape"}, {"output_shape", {s[0], features}}}, {&x}, n, {s[0], features});
    }
    if (op == "Relu" || op == "LeakyRelu") return add(name, {{"type", "ReLU"}}, {&x}, n, s);
    if (op == "Clip") return add(name, {{"type", "ReLU6"}}, {&x}, n, s);
    if (op == "Sigmoid" || op == "Tanh" || op == "HardSigmoid") return add(name, {{"type", "Sigmoid"}}, {&x}, n, s);
    if (op == "BatchNormalization" || op == "LayerNormalization") return add(name, {{"type", "BatchNorm"}}, {&x}, n, s);
    if (op == "Softmax" && s.size() == 2) return add(name, {{"type", "Softmax"}}, {&x}, n, s);
    if (op == "Add" || op == "Mul" || op == "Sub" || op == "Div") {
      std::vector<const Tensor*> same;
      for (const Tensor* t : in) if (t->shape == s) same.push_back(t);
      return add(name, {{"type", "Elementwise"}}, same, n, s);
    }
    if (op == "Concat") {
      Dim axis = int_attr(attrs, "axis", 1);
      if (axis < 0) axis += static_cast<Dim>(s.size());
      if (axis < 0 || axis >= static_cast<Dim>(s.size())) throw Error("must index a dimension", name, "axis");
      static const int kNchwToNhwc[4] = {0, 3, 1, 2};
      std::vector<Dim> out = s;
      out[axis] = 0;
      for (const Tensor* t : in) out[axis] += t->shape.size() > static_cast<std::size_t>(axis) ? t->shape[axis] : 0;
      return add(name, {{"type", "Concatenate"}, {"dim", s.size() == 4 ? kNchwToNhwc[axis] : axis}}, in, n, out);
    }
    return generic(n, name, op, x);
  }

  void generic(const Json& n, const std::string& name, const std::string& op, const Tensor& x) {
    ++unmapped_[op];
    add(name, {{"type", "Generic"}}, {&x}, n, x.shape);
  }

  void need_image(const Tensor& x, const std::string& name) const {
    if (x.shape.size() != 4) throw Error("needs an NCHW input", name, "inputs");
  }

  // ONNX's output size, and the Paleo padding that gives it (a warning when neither does).
  std::string padding(const std::vector<Dim>& in_hw, const std::vector<Dim>& k, const std::vector<Dim>& st,
                      const std::vector<Dim>& pads, std::vector<Dim>& out_hw, const std::string& name) {
    bool any_pad = false;
    bool same_ok = true, valid_ok = true;
    out_hw.assign(2, 0);
    for (int i = 0; i < 2; ++i) {
      const Dim padded = in_hw[i] + pads[i] + pads[i + 2];
      if (st[i] <= 0 || k[i] <= 0 || padded < k[i]) throw Error("the window does not fit the input", name, "kernel_shape");
      out_hw[i] = (padded - k[i]) / st[i] + 1;
      any_pad = any_pad || pads[i] != 0 || pads[i + 2] != 0;
      same_ok = same_ok && out_hw[i] == (in_hw[i] + st[i] - 1) / st[i];
      valid_ok = valid_ok && out_hw[i] == (in_hw[i] - k[i] + st[i]) / st[i];
    }
    const std::string choice = any_pad ? "SAME" : "VALID";
    if ((choice == "SAME" && !same_ok) || (choice == "VALID" && !valid_ok))
      warnings_.push_back("node '" + name + "': its padding gives " + std::to_string(out_hw[0]) + "x" +
                          std::to_string(out_hw[1]) + ", which Paleo's " + choice + " padding does not; sizes differ");
    return choice;
  }

  void conv(const Json& n, const std::string& name, const Json& attrs, const Tensor& x) {
    need_image(x, name);
    const Json& w = initializer(n["inputs"].size() > 1 ? n["inputs"][1].get<std::string>() : "");
    if (w.is_null()) throw Error("a convolution's weight must be an initializer", name, "inputs");
    const std::vector<Dim> wd = dims_of(w, name);
    if (wd.size() != 4) throw Error("only 2-D convolutions are mapped", name, "initializer");
    const Dim group = int_attr(attrs, "group", 1);
    const std::vector<Dim> k = {wd[2], wd[3]};
    const std::vector<Dim> st = ints(attrs, "strides", {1, 1});
    const std::vector<Dim> pads = ints(attrs, "pads", {0, 0, 0, 0});
    const std::vector<Dim> dil = ints(attrs, "dilations", {1, 1});
    if (st.size() != 2 || pads.size() != 4) throw Error("2-D strides and pads expected", name, "strides");
    if (dil != std::vector<Dim>{1, 1})
      warnings_.push_back("node '" + name + "': dilations are priced as an undilated convolution");
    std::vector<Dim> out_hw;
    const std::string pad = padding({x.shape[2], x.shape[3]}, k, st, pads, out_hw, name);
    Json p = {{"type", "Convolution"}, {"filter", {k[0], k[1], x.shape[1], wd[0]}}, {"strides", {1, st[0], st[1], 1}},
              {"padding", pad}, {"activation_fn", nullptr}, {"bias", n["inputs"].size() > 2}};
    if (group != 1) p["group"] = group;
    add(name, p, {&x}, n, {x.shape[0], wd[0], out_hw[0], out_hw[1]});
  }

  void pool(const Json& n, const std::string& name, const Json& attrs, const Tensor& x, const std::string& type) {
    need_image(x, name);
    const std::vector<Dim> k = ints(attrs, "kernel_shape", {});
    const std::vector<Dim> st = ints(attrs, "strides", {1, 1});
    const std::vector<Dim> pads = ints(attrs, "pads", {0, 0, 0, 0});
    if (k.size() != 2 || st.size() != 2 || pads.size() != 4) throw Error("2-D kernel_shape, strides and pads expected", name, "kernel_shape");
    std::vector<Dim> out_hw;
    const std::string pad = padding({x.shape[2], x.shape[3]}, k, st, pads, out_hw, name);
    add(name, {{"type", type}, {"ksize", {1, k[0], k[1], 1}}, {"strides", {1, st[0], st[1], 1}}, {"padding", pad}}, {&x}, n,
        {x.shape[0], x.shape[1], out_hw[0], out_hw[1]});
  }

  const Json& g_;
  const std::string& field_;
  std::vector<std::string>& warnings_;
  Json spec_ = Json::object();
  std::unordered_map<std::string, Tensor> tensors_;
  std::map<std::string, int> unmapped_;
};

}  // namespace

Json onnx_graph_to_spec(const Json& graph, const std::string& field, std::vector<std::string>& warnings) {
  return OnnxMapper(graph, field, warnings).convert();
}

}  // namespace paleo
