#pragma once
// The geometry of a 2-D convolution (NHWC input, [kh, kw, Cin, Cout] filter), and the
// stride-1 "dummy" convolutions the original uses to cost the two gradients of a convolution
// (TensorFlow's ConvBackpropExtractAndVerifyDimension).
#include <string>

#include "core/shape.h"

namespace paleo {

enum class Padding { kValid, kSame, kExplicit };

struct ConvGeometry {
  Shape input;   // [N, H, W, C]
  Dim kh = 1, kw = 1, cin = 1, cout = 1;
  Dim sh = 1, sw = 1;
  Padding padding = Padding::kValid;
  Dim pad_h = 0, pad_w = 0;
  Shape output;  // [N, OH, OW, Cout]
  // Fraction of zeros inserted by a strided gradient, and where they sit.
  double holes = 0;
  bool holes_in_inputs = false;

  double holes_in_input_fraction() const { return holes_in_inputs ? holes : 0.0; }
  double holes_in_filter_fraction() const { return holes_in_inputs ? 0.0 : holes; }
  Shape filter() const { return {kh, kw, cin, cout}; }
};

// Builds the geometry and output shape. For Padding::kExplicit, pad_h/pad_w are used as given.
// Throws paleo::Error (layer, "filter"/"strides") on channel mismatch or an empty output.
ConvGeometry make_conv(const Shape& input, const Shape& filter, Dim sh, Dim sw, Padding padding,
                       Dim pad_h, Dim pad_w, const std::string& layer);

// The stride-1 convolution whose cost models the gradient with respect to the input.
ConvGeometry data_gradient_conv(const ConvGeometry& conv, const std::string& layer);
// The stride-1 convolution whose cost models the gradient with respect to the filters.
ConvGeometry filter_gradient_conv(const ConvGeometry& conv, const std::string& layer);

}  // namespace paleo
