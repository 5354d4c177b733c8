#include "core/cost/batchnorm_activation_fusion.h"

#include <cstddef>

namespace paleo {
namespace {

bool is_batch_norm(const Layer& l) {
  return l.kind == LayerKind::kZeroCost && (l.type == "BatchNorm" || l.type == "batch_norm");
}

// The kernels' activation is a plain ReLU (the NHWC kernel's relu, cuDNN's CUDNN_ACTIVATION_RELU).
bool is_relu(const Layer& l) { return l.kind == LayerKind::kZeroCost && (l.type == "ReLU" || l.type == "relu"); }

bool is_sum_of_two(const Layer& l) {
  return l.kind == LayerKind::kElementwise && !l.elementwise_product && l.inputs.size() == 2 &&
         l.inputs[0] == l.output && l.inputs[1] == l.output;
}

}  // namespace

std::vector<BatchNormFusion> batchnorm_activation_fusion(const Network& net) {
  const std::size_t n = net.layers.size();
  std::vector<std::vector<int>> consumers(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int p : net.layers[i].parents) consumers[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
  // The one layer that reads `i`'s output, when it is one, on the same device and of the same shape.
  auto only_consumer = [&](std::size_t i) -> const Layer* {
    if (consumers[i].size() != 1) return nullptr;
    const Layer& next = net.layers[static_cast<std::size_t>(consumers[i][0])];
    const Layer& self = net.layers[i];
    if (next.device_id() != self.device_id() || next.output != self.output) return nullptr;
    return &next;
  };
  auto position = [&](const Layer* l) { return static_cast<std::size_t>(l - net.layers.data()); };

  std::vector<BatchNormFusion> fusion(n, BatchNormFusion::kNone);
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_batch_norm(net.layers[i]) || fusion[i] != BatchNormFusion::kNone) continue;
    const Layer* next = only_consumer(i);
    if (!next) continue;
    if (is_relu(*next) && next->parents.size() == 1) {
      fusion[i] = BatchNormFusion::kWithRelu;
      fusion[position(next)] = BatchNormFusion::kAbsorbed;
      continue;
    }
    if (!is_sum_of_two(*next) || fusion[position(next)] != BatchNormFusion::kNone) continue;
    const Layer* relu = only_consumer(position(next));
    if (!relu || !is_relu(*relu) || relu->parents.size() != 1) continue;
    // The addend comes from another layer on the same device (a sum of a tensor with itself is no residual).
    const int other = next->parents[0] == static_cast<int>(i) ? next->parents[1] : next->parents[0];
    if (other == static_cast<int>(i) || net.layers[static_cast<std::size_t>(other)].device_id() != next->device_id())
      continue;
    fusion[i] = BatchNormFusion::kWithAddRelu;
    fusion[position(next)] = BatchNormFusion::kAbsorbed;
    fusion[position(relu)] = BatchNormFusion::kAbsorbed;
  }
  return fusion;
}

}  // namespace paleo
