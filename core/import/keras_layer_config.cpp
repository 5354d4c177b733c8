#include "core/import/keras_layer_config.h"

#include "core/base/error.h"

namespace paleo::keras {

const Shape& one_input(const KerasLayer& l) {
  if (l.inputs.size() != 1) throw Error("takes exactly one input, got " + std::to_string(l.inputs.size()), l.name, "inbound_nodes");
  return l.inputs[0];
}
const Shape& image_input(const KerasLayer& l) {
  const Shape& in = one_input(l);
  if (in.size() != 4) throw Error("needs a 4-D input [N, H, W, C], got [" + shape_to_string(in) + "]", l.name, "inbound_nodes");
  if (string_or(l, "data_format", "channels_last") != "channels_last")
    throw Error("only channels_last is mapped", l.name, "data_format");
  return in;
}
std::string string_or(const KerasLayer& l, const std::string& key, const std::string& fallback) {
  const Json& c = *l.config;
  return c.contains(key) && c[key].is_string() ? c[key].get<std::string>() : fallback;
}
Dim int_of(const KerasLayer& l, const std::string& key, Dim fallback) {
  const Json& c = *l.config;
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number_integer() || c[key].get<Dim>() <= 0) throw Error("must be a positive integer", l.name, key);
  // Checked here, on the layer that states it: past the tensor limit, it would otherwise surface
  // as another layer's field (a `filters` of 2^62 as the next depthwise layer's depth_multiplier).
  if (c[key].get<Dim>() > kMaxElements)
    throw Error("is " + std::to_string(c[key].get<Dim>()) + ", more than the limit of " + std::to_string(kMaxElements) +
                    " (docs/api.md)", l.name, key);
  return c[key].get<Dim>();
}
// An int or a pair of ints (kernel_size, strides, pool_size); `fallback` when absent or null.
std::pair<Dim, Dim> pair_of(const KerasLayer& l, const std::string& key, std::pair<Dim, Dim> fallback) {
  const Json& c = *l.config;
  if (!c.contains(key) || c[key].is_null()) return fallback;
  const Json& v = c[key];
  if (v.is_number_integer() && v.get<Dim>() > 0) return {v.get<Dim>(), v.get<Dim>()};
  if (v.is_array() && v.size() == 2 && v[0].is_number_integer() && v[1].is_number_integer() && v[0].get<Dim>() > 0 &&
      v[1].get<Dim>() > 0)
    return {v[0].get<Dim>(), v[1].get<Dim>()};
  throw Error("must be a positive integer or a pair of them", l.name, key);
}
std::string padding_of(const KerasLayer& l) {
  const std::string p = string_or(l, "padding", "valid");
  if (p == "valid") return "VALID";
  if (p == "same") return "SAME";
  throw Error("must be \"valid\" or \"same\", got \"" + p + "\"", l.name, "padding");
}
// TensorFlow's output size (Paleo's VALID and SAME are the same rules).
Dim out_size(Dim in, Dim k, Dim s, const std::string& padding, const KerasLayer& l, const std::string& key) {
  const Dim out = padding == "SAME" ? (in - 1) / s + 1 : (in - k) / s + 1;
  if (out <= 0 || (padding == "VALID" && in < k)) throw Error("the window does not fit the input", l.name, key);
  return out;
}
std::string activation_name(const KerasLayer& l) {
  const Json& c = *l.config;
  if (!c.contains("activation") || c["activation"].is_null()) return "linear";
  if (c["activation"].is_string()) return c["activation"].get<std::string>();
  // Keras 3 may serialize it as {"class_name": "function", "config": "relu"}.
  if (c["activation"].is_object() && c["activation"].contains("config") && c["activation"]["config"].is_string())
    return c["activation"]["config"].get<std::string>();
  throw Error("must name an activation", l.name, "activation");
}
bool use_bias(const KerasLayer& l) {
  const Json& c = *l.config;
  return !c.contains("use_bias") || !c["use_bias"].is_boolean() || c["use_bias"].get<bool>();
}

}  // namespace paleo::keras
