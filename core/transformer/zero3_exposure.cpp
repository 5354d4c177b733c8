#include "core/transformer/zero3_exposure.h"

#include <algorithm>
#include <cmath>

#include "core/transformer/layer_communication.h"

namespace paleo {
namespace {

// DeepSpeed ZeRO-3 (2021): the weight tensors of a layer gathered one by one, and the gradient
// bucket (microsoft/DeepSpeed deepspeed/runtime/zero/constants.py, reduce_bucket_size).
constexpr double kGatheredTensorsPerLayer = 4;
constexpr double kReduceBucketElements = 5e8;

Zero3Exposure prefetched(const StagePlan& s, const TrainingOptions& o, double gather, double scatter,
                         double fwd_compute_ms, double bwd_compute_ms) {
  Zero3Exposure z;
  const double units = std::max(1.0, static_cast<double>(s.layers));
  const double fwd_layer = fwd_compute_ms / units, bwd_layer = bwd_compute_ms / units;
  const double bwd_gather = o.reshard_after_forward ? gather : 0;
  z.fwd_ms = gather + units * std::max(0.0, gather - fwd_layer);
  z.bwd_ms = bwd_gather + units * std::max(0.0, bwd_gather + scatter - bwd_layer) + scatter;
  return z;
}

}  // namespace

Zero3Exposure zero3_exposure(const StagePlan& s, const TrainingOptions& o, const LayoutGroups& groups,
                             const CollectiveSettings& settings, double fwd_compute_ms, double bwd_compute_ms) {
  const double units = std::max(1.0, static_cast<double>(s.layers));
  const double dense = (s.params - s.expert_params) / units, experts = s.expert_params / units;
  const double pb = dtype_bytes(o.precision.params), gb = dtype_bytes(o.precision.grad_reduce);
  const double expert_gather = group_collective_ms(CollectiveOp::kAllGather, groups.expert_dp, experts * pb, settings);
  const double expert_scatter =
      group_collective_ms(CollectiveOp::kReduceScatter, groups.expert_dp, experts * gb, settings);
  if (o.zero3_gather == Zero3Gather::kLayerPrefetched) {
    const double gather =
        group_collective_ms(CollectiveOp::kAllGather, groups.dp_cp, dense * pb, settings) + expert_gather;
    const double scatter =
        group_collective_ms(CollectiveOp::kReduceScatter, groups.dp_cp, dense * gb, settings) + expert_scatter;
    return prefetched(s, o, gather, scatter, fwd_compute_ms, bwd_compute_ms);
  }
  // Blocking, per tensor: nothing overlaps, so each pass costs the sum of its collectives, in the
  // stack's library (the era's: NCCL, whose all-gather and reduce-scatter run only as its ring).
  // Per rank and gather, two operations of the era's overhead: DeepSpeed's view of the rank's
  // partition in the list it passes (flat_tensor.narrow) and PyTorch's copy out of the flat buffer.
  const double per_rank_ops_ms = 2 * static_cast<double>(groups.dp_cp.size) * o.efficiency.kernel_overhead_ms;
  const double tensor_gather =
      group_collective_ms(CollectiveOp::kAllGather, groups.dp_cp, dense * pb / kGatheredTensorsPerLayer, settings) +
      (groups.dp_cp.size > 1 ? per_rank_ops_ms : 0);
  const double layer_gather = kGatheredTensorsPerLayer * tensor_gather + expert_gather;
  const double stage_elements = s.params - s.expert_params;
  const double buckets = std::max(1.0, std::ceil(stage_elements / kReduceBucketElements));
  const double scatter = buckets * group_collective_ms(CollectiveOp::kReduceScatter, groups.dp_cp,
                                                       stage_elements * gb / buckets, settings) +
                         units * expert_scatter;
  const double bwd_gathers = o.recompute == Recompute::kFull ? 2 : 1;
  Zero3Exposure z;
  z.fwd_ms = units * layer_gather;
  z.bwd_ms = units * layer_gather * bwd_gathers + scatter;
  return z;
}

}  // namespace paleo
