#include "core/import/onnx_graph.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/import/onnx_constants.h"
#include "core/import/onnx_gelu_pattern.h"
#include "core/import/onnx_tensor.h"
#include "core/spec/shape.h"

namespace paleo {
namespace {

using Tensor = OnnxTensor;

// A node's (or graph input's) "name" when it is a string, else `fallback`.
std::string name_or(const Json& j, const std::string& fallback) {
  return j.is_object() && j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : fallback;
}

// The product of dims[from, to); an error naming the node past kMaxElements or on a negative size.
Dim product_of(const std::vector<Dim>& dims, std::size_t from, std::size_t to, const std::string& layer) {
  Dim n = 1;
  for (std::size_t i = from; i < to && i < dims.size(); ++i) n = checked_multiply(n, dims[i], "inputs", kMaxElements, layer);
  return n;
}

class OnnxMapper {
 public:
  OnnxMapper(const Json& g, const std::string& field, const Json& input_shape, const std::string& input_shape_field,
             std::vector<std::string>& warnings)
      : g_(g), field_(field), given_shape_(input_shape), input_shape_field_(input_shape_field), warnings_(warnings) {}

  Json convert() {
    if (!g_.is_object() || !g_.contains("nodes") || !g_["nodes"].is_array())
      throw Error("must be an object with a list of nodes", "", field_);
    spec_["name"] = g_.contains("name") && g_["name"].is_string() ? g_["name"] : Json("onnx");
    spec_["layers"] = Json::object();
    input();
    const Json& nodes = g_["nodes"];
    if (nodes.size() > kMaxLayers) throw Error("has more nodes than the layer limit", "", field_ + ".nodes");
    gelus_ = find_onnx_gelus(nodes, initializers(), absorbed_);
    for (std::size_t i = 0; i < nodes.size(); ++i) node(nodes[i], i);
    summarize();
    return spec_;
  }

 private:
  // ---- the graph's parts ----
  const Json& initializers() const {
    static const Json none = Json::object();
    return g_.contains("initializers") && g_["initializers"].is_object() ? g_["initializers"] : none;
  }
  const OnnxConstant* constant(const std::string& name) {
    if (name.empty()) return nullptr;
    auto it = consts_.find(name);
    if (it != consts_.end()) return &it->second;
    if (!initializers().contains(name)) return nullptr;
    return &(consts_[name] = onnx_constant_from_summary(initializers()[name]));
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
  static Dim axis_in(Dim axis, std::size_t rank, const std::string& layer) {
    const Dim r = static_cast<Dim>(rank);
    if (axis < -r || axis >= r) throw Error("must index a dimension of a tensor of rank " + std::to_string(r), layer, "axis");
    return axis < 0 ? axis + r : axis;
  }

  // A size the graph states: a positive integer within the tensor limit. A symbolic name, null,
  // a negative or zero size (exporters write -1 or 0 for a dynamic axis) or a huge one is unknown.
  static bool known_size(const Json& d) {
    return d.is_number_integer() && d.get<Dim>() > 0 && d.get<Dim>() <= kMaxElements;
  }

  // The graph input's shape: `input_shape` beside the graph when given, else the graph's own. An
  // unknown batch (the first dimension: a dynamic-axes export) is 1, which prices any batch_size;
  // any other unknown size is an error, never a silent 1 (a dynamic-axes ResNet-50 at 1x1 pixels
  // was priced at 51 MFLOPs).
  std::vector<Dim> input_shape(const Json& in) const {
    const std::string name = name_or(in, "");
    const Json* stated = in.contains("shape") && in["shape"].is_array() ? &in["shape"] : nullptr;
    std::vector<Dim> shape;
    if (!given_shape_.is_null()) {
      const std::string at = input_shape_field_;
      if (!given_shape_.is_array() || given_shape_.size() < 2 || given_shape_.size() > 4)
        throw Error("must be the graph input's shape, [N, C, H, W], [N, T, D] or [N, D], got " + echo(given_shape_), "", at);
      if (stated && !stated->empty() && stated->size() != given_shape_.size())
        throw Error("has " + std::to_string(given_shape_.size()) + " dimensions; the graph input '" + name + "' has " +
                        std::to_string(stated->size()), "", at);
      for (const Json& d : given_shape_) {
        if (!known_size(d)) throw Error("must list positive integer sizes, got " + echo(given_shape_), "", at);
        shape.push_back(d.get<Dim>());
      }
      return shape;
    }
    if (!stated || stated->size() < 2 || stated->size() > 4)
      throw Error("the graph input '" + name + "' must be NCHW, [N, T, D] or [N, D] with known sizes; give its shape as "
                  "\"input_shape\" beside \"onnx_graph\" (CLI: --input_shape 1,3,224,224)", "", field_ + ".inputs");
    for (std::size_t i = 0; i < stated->size(); ++i) {
      const Json& d = (*stated)[i];
      if (known_size(d)) {
        shape.push_back(d.get<Dim>());
      } else if (i == 0) {
        shape.push_back(1);
      } else {
        throw Error("the graph input '" + name + "' has no known size for dimension " + std::to_string(i) + " (" +
                        echo(d) + "): give its shape as \"input_shape\" beside \"onnx_graph\" (CLI: --input_shape "
                        "1,3,224,224; on the page, in the spec box)", "", field_ + ".inputs");
      }
    }
    return shape;
  }

  void input() {
    if (!g_.contains("inputs") || !g_["inputs"].is_array() || g_["inputs"].size() != 1)
      throw Error("must have exactly one graph input (besides the initializers)", "", field_ + ".inputs");
    const Json& in = g_["inputs"][0];
    if (!in.is_object()) throw Error("the graph input must be an object {name, shape}", "", field_ + ".inputs");
    const std::vector<Dim> shape = input_shape(in);
    batch_ = shape[0];
    Tensor t{"data", shape, shape.size() == 4};
    spec_["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", paleo_shape(t)}};
    tensors_[name_or(in, "")] = t;
  }

  // ---- shapes: ONNX's and Paleo's (core/import/onnx_tensor.h) ----
  Dim batch_index(const Tensor& t) const { return onnx_batch_index(t, batch_); }
  std::vector<Dim> per_sample(const Tensor& t) const { return onnx_per_sample(t, batch_); }
  Json paleo_shape(const Tensor& t) const { return onnx_paleo_shape(t, batch_); }
  Dim paleo_axis(const Tensor& t, Dim axis) const { return onnx_paleo_axis(t, axis, batch_); }

  // ---- layers ----
  const Tensor* tensor(const std::string& name) const {
    auto it = tensors_.find(name);
    return it == tensors_.end() ? nullptr : &it->second;
  }
  // The computed (non-constant) inputs of a node.
  std::vector<const Tensor*> activations(const Json& n) const {
    std::vector<const Tensor*> out;
    for (const Json& name : n["inputs"])
      if (const Tensor* t = tensor(name.get<std::string>())) out.push_back(t);
    return out;
  }
  void emit(const std::string& name, Json params, const std::vector<const Tensor*>& parents) {
    params["parents"] = Json::array();
    for (const Tensor* p : parents) params["parents"].push_back(p->layer);
    if (spec_["layers"].contains(name)) throw Error("a second node of this name", name, "name");
    spec_["layers"][name] = std::move(params);
  }
  void bind_outputs(const Json& n, const Tensor& t) {
    if (batch_ > 1 && batch_index(t) < 0)  // Paleo keeps the batch apart: it cannot follow this one
      throw Error("merges the batch of " + std::to_string(batch_) + " the graph was exported at into another dimension; "
                  "export the model at batch 1 or with a symbolic batch", name_or(n, ""), "inputs");
    for (const Json& out : n["outputs"])
      if (!out.get<std::string>().empty()) tensors_[out.get<std::string>()] = t;
  }
  void add(const std::string& name, Json params, const std::vector<const Tensor*>& parents, const Json& n,
           std::vector<Dim> shape, bool image = false) {
    emit(name, std::move(params), parents);
    bind_outputs(n, Tensor{name, std::move(shape), image});
  }
  // A free layer giving x's data the ONNX shape `shape` (Reshape when the elements stay, Generic
  // with output_shape when they are selected); none when Paleo's shape does not change.
  void view(const Json& n, const std::string& name, const Tensor& x, std::vector<Dim> shape, const std::string& type) {
    Tensor out{name, std::move(shape), false};
    if (!x.image && per_sample(out) == per_sample(x)) {
      out.layer = x.layer;
      return bind_outputs(n, out);
    }
    emit(name, {{"type", type}, {"output_shape", paleo_shape(out)}}, {&x});
    bind_outputs(n, out);
  }
  void generic(const Json& n, const std::string& name, const std::string& op, const Tensor& x) {
    ++unmapped_[op];
    const Json& shapes = g_.contains("value_shapes") && g_["value_shapes"].is_object() ? g_["value_shapes"] : Json();
    const std::string out = n["outputs"].empty() ? "" : n["outputs"][0].get<std::string>();
    if (shapes.is_object() && shapes.contains(out) && shapes[out].is_array()) {
      std::vector<Dim> s;
      for (const Json& d : shapes[out]) s.push_back(d.is_number_integer() && d.get<Dim>() > 0 ? d.get<Dim>() : batch_);
      return view(n, name, x, s, "Generic");
    }
    add(name, {{"type", "Generic"}}, {&x}, n, x.shape, x.image);
  }

  // ---- nodes ----
  void node(const Json& n, std::size_t index) {
    if (!n.is_object() || !n.contains("op") || !n["op"].is_string() || !n.contains("inputs") || !n["inputs"].is_array() ||
        !n.contains("outputs") || !n["outputs"].is_array())
      throw Error("a node needs op, inputs and outputs", "", field_ + ".nodes");
    for (const Json& s : n["inputs"]) if (!s.is_string()) throw Error("input names must be strings", "", field_ + ".nodes");
    for (const Json& s : n["outputs"]) if (!s.is_string()) throw Error("output names must be strings", "", field_ + ".nodes");
    const std::string op = n["op"].get<std::string>();
    const std::string name = name_or(n, op);
    const Json attrs = n.contains("attributes") && n["attributes"].is_object() ? n["attributes"] : Json::object();
    if (absorbed_.count(index)) return;
    if (auto g = gelus_.find(index); g != gelus_.end()) return gelu(name, g->second);
    if (op == "Constant") return constant_node(n, attrs);
    const std::vector<const Tensor*> in = activations(n);
    if (in.empty()) return fold(n, op, attrs, name);  // computes a constant (shapes, axes): no layer
    const Tensor& x = *in[0];
    const std::vector<Dim>& s = x.shape;
    if (op == "Shape") return shape_of(n, attrs, x, name);
    if (op == "Identity" || op == "Dropout" || op == "Cast") return bind_outputs(n, x);
    if (op == "Conv") return conv(n, name, attrs, x);
    if (op == "MaxPool" || op == "AveragePool") return pool(n, name, attrs, x, op == "MaxPool" ? "Pooling" : "AvgPool");
    if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
      need_image(x, name);
      Json p = {{"type", op == "GlobalMaxPool" ? "Pooling" : "AvgPool"}, {"ksize", {1, s[2], s[3], 1}},
                {"strides", {1, 1, 1, 1}}, {"padding", "VALID"}};
      return add(name, p, {&x}, n, {s[0], s[1], 1, 1}, true);
    }
    if (op == "Gemm" || op == "MatMul") return matmul(n, name, op, attrs, in);
    if (op == "Flatten") {
      const Dim axis = axis_in(int_attr(attrs, "axis", 1), s.size() + 1, name);
      return view(n, name, x, {product_of(s, 0, axis, name), product_of(s, axis, s.size(), name)}, "Reshape");
    }
    if (op == "Reshape") return reshape(n, name, attrs, x);
    if (op == "Transpose") return transpose(n, name, attrs, x);
    if (op == "Squeeze" || op == "Unsqueeze") return view(n, name, x, folded_shape(n, op, attrs, x, name), "Reshape");
    if (op == "Slice") return view(n, name, x, slice_shape(n, x, name), "Generic");
    if (op == "Gather" || op == "Expand") return view(n, name, x, folded_shape(n, op, attrs, x, name), "Generic");
    if (op == "Relu" || op == "LeakyRelu") return add(name, {{"type", "ReLU"}}, {&x}, n, s, x.image);
    if (op == "Clip") return add(name, {{"type", "ReLU6"}}, {&x}, n, s, x.image);
    if (op == "Sigmoid" || op == "Tanh" || op == "HardSigmoid") return add(name, {{"type", "Sigmoid"}}, {&x}, n, s, x.image);
    if (op == "Gelu") return add(name, {{"type", "GELU"}}, {&x}, n, s, x.image);
    if (op == "BatchNormalization") return add(name, {{"type", "BatchNorm"}}, {&x}, n, s, x.image);
    if (op == "LayerNormalization") return add(name, {{"type", "LayerNorm"}}, {&x}, n, s, x.image);
    if (op == "Softmax") return softmax(n, name, attrs, x);
    if (op == "Add" || op == "Mul" || op == "Sub" || op == "Div") return elementwise(n, name, op, in);
    if (op == "Concat") return concat(n, name, attrs, in);
    return generic(n, name, op, x);
  }

  void constant_node(const Json& n, const Json& attrs) {
    OnnxConstant c;
    if (attrs.contains("value")) c = onnx_constant_from_summary(attrs["value"]);
    else if (attrs.contains("value_int")) c = onnx_constant_from_summary({{"dims", Json::array()}, {"values", {attrs["value_int"]}}});
    else if (attrs.contains("value_ints")) c = onnx_constant_list(ints(attrs, "value_ints", {}));
    else if (attrs.contains("value_float")) c = onnx_constant_from_summary({{"dims", Json::array()}});
    for (const Json& out : n["outputs"]) consts_[out.get<std::string>()] = c;
  }

  void fold(const Json& n, const std::string& op, const Json& attrs, const std::string& name) {
    std::vector<const OnnxConstant*> in;
    for (const Json& s : n["inputs"]) in.push_back(constant(s.get<std::string>()));
    std::vector<OnnxConstant> out(n["outputs"].size());
    if (!fold_onnx_constants(op, attrs, in, out, name)) out.assign(out.size(), OnnxConstant{});
    for (std::size_t i = 0; i < out.size(); ++i) consts_[n["outputs"][i].get<std::string>()] = out[i];
  }

  // The shape a constant-folding rule gives when x stands in as a constant of its shape.
  std::vector<Dim> folded_shape(const Json& n, const std::string& op, const Json& attrs, const Tensor& x,
                                const std::string& name) {
    OnnxConstant stand_in;
    stand_in.known = true;
    stand_in.dims = x.shape;
    std::vector<const OnnxConstant*> in;
    for (const Json& s : n["inputs"]) in.push_back(tensor(s.get<std::string>()) == &x ? &stand_in : constant(s.get<std::string>()));
    std::vector<OnnxConstant> out(1);
    if (!fold_onnx_constants(op, attrs, in, out, name) || !out[0].known)
      throw Error("its output shape needs inputs the import cannot compute", name, "inputs");
    return out[0].dims;
  }

  void shape_of(const Json& n, const Json& attrs, const Tensor& x, const std::string& name) {
    OnnxConstant stand_in;
    stand_in.known = true;
    stand_in.dims = x.shape;
    std::vector<OnnxConstant> out(1);
    fold_onnx_constants("Shape", attrs, {&stand_in}, out, name);
    consts_[n["outputs"][0].get<std::string>()] = out[0];
  }

  const OnnxConstant& valued_input(const Json& n, std::size_t k, const std::string& name, const std::string& what) {
    const OnnxConstant* c = n["inputs"].size() > k ? constant(n["inputs"][k].get<std::string>()) : nullptr;
    if (!c || !c->has_values) throw Error("its " + what + " is not a constant the import can compute", name, "inputs");
    return *c;
  }

  void reshape(const Json& n, const std::string& name, const Json& attrs, const Tensor& x) {
    const std::vector<Dim>& target = valued_input(n, 1, name, "target shape").values;
    std::vector<Dim> out = target;
    const Dim total = product_of(x.shape, 0, x.shape.size(), name);
    Dim known = 1;
    int unknown = -1;
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (out[i] == 0 && !int_attr(attrs, "allowzero", 0) && i < x.shape.size()) out[i] = x.shape[i];
      if (out[i] == -1 && unknown < 0) unknown = static_cast<int>(i);
      else if (out[i] <= 0) throw Error("target dimensions must be positive (one -1 allowed)", name, "inputs");
      else known = checked_multiply(known, out[i], "inputs", kMaxElements, name);
    }
    if (unknown >= 0) out[static_cast<std::size_t>(unknown)] = known > 0 ? total / known : 0;
    if (product_of(out, 0, out.size(), name) != total)
      throw Error("the target [" + shape_to_string(out) + "] does not hold the input's " + std::to_string(total) + " elements",
                  name, "inputs");
    view(n, name, x, out, "Reshape");
  }

  void transpose(const Json& n, const std::string& name, const Json& attrs, const Tensor& x) {
    std::vector<Dim> perm = ints(attrs, "perm", {});
    if (perm.empty())
      for (std::size_t i = x.shape.size(); i-- > 0;) perm.push_back(static_cast<Dim>(i));
    if (perm.size() != x.shape.size()) throw Error("must list every dimension once", name, "perm");
    std::vector<Dim> out;
    for (Dim p : perm) out.push_back(x.shape[static_cast<std::size_t>(axis_in(p, x.shape.size(), name))]);
    if (x.image && perm == std::vector<Dim>{0, 2, 3, 1}) {  // NCHW to NHWC: Paleo's own layout already
      Tensor t = x;
      t.image = false;
      t.shape = out;
      return bind_outputs(n, t);
    }
    view(n, name, x, out, "Reshape");
  }

  std::vector<Dim> slice_shape(const Json& n, const Tensor& x, const std::string& name) {
    const std::vector<Dim> starts = valued_input(n, 1, name, "starts").values;
    const std::vector<Dim> ends = valued_input(n, 2, name, "ends").values;
    std::vector<Dim> axes, steps;
    if (n["inputs"].size() > 3 && !n["inputs"][3].get<std::string>().empty()) axes = valued_input(n, 3, name, "axes").values;
    if (n["inputs"].size() > 4 && !n["inputs"][4].get<std::string>().empty()) steps = valued_input(n, 4, name, "steps").values;
    if (axes.empty())
      for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<Dim>(i));
    if (ends.size() != starts.size() || axes.size() != starts.size() || (!steps.empty() && steps.size() != starts.size()))
      throw Error("starts, ends, axes and steps must have one length", name, "inputs");
    std::vector<Dim> out = x.shape;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const std::size_t a = static_cast<std::size_t>(axis_in(axes[i], out.size(), name));
      const Dim dim = x.shape[a];
      // A step beyond the dimension takes one element either way (and keeps the sums below in range).
      const Dim step = std::clamp<Dim>(steps.empty() ? 1 : steps[i], -kMaxElements, kMaxElements);
      if (step == 0) throw Error("a step of 0", name, "inputs");
      Dim b = starts[i] < 0 ? starts[i] + dim : starts[i];
      Dim e = ends[i] < 0 ? ends[i] + dim : ends[i];
      if (step > 0) {
        b = std::clamp<Dim>(b, 0, dim);
        e = std::clamp<Dim>(e, 0, dim);
        out[a] = e > b ? (e - b - 1) / step + 1 : 0;
      } else {
        b = std::clamp<Dim>(b, -1, dim - 1);
        e = std::clamp<Dim>(e, -1, dim - 1);
        out[a] = b > e ? (b - e - 1) / -step + 1 : 0;
      }
      if (out[a] <= 0) throw Error("selects nothing", name, "inputs");
    }
    return out;
  }

  // Gemm, and MatMul by a weight: InnerProduct (on the last axis of [N, T, D]). MatMul of two
  // activations: a MatMul layer (attention's scores and weighted values).
  void matmul(const Json& n, const std::string& name, const std::string& op, const Json& attrs,
              const std::vector<const Tensor*>& in) {
    const Tensor& x = *in[0];
    if (x.image) throw Error("multiplies an NCHW image; flatten or reshape it first", name, "inputs");
    if (in.size() == 2) {
      const Tensor& y = *in[1];
      if (y.image) throw Error("multiplies an NCHW image; flatten or reshape it first", name, "inputs");
      if (x.shape.size() < 2 || y.shape.size() < 2) throw Error("needs operands of rank 2 or more", name, "inputs");
      std::vector<Dim> out = onnx_broadcast(std::vector<Dim>(x.shape.begin(), x.shape.end() - 2),
                                            std::vector<Dim>(y.shape.begin(), y.shape.end() - 2), name);
      out.push_back(x.shape[x.shape.size() - 2]);
      out.push_back(y.shape.back());
      ++attention_products_;
      return add(name, {{"type", "MatMul"}}, {&x, &y}, n, out);
    }
    const std::string w_name = n["inputs"].size() > 1 ? n["inputs"][1].get<std::string>() : "";
    const OnnxConstant* w = constant(w_name);
    if (!w || !w->known) return generic(n, name, op, x);
    if (w->dims.size() != 2) throw Error("a weight of rank 2 expected", name, "initializer");
    const Dim k = op == "Gemm" && int_attr(attrs, "transB", 0) ? w->dims[0] : w->dims[1];
    std::vector<Dim> out = x.shape;
    out.back() = k;
    Json p = {{"type", "InnerProduct"}, {"num_outputs", k}};
    if (per_sample(x).size() > 1) p["axis"] = -1;
    add(name, p, {&x}, n, out);
    if (op == "MatMul") weight_products_[name] = k;  // its bias comes as an Add
  }

  void softmax(const Json& n, const std::string& name, const Json& attrs, const Tensor& x) {
    const Dim axis = axis_in(int_attr(attrs, "axis", -1), x.shape.size(), name);
    if (per_sample(x).size() == 1 && !x.image) return add(name, {{"type", "Softmax"}}, {&x}, n, x.shape);
    if (x.image || axis != static_cast<Dim>(x.shape.size()) - 1)
      warnings_.push_back("node '" + name + "': a softmax over axis " + std::to_string(axis) +
                          " is priced as one over the last axis");
    add(name, {{"type", "Softmax"}, {"axis", -1}}, {&x}, n, x.shape, x.image);
  }

  void gelu(const std::string& name, const OnnxGelu& g) {
    const Tensor* x = tensor(g.input);
    if (!x) throw Error("a GELU of a constant", name, "inputs");
    emit(name, {{"type", "GELU"}}, {x});
    tensors_[g.output] = Tensor{name, x->shape, x->image};
    ++gelus_fused_;
  }

  void elementwise(const Json& n, const std::string& name, const std::string& op, const std::vector<const Tensor*>& in) {
    std::vector<Dim> out = in[0]->shape;
    for (const Json& s : n["inputs"]) {
      const std::string input = s.get<std::string>();
      if (const Tensor* t = tensor(input)) out = onnx_broadcast(out, t->shape, name);
      else if (const OnnxConstant* c = constant(input); c && c->known) out = onnx_broadcast(out, c->dims, name);
    }
    const Tensor& x = *in[0];
    // A bias added after a MatMul by a weight: the InnerProduct's bias, already counted.
    auto product = weight_products_.find(x.layer);
    if (op == "Add" && in.size() == 1 && out == x.shape && product != weight_products_.end() && n["inputs"].size() == 2) {
      for (const Json& s : n["inputs"]) {
        const OnnxConstant* c = tensor(s.get<std::string>()) ? nullptr : constant(s.get<std::string>());
        if (c && c->known && c->dims == std::vector<Dim>{product->second}) {
          weight_products_.erase(product);
          return bind_outputs(n, x);
        }
      }
    }
    std::vector<const Tensor*> same;
    for (const Tensor* t : in)
      if (t->shape == out) same.push_back(t);
    if (same.empty()) return view(n, name, x, out, "Generic");
    // An activation broadcast over the others (a squeeze-and-excitation's [N, C, 1, 1] scale) is
    // a parent too, when Paleo can broadcast it: an image of one rank, a batch of its own, 1 or
    // the output's size in every other dimension.
    Shape stretched;
    for (const Tensor* t : in)
      if (t->shape != out && t->image == same[0]->image && broadcast_shapes(out, t->shape, stretched) &&
          stretched == out)
        same.push_back(t);
    Json params = {{"type", "Elementwise"}};
    if (same.size() > 1 && (op == "Mul" || op == "Div")) params["operation"] = "product";
    add(name, std::move(params), same, n, out, same[0]->image);
  }

  void concat(const Json& n, const std::string& name, const Json& attrs, const std::vector<const Tensor*>& in) {
    const Tensor& x = *in[0];
    const Dim axis = axis_in(int_attr(attrs, "axis", 1), x.shape.size(), name);
    std::vector<Dim> out = x.shape;
    out[axis] = 0;
    bool constants = false;
    for (const Json& s : n["inputs"]) {
      const std::string input = s.get<std::string>();
      const Tensor* t = tensor(input);
      const OnnxConstant* c = t ? nullptr : constant(input);
      if (!t && (!c || !c->known)) throw Error("an input of unknown shape", name, "inputs");
      const std::vector<Dim>& dims = t ? t->shape : c->dims;
      if (dims.size() != out.size()) throw Error("inputs of different ranks", name, "inputs");
      out[axis] = checked_add(out[axis], dims[axis], "inputs", kMaxElements, name);
      constants = constants || !t;
    }
    const Dim dim = paleo_axis(x, axis);
    if (dim < 0) throw Error("concatenates along the batch", name, "axis");
    if (!constants) return add(name, {{"type", "Concatenate"}, {"dim", dim}}, in, n, out, x.image);
    // A learned tensor joins the activations (ViT's class token): a free layer of the whole shape.
    if (in.size() == 1) return view(n, name, x, out, "Generic");
    emit(name + "/activations", {{"type", "Concatenate"}, {"dim", dim}}, in);
    Tensor joined{name + "/activations", x.shape, x.image};
    view(n, name, joined, out, "Generic");
  }

  void need_image(const Tensor& x, const std::string& name) const {
    if (!x.image) throw Error("needs an NCHW input", name, "inputs");
  }

  // ONNX's output size, and the Paleo padding that gives it (a warning when neither does).
  std::string padding(const std::vector<Dim>& in_hw, const std::vector<Dim>& k, const std::vector<Dim>& st,
                      const std::vector<Dim>& pads, std::vector<Dim>& out_hw, const std::string& name) {
    bool any_pad = false;
    bool same_ok = true, valid_ok = true;
    out_hw.assign(2, 0);
    for (int i = 0; i < 2; ++i) {
      const Dim padded = checked_add(checked_add(in_hw[i], pads[i], "pads", kMaxElements, name), pads[i + 2], "pads",
                                     kMaxElements, name);
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
    const OnnxConstant* w = constant(n["inputs"].size() > 1 ? n["inputs"][1].get<std::string>() : "");
    if (!w || !w->known) throw Error("a convolution's weight must be an initializer", name, "inputs");
    const std::vector<Dim>& wd = w->dims;
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
    add(name, p, {&x}, n, {x.shape[0], wd[0], out_hw[0], out_hw[1]}, true);
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
        {x.shape[0], x.shape[1], out_hw[0], out_hw[1]}, true);
  }

  // What the import did beyond one layer per node, and what it could not map.
  void summarize() {
    if (attention_products_ > 0)
      warnings_.push_back("ONNX import: " + std::to_string(attention_products_) +
                          " MatMul nodes of two activations (attention scores and weighted values) priced as batched "
                          "matrix products (MatMul layers)");
    if (gelus_fused_ > 0)
      warnings_.push_back("ONNX import: " + std::to_string(gelus_fused_) +
                          " GELUs written with Erf (five nodes each) priced as one GELU layer each");
    if (!unmapped_.empty()) {
      std::string list;
      for (const auto& [op, count] : unmapped_) list += (list.empty() ? "" : ", ") + op + " x" + std::to_string(count);
      warnings_.push_back("ONNX operators without a Paleo layer, priced as free Generic layers: " + list);
    }
  }

  const Json& g_;
  const std::string& field_;
  const Json& given_shape_;  // null when the request gives none
  const std::string input_shape_field_;
  std::vector<std::string>& warnings_;
  Json spec_ = Json::object();
  Dim batch_ = 1;
  std::unordered_map<std::string, Tensor> tensors_;
  std::unordered_map<std::string, OnnxConstant> consts_;
  std::unordered_map<std::string, Dim> weight_products_;  // InnerProduct layers from MatMul: their outputs
  std::unordered_map<std::size_t, OnnxGelu> gelus_;
  std::unordered_map<std::size_t, bool> absorbed_;
  std::map<std::string, int> unmapped_;
  int attention_products_ = 0;
  int gelus_fused_ = 0;
};

}  // namespace

Json onnx_graph_to_spec(const Json& graph, const std::string& field, const Json& input_shape,
                        const std::string& input_shape_field, std::vector<std::string>& warnings) {
  return OnnxMapper(graph, field, input_shape, input_shape_field, warnings).convert();
}

}  // namespace paleo
