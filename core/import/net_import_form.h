#pragma once
// import/: which imported form a request's `net` is (core/import/net_import.h), apart from the
// converters, so that a build without them (the estimate-only module, docs/embed.md) still tells
// an imported net from a spec.
#include "core/base/json.h"

namespace paleo {

enum class ImportedForm { kNone, kPrototxt, kOnnxGraph, kKeras, kKerasDocument };

// The key naming each form: exactly one of them, and nothing else (but an ONNX graph's
// input_shape), in the object.
inline const char* const kPrototxtKey = "prototxt";
inline const char* const kOnnxGraphKey = "onnx_graph";
inline const char* const kKerasKey = "keras";
inline const char* const kInputShapeKey = "input_shape";

ImportedForm imported_form(const Json& net);

}  // namespace paleo
