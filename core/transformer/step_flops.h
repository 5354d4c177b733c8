#pragma once
// FLOPs of one training step: the model's own work (2 per multiply-add of every matrix and
// attention product, forward x 3 for forward and backward; Narayanan et al. 2021's count) and
// the hardware's, which adds the forward work recomputation redoes (docs/transformer.md).
#include "core/transformer/stage_plan.h"

namespace paleo {

struct StepFlops {
  double model = 0;
  double hardware = 0;
};

StepFlops step_flops(const TransformerConfig& c, const TrainingOptions& o, const ModelOps& ops);

}  // namespace paleo
