#include "core/spec/conv_geometry.h"

#include <cstdlib>

#include "core/base/error.h"

namespace paleo {
namespace {

Dim ceil_div(Dim a, Dim b) { return (a + b - 1) / b; }

struct BackpropPadding {
  Dim expanded_h, expanded_w, pad_h, pad_w;
  double holes;
};

// Original Conv2d.gradients()._compute_padding().
BackpropPadding backprop_padding(const ConvGeometry& c) {
  Dim eh = (c.output[1] - 1) * c.sh + 1;
  Dim ew = (c.output[2] - 1) * c.sw + 1;
  Dim padded_h = c.input[1] + c.kh - 1;
  Dim padded_w = c.input[2] + c.kw - 1;
  Dim before_h = c.kh - 1 - c.pad_h;
  Dim before_w = c.kw - 1 - c.pad_w;
  Dim after_h = padded_h - eh - before_h;
  Dim after_w = padded_w - ew - before_w;
  if (std::llabs(before_h - after_h) == 1) eh += 1;
  if (std::llabs(before_w - after_w) == 1) ew += 1;
  BackpropPadding p;
  p.expanded_h = eh;
  p.expanded_w = ew;
  p.pad_h = before_h < after_h ? before_h : after_h;
  p.pad_w = before_w < after_w ? before_w : after_w;
  double holes = static_cast<double>(eh * ew - c.output[1] * c.output[2]);
  p.holes = holes / static_cast<double>(eh) / static_cast<double>(ew);
  return p;
}

// make_conv with the filter's four sizes; `c` holds the input already.
void shape_conv(ConvGeometry& c, Dim kh, Dim kw, Dim cin, Dim cout, Dim sh, Dim sw, Padding padding, Dim pad_h,
                Dim pad_w, const std::string& layer) {
  const Shape& input = c.input;
  c.kh = kh;
  c.kw = kw;
  c.cin = cin;
  c.cout = cout;
  c.sh = sh;
  c.sw = sw;
  c.padding = padding;
  if (c.cin != input[3])
    throw Error("input has " + std::to_string(input[3]) + " channels but filter[2] is " +
                    std::to_string(c.cin), layer, "filter");
  const Dim h = input[1], w = input[2];
  Dim oh = 0, ow = 0;
  switch (padding) {
    case Padding::kValid:
      oh = h - c.kh + 1 > 0 ? ceil_div(h - c.kh + 1, sh) : 0;
      ow = w - c.kw + 1 > 0 ? ceil_div(w - c.kw + 1, sw) : 0;
      break;
    case Padding::kSame:
      oh = ceil_div(h, sh);
      ow = ceil_div(w, sw);
      c.pad_h = ((oh - 1) * sh + c.kh - h) / 2;
      c.pad_w = ((ow - 1) * sw + c.kw - w) / 2;
      break;
    case Padding::kExplicit:
      c.pad_h = pad_h;
      c.pad_w = pad_w;
      oh = h + 2 * pad_h - c.kh >= 0 ? (h + 2 * pad_h - c.kh) / sh + 1 : 0;
      ow = w + 2 * pad_w - c.kw >= 0 ? (w + 2 * pad_w - c.kw) / sw + 1 : 0;
      break;
  }
  if (oh <= 0 || ow <= 0)
    throw Error("a " + std::to_string(c.kh) + "x" + std::to_string(c.kw) + " kernel does not fit the " +
                    std::to_string(h) + "x" + std::to_string(w) + " input",
                layer, "filter");
  c.output = {input[0], oh, ow, c.cout};
  output_element_count(c.output, layer, "filter");
}

// The gradients' dummies: the input [n, h, w, ch] written in place rather than built and copied.
ConvGeometry dummy_conv(Dim n, Dim h, Dim w, Dim ch, Dim kh, Dim kw, Dim cin, Dim cout, Padding padding, Dim pad_h,
                        Dim pad_w, const std::string& layer) {
  ConvGeometry c;
  c.input = {n, h, w, ch};
  shape_conv(c, kh, kw, cin, cout, 1, 1, padding, pad_h, pad_w, layer);
  return c;
}

}  // namespace

ConvGeometry make_conv(const Shape& input, const Shape& filter, Dim sh, Dim sw, Padding padding,
                       Dim pad_h, Dim pad_w, const std::string& layer) {
  if (input.size() != 4)
    throw Error("needs a 4-D input [N, H, W, C], got [" + shape_to_string(input) + "]", layer, "parents");
  ConvGeometry c;
  c.input = input;
  shape_conv(c, filter[0], filter[1], filter[2], filter[3], sh, sw, padding, pad_h, pad_w, layer);
  return c;
}

ConvGeometry data_gradient_conv(const ConvGeometry& c, const std::string& layer) {
  BackpropPadding p = backprop_padding(c);
  ConvGeometry d = dummy_conv(c.output[0], p.expanded_h, p.expanded_w, c.output[3], c.kh, c.kw, c.cout, c.cin,
                              Padding::kExplicit, p.pad_h, p.pad_w, layer);
  d.holes = p.holes;
  d.holes_in_inputs = true;
  d.groups = c.groups;
  return d;
}

ConvGeometry filter_gradient_conv(const ConvGeometry& c, const std::string& layer) {
  BackpropPadding p = backprop_padding(c);
  Padding padding = c.padding == Padding::kValid ? Padding::kValid : Padding::kExplicit;
  ConvGeometry f = dummy_conv(c.cin, c.input[1], c.input[2], c.input[0], p.expanded_h, p.expanded_w, c.output[0],
                              c.output[3], padding, p.pad_h, p.pad_w, layer);
  f.holes = p.holes;
  f.holes_in_inputs = false;
  f.groups = c.groups;
  f.groups_split_batch = true;
  return f;
}

}  // namespace paleo
