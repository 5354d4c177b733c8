#include "core/transformer/zero3_exposure.h"

#include <algorithm>

#include "core/transformer/layer_communication.h"

namespace paleo {
namespace {

// DeepSpeed ZeRO-3 (2021): the weight tensors of a layer, gathered one by one.
constexpr double kGatheredTensorsPerLayer = 4;
// Passes over a gathered tensor's bytes outside the collective: the zero fill and the copy out
// (a read and a write); over a reduced gradient's: the copy into the flat buffer.
constexpr double kGatherPasses = 3, kScatterPasses = 2;

Zero3Exposure prefetched(const StagePlan& s, const TrainingOptions& o, double gather, double scatter,
                         double fwd_compute_ms, double bwd_compute_ms) {
  Zero3Exposure z;
  const double units = std::max(1.0, static_cast<double>(s.layers));
  const double fwd_layer = fwd_compute_ms / units, bwd_layer = bwd_compute_ms / units;
  const double bwd_gather = o.reshards_after_forward() ? gather : 0;
  z.fwd_ms = gather + units * std::max(0.0, gather - fwd_layer);
  z.bwd_ms = bwd_gather + units * std::max(0.0, bwd_gather + scatter - bwd_layer) + scatter;
  return z;
}

}  // namespace

int small_parameter_tensors_per_layer(const TransformerConfig& c) {
  const int biases = c.bias ? 4 : (c.qkv_bias ? 1 : 0);
  const int norms = c.norm == NormKind::kLayerNorm ? 4 : 2;
  return biases + norms;
}

Zero3Exposure zero3_exposure(const TransformerConfig& c, const StagePlan& s, const TrainingOptions& o,
                             const LayoutGroups& groups, const CollectiveSettings& settings, double fwd_compute_ms,
                             double bwd_compute_ms) {
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
  // Per rank and collective, two operations of the era's overhead (DeepSpeed's narrow view of the
  // rank's share, PyTorch's copy between it and the flat buffer); the copies' bytes at the
  // device's memory bandwidth (a third of the reduction's time per byte: one read or write).
  const double per_rank_ops_ms =
      groups.dp_cp.size > 1 ? 2 * static_cast<double>(groups.dp_cp.size) * o.efficiency.kernel_overhead_ms : 0;
  const double byte_pass_ms = settings.reduction_ms_per_byte / 3;
  const auto tensor_gather = [&](double bytes) {
    return group_collective_ms(CollectiveOp::kAllGather, groups.dp_cp, bytes, settings) + per_rank_ops_ms +
           kGatherPasses * bytes * byte_pass_ms;
  };
  const auto tensor_scatter = [&](double bytes) {
    return group_collective_ms(CollectiveOp::kReduceScatter, groups.dp_cp, bytes, settings) + per_rank_ops_ms +
           kScatterPasses * bytes * byte_pass_ms;
  };
  const double layer_gather =
      kGatheredTensorsPerLayer * tensor_gather(dense * pb / kGatheredTensorsPerLayer) + expert_gather;
  // The small tensors (a bias or a norm: a hidden size, or a few) are latency-bound: priced at
  // one hidden size each, the rest of the layer's elements as its four matrices.
  const double small = static_cast<double>(small_parameter_tensors_per_layer(c));
  const double small_elements = static_cast<double>(c.hidden);
  const double matrix_elements = std::max(0.0, dense - small * small_elements) / kGatheredTensorsPerLayer;
  const double layer_scatter = kGatheredTensorsPerLayer * tensor_scatter(matrix_elements * gb) +
                               small * tensor_scatter(small_elements * gb) + expert_scatter;
  const double bwd_gathers = o.recompute == Recompute::kFull ? 2 : 1;
  Zero3Exposure z;
  z.fwd_ms = units * layer_gather;
  z.bwd_ms = units * (layer_gather * bwd_gathers + layer_scatter);
  return z;
}

}  // namespace paleo
