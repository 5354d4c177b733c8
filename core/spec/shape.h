#pragma once
// Tensor shapes (NHWC, or [N, D] for flat tensors) and overflow-safe element counts.
#include <string>

#include "core/base/dims.h"

namespace paleo {

// Largest element count of one tensor we accept: 2^50 elements (4 PiB of float32) is beyond any
// real device, and keeps every product of shapes exact in a double.
constexpr Dim kMaxElements = Dim{1} << 50;

// Product of the dimensions; throws paleo::Error naming layer and field when it exceeds
// kMaxElements or a dimension is not positive.
Dim element_count(const Shape& shape, const std::string& layer, const std::string& field);

// element_count of a layer's output [N, ...]: when one sample's part is within the limit and only
// the batch takes the whole past it, the error names the field "batch_size" (VGG-16 at batch 2^30
// is too large for its batch, not for its first convolution's filter).
Dim output_element_count(const Shape& shape, const std::string& layer, const std::string& field);

// Unchecked product for shapes already validated.
double product(const Shape& shape);

// The shape of an element-wise operation on `a` and `b`, broadcast as NumPy and PyTorch do past
// the batch (a dimension of 1 stretches to the other's: a squeeze-and-excitation's [N, 1, 1, C]
// over its [N, H, W, C]); false (`out` untouched) when they differ in rank, batch or a dimension
// neither is 1 of. `out` may be `a` or `b`.
bool broadcast_shapes(const Shape& a, const Shape& b, Shape& out);

// "128x224x224x3", the original's notation.
std::string shape_to_string(const Shape& shape);

}  // namespace paleo
