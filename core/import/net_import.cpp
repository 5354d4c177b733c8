#include "core/import/net_import.h"

#include "core/base/error.h"
#include "core/import/caffe_prototxt.h"
#include "core/import/keras_model.h"
#include "core/import/net_import_form.h"
#include "core/import/onnx_graph.h"

namespace paleo {

Json imported_net_spec(const Json& net, const std::string& field, bool as_original, std::vector<std::string>& warnings) {
  switch (imported_form(net)) {
    case ImportedForm::kPrototxt: {
      const Json& text = net[kPrototxtKey];
      if (!text.is_string()) throw Error("must be the prototxt text as a string", "", field + "." + kPrototxtKey);
      return caffe_prototxt_to_spec(text.get<std::string>(), field + "." + kPrototxtKey, as_original, warnings);
    }
    case ImportedForm::kOnnxGraph: {
      static const Json none;
      return onnx_graph_to_spec(net[kOnnxGraphKey], field + "." + kOnnxGraphKey,
                                net.contains(kInputShapeKey) ? net[kInputShapeKey] : none, field + "." + kInputShapeKey,
                                warnings);
    }
    case ImportedForm::kKeras:
      return keras_model_to_spec(net[kKerasKey], field + "." + kKerasKey, warnings);
    case ImportedForm::kKerasDocument:
      return keras_model_to_spec(net, field, warnings);
    case ImportedForm::kNone:
      break;
  }
  throw Error("is not an imported net", "", field);
}

}  // namespace paleo
