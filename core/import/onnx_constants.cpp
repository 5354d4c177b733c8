#include "core/import/onnx_constants.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "core/base/checked_math.h"
#include "core/base/error.h"

namespace paleo {
namespace {

// Small integer tensors only: shape arithmetic, never weights.
constexpr std::size_t kMaxValues = 4096;

using Inputs = std::vector<const OnnxConstant*>;
using Fold = std::function<bool(const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string& layer)>;

Dim count_of(const std::vector<Dim>& dims) {
  Dim n = 1;
  for (Dim d : dims) {
    if (d < 0 || (d > 0 && n > kMaxElements / d)) return kMaxElements;
    n *= d;
  }
  return n;
}

bool known(const Inputs& in, std::size_t count) {
  if (in.size() < count) return false;
  for (std::size_t i = 0; i < count; ++i)
    if (!in[i] || !in[i]->known) return false;
  return true;
}

bool valued(const OnnxConstant* c) { return c && c->known && c->has_values; }

Dim int_attr(const Json& attrs, const std::string& key, Dim fallback) {
  return attrs.is_object() && attrs.contains(key) && attrs[key].is_number_integer() ? attrs[key].get<Dim>() : fallback;
}

// An axis in [0, rank), from a possibly negative one.
Dim axis_in(Dim axis, std::size_t rank, const std::string& layer) {
  const Dim r = static_cast<Dim>(rank);
  if (axis < -r || axis >= r) throw Error("axis " + std::to_string(axis) + " is outside a tensor of rank " + std::to_string(r), layer, "axis");
  return axis < 0 ? axis + r : axis;
}

// The axes of Squeeze / Unsqueeze: an input since opset 13, an attribute before.
bool axes_of(const Json& attrs, const Inputs& in, std::vector<Dim>& axes) {
  if (in.size() > 1 && in[1]) {
    if (!valued(in[1])) return false;
    axes = in[1]->values;
    return true;
  }
  if (attrs.is_object() && attrs.contains("axes") && attrs["axes"].is_array()) {
    for (const Json& a : attrs["axes"]) axes.push_back(a.is_number_integer() ? a.get<Dim>() : 0);
  }
  return true;
}

void set_values(OnnxConstant& out, std::vector<Dim> values) {
  out.has_values = values.size() <= kMaxValues;
  if (out.has_values) out.values = std::move(values);
}

bool elementwise(const Inputs& in, OnnxConstant& out, const std::string& layer, const std::function<Dim(Dim, Dim)>& f) {
  if (!known(in, 2)) return false;
  out.known = true;
  out.dims = onnx_broadcast(in[0]->dims, in[1]->dims, layer);
  if (!valued(in[0]) || !valued(in[1])) return true;
  const std::size_t n = static_cast<std::size_t>(count_of(out.dims));
  const auto& a = in[0]->values;
  const auto& b = in[1]->values;
  // Values for the forms shape arithmetic takes: equal sizes, or one side a single value.
  if (!((a.size() == n || a.size() == 1) && (b.size() == n || b.size() == 1)) || n > kMaxValues) return true;
  std::vector<Dim> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = f(a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i]);
  set_values(out, std::move(v));
  return true;
}

// Integer arithmetic of shapes: an overflow is an error naming the node, never a wrapped value.
Dim overflowed(const std::string& layer) { throw Error("shape arithmetic overflows 64 bits", layer, "inputs"); }
Dim add_or_throw(Dim a, Dim b, const std::string& layer) {
  Dim r = 0;
  return __builtin_add_overflow(a, b, &r) ? overflowed(layer) : r;
}
Dim sub_or_throw(Dim a, Dim b, const std::string& layer) {
  Dim r = 0;
  return __builtin_sub_overflow(a, b, &r) ? overflowed(layer) : r;
}
Dim mul_or_throw(Dim a, Dim b, const std::string& layer) {
  Dim r = 0;
  return __builtin_mul_overflow(a, b, &r) ? overflowed(layer) : r;
}

const std::unordered_map<std::string, Fold>& folds() {
  static const std::unordered_map<std::string, Fold> table = {
      {"Identity", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string&) {
         if (!known(in, 1)) return false;
         out = *in[0];
         return true;
       }},
      {"Cast", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string&) {
         if (!known(in, 1)) return false;
         out = *in[0];
         return true;
       }},
      {"Shape", [](const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string&) {
         if (!known(in, 1)) return false;
         const Dim rank = static_cast<Dim>(in[0]->dims.size());
         Dim start = int_attr(attrs, "start", 0), end = int_attr(attrs, "end", rank);
         start = std::clamp<Dim>(start < 0 ? start + rank : start, 0, rank);
         end = std::clamp<Dim>(end < 0 ? end + rank : end, 0, rank);
         out = onnx_constant_list(std::vector<Dim>(in[0]->dims.begin() + start, in[0]->dims.begin() + std::max(start, end)));
         return true;
       }},
      {"Gather", [](const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         if (!known(in, 2)) return false;
         const OnnxConstant& data = *in[0];
         const OnnxConstant& idx = *in[1];
         if (data.dims.empty()) throw Error("cannot gather from a scalar", layer, "inputs");
         const Dim axis = axis_in(int_attr(attrs, "axis", 0), data.dims.size(), layer);
         out.known = true;
         out.dims.assign(data.dims.begin(), data.dims.begin() + axis);
         out.dims.insert(out.dims.end(), idx.dims.begin(), idx.dims.end());
         out.dims.insert(out.dims.end(), data.dims.begin() + axis + 1, data.dims.end());
         if (data.dims.size() == 1 && valued(&data) && valued(&idx)) {
           std::vector<Dim> v;
           const Dim n = data.dims[0];
           for (Dim i : idx.values) {
             if (i < -n || i >= n) throw Error("index " + std::to_string(i) + " is outside the data", layer, "indices");
             v.push_back(data.values[static_cast<std::size_t>(i < 0 ? i + n : i)]);
           }
           set_values(out, std::move(v));
         }
         return true;
       }},
      {"Unsqueeze", [](const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         std::vector<Dim> axes;
         if (!known(in, 1) || !axes_of(attrs, in, axes)) return false;
         out = *in[0];
         const std::size_t rank = out.dims.size() + axes.size();
         std::vector<Dim> norm;
         for (Dim a : axes) norm.push_back(axis_in(a, rank, layer));
         std::sort(norm.begin(), norm.end());
         for (Dim a : norm) out.dims.insert(out.dims.begin() + std::min<Dim>(a, static_cast<Dim>(out.dims.size())), 1);
         return true;
       }},
      {"Squeeze", [](const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         std::vector<Dim> axes;
         if (!known(in, 1) || !axes_of(attrs, in, axes)) return false;
         out = *in[0];
         std::vector<Dim> dims;
         for (std::size_t i = 0; i < out.dims.size(); ++i) {
           bool drop = axes.empty() && out.dims[i] == 1;
           for (Dim a : axes) drop = drop || axis_in(a, out.dims.size(), layer) == static_cast<Dim>(i);
           if (!drop) dims.push_back(out.dims[i]);
         }
         out.dims = dims;
         return true;
       }},
      {"Concat", [](const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         if (!known(in, in.size()) || in.empty()) return false;
         out.known = true;
         out.dims = in[0]->dims;
         if (out.dims.empty()) throw Error("cannot concatenate scalars", layer, "inputs");
         const Dim axis = axis_in(int_attr(attrs, "axis", 0), out.dims.size(), layer);
         out.dims[axis] = 0;
         bool values = out.dims.size() == 1;
         std::vector<Dim> v;
         for (const OnnxConstant* c : in) {
           if (c->dims.size() != out.dims.size()) throw Error("inputs of different ranks", layer, "inputs");
           out.dims[axis] = checked_add(out.dims[axis], c->dims[axis], "inputs", kMaxElements, layer);
           values = values && c->has_values;
           if (values) v.insert(v.end(), c->values.begin(), c->values.end());
         }
         if (values) set_values(out, std::move(v));
         return true;
       }},
      {"Add", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         return elementwise(in, out, layer, [&layer](Dim a, Dim b) { return add_or_throw(a, b, layer); });
       }},
      {"Sub", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         return elementwise(in, out, layer, [&layer](Dim a, Dim b) { return sub_or_throw(a, b, layer); });
       }},
      {"Mul", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         return elementwise(in, out, layer, [&layer](Dim a, Dim b) { return mul_or_throw(a, b, layer); });
       }},
      {"Div", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         return elementwise(in, out, layer, [&layer](Dim a, Dim b) {
           if (b == 0) throw Error("divides a shape by zero", layer, "inputs");
           if (b == -1) return sub_or_throw(0, a, layer);  // the one quotient that can overflow
           return a / b;
         });
       }},
      {"Equal", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         return elementwise(in, out, layer, [](Dim a, Dim b) { return Dim{a == b}; });
       }},
      {"Where", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         if (!known(in, 3)) return false;
         out.known = true;
         out.dims = onnx_broadcast(onnx_broadcast(in[0]->dims, in[1]->dims, layer), in[2]->dims, layer);
         const std::size_t n = static_cast<std::size_t>(count_of(out.dims));
         auto fits = [n](const OnnxConstant* c) { return valued(c) && (c->values.size() == n || c->values.size() == 1); };
         if (n > kMaxValues || !fits(in[0]) || !fits(in[1]) || !fits(in[2])) return true;
         std::vector<Dim> v(n);
         auto at = [](const OnnxConstant* c, std::size_t i) { return c->values[c->values.size() == 1 ? 0 : i]; };
         for (std::size_t i = 0; i < n; ++i) v[i] = at(in[0], i) ? at(in[1], i) : at(in[2], i);
         set_values(out, std::move(v));
         return true;
       }},
      {"ConstantOfShape", [](const Json& attrs, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         if (!valued(in.empty() ? nullptr : in[0])) return false;
         out.known = true;
         out.dims = in[0]->values;
         for (Dim d : out.dims)
           if (d < 0) throw Error("a negative dimension", layer, "inputs");
         const OnnxConstant fill = attrs.is_object() && attrs.contains("value") ? onnx_constant_from_summary(attrs["value"])
                                                                               : onnx_constant_list({0});
         const Dim n = count_of(out.dims);
         if (fill.has_values && fill.values.size() == 1 && n <= static_cast<Dim>(kMaxValues))
           set_values(out, std::vector<Dim>(static_cast<std::size_t>(n), fill.values[0]));
         return true;
       }},
      {"Expand", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         if (!known(in, 1) || !valued(in.size() > 1 ? in[1] : nullptr)) return false;
         out.known = true;
         out.dims = onnx_broadcast(in[0]->dims, in[1]->values, layer);
         const Dim n = count_of(out.dims);
         if (valued(in[0]) && in[0]->values.size() == 1 && n <= static_cast<Dim>(kMaxValues))
           set_values(out, std::vector<Dim>(static_cast<std::size_t>(n), in[0]->values[0]));
         return true;
       }},
      {"Reshape", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string&) {
         if (!known(in, 1) || !valued(in.size() > 1 ? in[1] : nullptr)) return false;
         out = *in[0];
         const Dim total = count_of(in[0]->dims);
         Dim known_count = 1;
         int unknown = -1;
         out.dims = in[1]->values;
         for (std::size_t i = 0; i < out.dims.size(); ++i) {
           if (out.dims[i] == 0 && i < in[0]->dims.size()) out.dims[i] = in[0]->dims[i];
           if (out.dims[i] == -1) unknown = static_cast<int>(i);
           else known_count = count_of({known_count, std::max<Dim>(out.dims[i], 1)});
         }
         if (unknown >= 0) out.dims[static_cast<std::size_t>(unknown)] = total / std::max<Dim>(known_count, 1);
         return true;
       }},
      {"Slice", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string&) {
         // 1-D value slices (shape arithmetic); the rest is left unknown.
         if (!valued(in.empty() ? nullptr : in[0]) || in[0]->dims.size() != 1 || in.size() < 3 || !valued(in[1]) ||
             !valued(in[2]) || (in.size() > 4 && in[4] && !valued(in[4])))
           return false;
         const Dim n = static_cast<Dim>(in[0]->values.size());
         const Dim step = in.size() > 4 && in[4] && !in[4]->values.empty() ? in[4]->values[0] : 1;
         if (step != 1) return false;
         Dim start = in[1]->values.at(0), end = in[2]->values.at(0);
         start = std::clamp<Dim>(start < 0 ? start + n : start, 0, n);
         end = std::clamp<Dim>(end < 0 ? end + n : end, 0, n);
         out = onnx_constant_list(std::vector<Dim>(in[0]->values.begin() + start, in[0]->values.begin() + std::max(start, end)));
         return true;
       }},
      {"Range", [](const Json&, const Inputs& in, OnnxConstant& out, const std::string& layer) {
         if (!valued(in.size() > 2 ? in[0] : nullptr) || !valued(in[1]) || !valued(in[2])) return false;
         const Dim start = in[0]->values.at(0), limit = in[1]->values.at(0), delta = in[2]->values.at(0);
         if (delta == 0) throw Error("a range of step 0", layer, "inputs");
         std::vector<Dim> v;
         for (Dim x = start; (delta > 0 ? x < limit : x > limit) && v.size() <= kMaxValues;) {
           v.push_back(x);
           if (__builtin_add_overflow(x, delta, &x)) break;
         }
         out = onnx_constant_list(v);
         return true;
       }},
  };
  return table;
}

}  // namespace

OnnxConstant onnx_constant_from_summary(const Json& summary) {
  OnnxConstant c;
  if (!summary.is_object() || !summary.contains("dims") || !summary["dims"].is_array()) return c;
  c.known = true;
  for (const Json& d : summary["dims"]) c.dims.push_back(d.is_number_integer() ? d.get<Dim>() : 0);
  if (summary.contains("values") && summary["values"].is_array()) {
    std::vector<Dim> v;
    for (const Json& x : summary["values"]) v.push_back(x.is_number_integer() ? x.get<Dim>() : 0);
    if (static_cast<Dim>(v.size()) == count_of(c.dims)) set_values(c, std::move(v));
  }
  return c;
}

OnnxConstant onnx_constant_list(const std::vector<Dim>& values) {
  OnnxConstant c;
  c.known = true;
  c.dims = {static_cast<Dim>(values.size())};
  set_values(c, values);
  return c;
}

bool fold_onnx_constants(const std::string& op, const Json& attrs, const Inputs& in, std::vector<OnnxConstant>& out,
                         const std::string& layer) {
  auto it = folds().find(op);
  if (it == folds().end() || out.empty()) return false;
  return it->second(attrs, in, out[0], layer);
}

std::vector<Dim> onnx_broadcast(const std::vector<Dim>& a, const std::vector<Dim>& b, const std::string& layer) {
  std::vector<Dim> out(std::max(a.size(), b.size()), 1);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Dim x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const Dim y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (x != y && x != 1 && y != 1)
      throw Error("shapes [" + shape_to_string(a) + "] and [" + shape_to_string(b) + "] do not broadcast", layer, "inputs");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

}  // namespace paleo
