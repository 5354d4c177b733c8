#include "core/import/onnx_tensor.h"

namespace paleo {

Dim onnx_batch_index(const OnnxTensor& t, Dim batch) {
  if (t.image) return 0;
  for (std::size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] == batch) return static_cast<Dim>(i);
  return -1;
}

std::vector<Dim> onnx_per_sample(const OnnxTensor& t, Dim batch) {
  if (t.image) return {t.shape[2], t.shape[3], t.shape[1]};
  std::vector<Dim> s = t.shape;
  const Dim b = onnx_batch_index(t, batch);
  if (b >= 0) s.erase(s.begin() + b);
  return s;
}

Json onnx_paleo_shape(const OnnxTensor& t, Dim batch) {
  Json s = Json::array({batch});
  for (Dim d : onnx_per_sample(t, batch)) s.push_back(d);
  return s;
}

Dim onnx_paleo_axis(const OnnxTensor& t, Dim axis, Dim batch) {
  if (t.image) {
    static const Dim kNchwToNhwc[4] = {0, 3, 1, 2};
    return kNchwToNhwc[axis];
  }
  const Dim b = onnx_batch_index(t, batch);
  if (axis == b) return -1;
  return 1 + axis - (b >= 0 && axis > b ? 1 : 0);
}

}  // namespace paleo
