#pragma once
// A Keras model as `model.to_json()` writes it (Sequential or Functional; Keras 2 and Keras 3
// forms), mapped to a Paleo network spec: Conv2D, DepthwiseConv2D, Dense, the 2-D poolings,
// BatchNormalization, activations, Add, Concatenate, Flatten, Dropout, ZeroPadding2D
// (docs/import.md). Other layers become free Generic layers, listed in a warning.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

// `model` is the JSON document (an object, or its text). Throws paleo::Error naming the Keras
// layer and its config field.
Json keras_model_to_spec(const Json& model, const std::string& field, std::vector<std::string>& warnings);

}  // namespace paleo
