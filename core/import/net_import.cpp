#include "core/import/net_import.h"

#include "core/base/error.h"
#include "core/import/caffe_prototxt.h"
#include "core/import/keras_model.h"
#include "core/import/onnx_graph.h"

namespace paleo {
namespace {

// The key naming each imported form; exactly one of them, and nothing else, in the object.
const char* const kPrototxt = "prototxt";
const char* const kOnnxGraph = "onnx_graph";
const char* const kKeras = "keras";

bool only_key(const Json& net, const char* key) { return net.is_object() && net.size() == 1 && net.contains(key); }

// An ONNX graph, with the graph input's shape beside it or not.
const char* const kInputShape = "input_shape";
bool onnx_form(const Json& net) {
  return only_key(net, kOnnxGraph) ||
         (net.is_object() && net.size() == 2 && net.contains(kOnnxGraph) && net.contains(kInputShape));
}

}  // namespace

bool is_keras_model_document(const Json& net) {
  if (!net.is_object() || !net.contains("config") || !net.contains("class_name")) return false;
  const Json& kind = net["class_name"];
  // Keras 2 writes a Functional model's class as "Model" (before 2.4) or "Functional"; Keras 3 as
  // "Functional".
  return kind == "Sequential" || kind == "Functional" || kind == "Model";
}

bool is_imported_net(const Json& net) {
  return only_key(net, kPrototxt) || onnx_form(net) || only_key(net, kKeras) || is_keras_model_document(net);
}

Json imported_net_spec(const Json& net, const std::string& field, bool as_original, std::vector<std::string>& warnings) {
  if (only_key(net, kPrototxt)) {
    const Json& text = net[kPrototxt];
    if (!text.is_string()) throw Error("must be the prototxt text as a string", "", field + "." + kPrototxt);
    return caffe_prototxt_to_spec(text.get<std::string>(), field + "." + kPrototxt, as_original, warnings);
  }
  if (onnx_form(net)) {
    static const Json none;
    return onnx_graph_to_spec(net[kOnnxGraph], field + "." + kOnnxGraph, net.contains(kInputShape) ? net[kInputShape] : none,
                              field + "." + kInputShape, warnings);
  }
  if (only_key(net, kKeras)) return keras_model_to_spec(net[kKeras], field + "." + kKeras, warnings);
  if (is_keras_model_document(net)) return keras_model_to_spec(net, field, warnings);
  throw Error("is not an imported net", "", field);
}

}  // namespace paleo
