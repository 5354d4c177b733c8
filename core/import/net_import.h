#pragma once
// A request's `net` given in another framework's format, converted to a Paleo network spec
// (docs/import.md): {"prototxt": "<Caffe prototxt text>"}, {"onnx_graph": {...}} (decoded by
// tools/onnx_to_graph.mjs), {"keras": <model.to_json(), as an object or its text>}, or a Keras
// model.to_json() document itself.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

// Whether `net` is a Keras model.to_json() document: {"class_name": "Sequential" | "Functional" |
// "Model", "config": ...}. The one test of it: the CLI and the page send such files as they are.
bool is_keras_model_document(const Json& net);

// Whether `net` is one of the imported forms (not a Paleo spec, preset or transformer).
bool is_imported_net(const Json& net);

// The Paleo spec of an imported net; what the conversion could not follow goes to `warnings`.
// `as_original` (the paleo2017 profile) keeps the original PALEO converter's reading where it
// differs from the framework's. Throws paleo::Error naming the layer and field (`field` for the
// document as a whole).
Json imported_net_spec(const Json& net, const std::string& field, bool as_original, std::vector<std::string>& warnings);

}  // namespace paleo
