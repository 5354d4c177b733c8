// The estimate-only module's (PALEO_ESTIMATE_ONLY, docs/embed.md) stand-in for
// core/import/net_import.cpp: it carries none of the converters (Caffe, Keras, ONNX), so an
// imported net is answered with an error that says where it is read.
#include "core/import/net_import.h"

#include "core/base/error.h"

namespace paleo {

Json imported_net_spec(const Json&, const std::string& field, bool, std::vector<std::string>&) {
  throw Error(
      "is an imported net (Caffe, Keras or ONNX), which this estimate-only build does not read: the page, "
      "the CLI and the npm package do",
      "", field);
}

}  // namespace paleo
