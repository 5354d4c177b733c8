#include "core/transformer/zero3_exposure.h"

#include <algorithm>

#include "core/transformer/layer_communication.h"

namespace paleo {

Zero3Exposure zero3_exposure(const StagePlan& s, const TrainingOptions& o, const LayoutGroups& groups,
                             const CollectiveSettings& settings, double fwd_compute_ms, double bwd_compute_ms) {
  Zero3Exposure z;
  const double units = std::max(1.0, static_cast<double>(s.layers));
  const double dense = (s.params - s.expert_params) / units, experts = s.expert_params / units;
  const double pb = dtype_bytes(o.precision.params), gb = dtype_bytes(o.precision.grad_reduce);
  const double gather = group_collective_ms(CollectiveOp::kAllGather, groups.dp_cp, dense * pb, settings) +
                        group_collective_ms(CollectiveOp::kAllGather, groups.expert_dp, experts * pb, settings);
  const double scatter = group_collective_ms(CollectiveOp::kReduceScatter, groups.dp_cp, dense * gb, settings) +
                         group_collective_ms(CollectiveOp::kReduceScatter, groups.expert_dp, experts * gb, settings);
  const double fwd_layer = fwd_compute_ms / units, bwd_layer = bwd_compute_ms / units;
  const double bwd_gather = o.reshard_after_forward ? gather : 0;
  z.fwd_ms = gather + units * std::max(0.0, gather - fwd_layer);
  z.bwd_ms = bwd_gather + units * std::max(0.0, bwd_gather + scatter - bwd_layer) + scatter;
  return z;
}

}  // namespace paleo
