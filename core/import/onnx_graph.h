#pragma once
// An ONNX graph, as decoded by tools/onnx_graph_decoder.mjs ({"onnx_graph": {nodes, inputs,
// initializers ...}}), mapped to a Paleo network spec. Shapes are inferred from the graph input
// with ONNX's rules; NCHW tensors become Paleo's NHWC. Operators without a Paleo counterpart are
// priced as free Generic layers and listed in a warning.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

// `input_shape` (null, or the list given beside the graph, field `input_shape_field`) is the graph
// input's shape where the file leaves sizes symbolic. Throws paleo::Error naming the node (as the
// layer) and field.
Json onnx_graph_to_spec(const Json& graph, const std::string& field, const Json& input_shape,
                        const std::string& input_shape_field, std::vector<std::string>& warnings);

}  // namespace paleo
