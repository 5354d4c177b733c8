#pragma once
// ZeRO-3 / FSDP, per micro-batch on one pipeline stage: each layer's weights are gathered before
// its forward pass (and again before its backward unless they were kept after the forward), its
// gradients reduce-scattered after its backward, one layer ahead of the compute (FSDP's and
// DeepSpeed's prefetch; Zhao et al. 2023, section 3.3). Each layer is a collective of its own, so
// the latency of a collective over the whole data-parallel group is paid per layer, not per
// stage. Exposed: the first layer's gather and the last layer's scatter, which have no compute to
// hide behind, and whatever of each layer's traffic its neighbour's compute does not cover.
#include "core/cluster/collectives.h"
#include "core/transformer/device_groups.h"
#include "core/transformer/stage_plan.h"

namespace paleo {

struct Zero3Exposure {
  double fwd_ms = 0, bwd_ms = 0;
};

// `fwd_compute_ms` and `bwd_compute_ms`: the stage's compute for one micro-batch.
Zero3Exposure zero3_exposure(const StagePlan& s, const TrainingOptions& o, const LayoutGroups& groups,
                             const CollectiveSettings& settings, double fwd_compute_ms, double bwd_compute_ms);

}  // namespace paleo
