#pragma once
// The constant tensors of an ONNX graph (initializers, Constant nodes, and what shape arithmetic
// computes from them and from Shape of an activation): their dims, and the values of small
// integer ones, so that Reshape targets, Slice bounds and Gather indices are known where the file
// has no shapes. Float weights never have values here: the decoder keeps only their dims.
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/spec/shape.h"

namespace paleo {

struct OnnxConstant {
  bool known = false;       // whether `dims` is known at all
  std::vector<Dim> dims;    // empty: a scalar
  bool has_values = false;  // whether `values` holds all of its elements (integers)
  std::vector<Dim> values;
};

// The tensor summary the decoder writes ({"dims": [...], "values": [...]?}).
OnnxConstant onnx_constant_from_summary(const Json& summary);

// A constant holding `values` as a 1-D tensor.
OnnxConstant onnx_constant_list(const std::vector<Dim>& values);

// Evaluates node `op` whose inputs are all constants (a missing optional input is nullptr) into
// its outputs. Returns false for an operator it does not evaluate (the outputs stay unknown).
// Throws paleo::Error naming `layer` for an impossible computation (a division by zero).
bool fold_onnx_constants(const std::string& op, const Json& attrs, const std::vector<const OnnxConstant*>& in,
                         std::vector<OnnxConstant>& out, const std::string& layer);

// ONNX broadcasting of two shapes; throws paleo::Error naming `layer` when they do not broadcast.
std::vector<Dim> onnx_broadcast(const std::vector<Dim>& a, const std::vector<Dim>& b, const std::string& layer);

}  // namespace paleo
