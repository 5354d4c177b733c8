#pragma once
// A Caffe prototxt converted to a Paleo network spec the way the original PALEO's converter
// (paleo/utils/convertors.py) does, so that paleo2017 prices the original's layer graph:
// - the input from `input_dim` / `input_shape` (NCHW to NHWC) or an Input layer, named "data";
// - any non-zero pad makes a convolution or pooling SAME, else VALID;
// - Eltwise is Elementwise, Concat is Concatenate (axis NCHW to NHWC), SoftmaxWithLoss is Softmax
//   and it and Accuracy keep only their first bottom (the label is not a layer input);
// - in-place layers (one bottom that is also the top: ReLU, BatchNorm, Scale ...) are dropped;
// - TEST-phase layers are skipped; other types become free Generic layers (a warning each).
// Where the original fails or errs, this follows Caffe: kernel_h/kernel_w, group, average
// pooling as AvgPool, global_pooling, bottoms that name a top blob rather than a layer.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

// Throws paleo::Error naming the layer and field (or `field` and the line of a syntax error).
Json caffe_prototxt_to_spec(const std::string& text, const std::string& field, bool as_original,
                            std::vector<std::string>& warnings);

}  // namespace paleo
