#pragma once
// An ONNX tensor the imported net computes, and where its data sits in Paleo's layout: Paleo keeps
// the batch as the first dimension, NCHW images become NHWC, and every other tensor is one
// sample's behind the batch. An ONNX tensor's batch is its first dimension equal to the graph
// input's batch; where a node merged it away the whole tensor is one sample's (docs/import.md).
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/spec/shape.h"

namespace paleo {

struct OnnxTensor {
  std::string layer;       // the Paleo layer writing it
  std::vector<Dim> shape;  // ONNX's
  bool image = false;      // NCHW, NHWC in Paleo
};

// Where the batch sits in the ONNX shape (0 for an image), or -1 when it is merged away.
Dim onnx_batch_index(const OnnxTensor& t, Dim batch);
// One sample's dimensions, in Paleo's order.
std::vector<Dim> onnx_per_sample(const OnnxTensor& t, Dim batch);
// The Paleo shape: [batch, one sample's dimensions...].
Json onnx_paleo_shape(const OnnxTensor& t, Dim batch);
// The Paleo axis of ONNX axis `axis` (in range); -1 for the batch itself.
Dim onnx_paleo_axis(const OnnxTensor& t, Dim axis, Dim batch);

}  // namespace paleo
