#include "core/import/net_import_form.h"

#include "core/import/net_import.h"

namespace paleo {
namespace {

bool only_key(const Json& net, const char* key) { return net.is_object() && net.size() == 1 && net.contains(key); }

// An ONNX graph, with the graph input's shape beside it or not.
bool onnx_form(const Json& net) {
  return only_key(net, kOnnxGraphKey) ||
         (net.is_object() && net.size() == 2 && net.contains(kOnnxGraphKey) && net.contains(kInputShapeKey));
}

}  // namespace

bool is_keras_model_document(const Json& net) {
  if (!net.is_object() || !net.contains("config") || !net.contains("class_name")) return false;
  const Json& kind = net["class_name"];
  // Keras 2 writes a Functional model's class as "Model" (before 2.4) or "Functional"; Keras 3 as
  // "Functional".
  return kind == "Sequential" || kind == "Functional" || kind == "Model";
}

ImportedForm imported_form(const Json& net) {
  if (only_key(net, kPrototxtKey)) return ImportedForm::kPrototxt;
  if (onnx_form(net)) return ImportedForm::kOnnxGraph;
  if (only_key(net, kKerasKey)) return ImportedForm::kKeras;
  if (is_keras_model_document(net)) return ImportedForm::kKerasDocument;
  return ImportedForm::kNone;
}

bool is_imported_net(const Json& net) { return imported_form(net) != ImportedForm::kNone; }

}  // namespace paleo
