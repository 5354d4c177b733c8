#pragma once
// The geometry of a 2-D convolution (NHWC input, [kh, kw, Cin, Cout] filter), and the
// stride-1 "dummy" convolutions the original uses to cost the two gradients of a convolution
// (TensorFlow's ConvBackpropExtractAndVerifyDimension). A grouped convolution keeps the whole
// tensors here and divides the work by `groups` (docs/model.md, "Grouped convolution").
#include <string>

#include "core/spec/shape.h"

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
  // `groups` independent convolutions side by side. A forward or data-gradient convolution splits
  // its channels (each output channel sees cin/groups inputs), so its filter holds
  // kh*kw*cin*cout/groups weights. The filter-gradient dummy of a grouped layer splits its batch
  // (the layer's input channels) and its cout instead: the filter it reads (the output gradient)
  // is whole, the output it writes (the weight gradient) is divided.
  Dim groups = 1;
  bool groups_split_batch = false;

  double holes_in_input_fraction() const { return holes_in_inputs ? holes : 0.0; }
  double holes_in_filter_fraction() const { return holes_in_inputs ? 0.0 : holes; }
  Shape filter() const { return {kh, kw, cin, cout}; }
  // The divisors of the filter and output tensors for the grouping above.
  double filter_groups() const { return groups_split_batch ? 1.0 : static_cast<double>(groups); }
  double output_groups() const { return groups_split_batch ? static_cast<double>(groups) : 1.0; }
  // product(filter()), without building the shape: priced for every pass of every convolution.
  double filter_elements() const {
    return static_cast<double>(kh) * static_cast<double>(kw) * static_cast<double>(cin) * static_cast<double>(cout) /
           filter_groups();
  }
  double output_elements() const { return product(output) / output_groups(); }
  // Multiply-adds of the whole convolution (all groups, all samples).
  double macs() const {
    return static_cast<double>(kh) * static_cast<double>(kw) * static_cast<double>(cin) *
           static_cast<double>(output[1]) * static_cast<double>(output[2]) * static_cast<double>(cout) *
           static_cast<double>(input[0]) / static_cast<double>(groups);
  }
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
