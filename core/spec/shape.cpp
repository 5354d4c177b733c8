#include "core/spec/shape.h"

#include <utility>

#include "core/base/error.h"

namespace paleo {

Dim element_count(const Shape& shape, const std::string& layer, const std::string& field) {
  Dim count = 1;
  for (Dim d : shape) {
    if (d <= 0) {
      throw Error("every dimension must be positive, got shape [" + shape_to_string(shape) + "]",
                  layer, field);
    }
    if (d > kMaxElements || count > kMaxElements / d) {
      throw Error("shape [" + shape_to_string(shape) + "] is absurdly large (more than 2^50 elements)",
                  layer, field);
    }
    count *= d;
  }
  return count;
}

Dim output_element_count(const Shape& shape, const std::string& layer, const std::string& field) {
  if (shape.size() > 1) {
    const Shape sample(shape.begin() + 1, shape.end());
    const Dim per_sample = element_count(sample, layer, field);
    if (shape[0] > 0 && per_sample > kMaxElements / shape[0])
      throw Error("its output [" + shape_to_string(shape) + "] would hold more than 2^50 elements at a batch of " +
                      std::to_string(shape[0]) + " (one sample's is " + std::to_string(per_sample) + ")",
                  layer, "batch_size");
  }
  return element_count(shape, layer, field);
}

double product(const Shape& shape) {
  double p = 1;
  for (Dim d : shape) p *= static_cast<double>(d);
  return p;
}

bool broadcast_shapes(const Shape& a, const Shape& b, Shape& out) {
  if (a.size() != b.size() || a.empty() || a[0] != b[0]) return false;
  Shape shape = a;
  for (std::size_t d = 1; d < a.size(); ++d) {
    if (a[d] == b[d] || b[d] == 1) continue;
    if (a[d] != 1) return false;
    shape[d] = b[d];
  }
  out = std::move(shape);
  return true;
}

std::string shape_to_string(const Shape& shape) {
  std::string out;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(shape[i]);
  }
  return out;
}

}  // namespace paleo
