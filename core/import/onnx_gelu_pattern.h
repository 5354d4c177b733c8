#pragma once
// GELU written out with Erf, as torch.onnx exports nn.GELU before opset 20:
// y = x * (erf(x / sqrt 2) + 1) * 0.5, five nodes that the import prices as one GELU layer.
#include <cstddef>
#include <string>
#include <unordered_map>

#include "core/base/json.h"

namespace paleo {

struct OnnxGelu {
  std::string input;   // x
  std::string output;  // the last node's output: y
};

// The GELUs among `nodes` (the decoded graph's node list), keyed by the index of their Erf node;
// `absorbed` gets the indices of their other nodes (the division, the add and the products).
std::unordered_map<std::size_t, OnnxGelu> find_onnx_gelus(const Json& nodes, const Json& initializers,
                                                          std::unordered_map<std::size_t, bool>& absorbed);

}  // namespace paleo
