#pragma once
// One Keras layer of a model.to_json() document as the Keras import maps it (its name, config,
// and its inputs' Paleo layers and shapes), and the readers of its config fields: each throws
// paleo::Error naming the layer and the field.
#include <string>
#include <utility>
#include <vector>

#include "core/base/json.h"
#include "core/spec/shape.h"

namespace paleo::keras {

struct KerasLayer {
  std::string name;
  std::string class_name;
  const Json* config = nullptr;
  std::vector<std::string> parents;  // Paleo layers
  std::vector<Shape> inputs;         // NHWC, [N, D] or [N, T, D]
};

// The single input; a 4-D channels_last one.
const Shape& one_input(const KerasLayer& l);
const Shape& image_input(const KerasLayer& l);

// config[key] as a string, or `fallback` when absent.
std::string string_or(const KerasLayer& l, const std::string& key, const std::string& fallback);
// A positive integer; `fallback` when absent or null.
Dim int_of(const KerasLayer& l, const std::string& key, Dim fallback);
// An int or a pair of ints (kernel_size, strides, pool_size); `fallback` when absent or null.
std::pair<Dim, Dim> pair_of(const KerasLayer& l, const std::string& key, std::pair<Dim, Dim> fallback);
// "valid" / "same" as Paleo's "VALID" / "SAME".
std::string padding_of(const KerasLayer& l);
// TensorFlow's output size along one axis (Paleo's VALID and SAME are the same rules).
Dim out_size(Dim in, Dim k, Dim s, const std::string& padding, const KerasLayer& l, const std::string& key);
// The layer's `activation` ("linear" when absent; Keras 3's {"config": "relu"} form read too).
std::string activation_name(const KerasLayer& l);
// `use_bias` (true when absent).
bool use_bias(const KerasLayer& l);

}  // namespace paleo::keras
