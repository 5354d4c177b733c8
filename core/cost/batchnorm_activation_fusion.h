#pragma once
// Batch norm fused with the ReLU after it, or with the residual add and the ReLU after that
// (CostOptions::fused_batchnorm_activation): MXNet's BatchNorm(act_type='relu') and
// BatchNormAddRelu (`--fuse-bn-relu 1 --fuse-bn-add-relu 1` in NVIDIA's MLPerf and
// DeepLearningExamples ResNet-50 scripts), cuDNN's CUDNN_BATCHNORM_OPS_BN_ACTIVATION and
// CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION. The batch norm's kernel does the whole chain; the ReLU
// and the add it absorbs launch nothing (docs/model.md, "Fused batch norm and activation").
#include <vector>

#include "core/spec/network.h"

namespace paleo {

enum class BatchNormFusion {
  kNone,
  kWithRelu,     // a BatchNorm whose one consumer is a ReLU: y = relu(BN(x))
  kWithAddRelu,  // a BatchNorm whose one consumer is a two-input sum followed by a ReLU: y = relu(BN(x) + z)
  kAbsorbed,     // the ReLU or the add a fused batch norm performs: no pass and no kernel of its own
};

// One entry per position in net.layers. A chain is fused only when every layer in it keeps the
// batch norm's shape, sits on the batch norm's device, and feeds nothing but the next link (the
// final ReLU's output may feed anything). Where both inputs of an add qualify (a projection
// block's residual and shortcut batch norms), the one first in the network's order fuses and the
// other stays a batch norm of its own: MXNet's residual unit fuses its last batch norm and takes
// the shortcut's output as the addend, the same kernels at the same shapes.
std::vector<BatchNormFusion> batchnorm_activation_fusion(const Network& net);

}  // namespace paleo
