#include "core/transformer/layer_communication.h"

#include <algorithm>

namespace paleo {

double group_collective_ms(CollectiveOp op, const DeviceGroup& g, double bytes, const CollectiveSettings& s) {
  if (g.size <= 1 || bytes <= 0) return 0;
  return cluster_collective(op, CollectiveAlgorithm::kAuto, g.cluster, bytes, s).time_ms();
}

double overlapped_tp_ms(double comm_ms, double gemm_ms, std::int64_t chunks) {
  if (chunks <= 1) return comm_ms;
  const double n = static_cast<double>(chunks);
  return std::max(comm_ms / n, comm_ms - gemm_ms * (n - 1) / n);
}

LayerCommunication layer_communication(const TransformerConfig& c, const OpContext& x, const LayoutGroups& g,
                                       const CollectiveSettings& s, const OverlapWindows& windows) {
  const CommTimes& attention = windows.attention;
  LayerCommunication out;
  const double ab = dtype_bytes(x.activations);
  const double tokens = x.micro_batch * x.seq_len / static_cast<double>(x.cp);
  const double message = tokens * static_cast<double>(c.hidden) * ab;
  out.tp_message_bytes = message;
  if (x.tp > 1) {
    if (x.sequence_parallel) {
      // Per layer and direction: two all-gathers and two reduce-scatters of the full message.
      const double one = group_collective_ms(CollectiveOp::kAllGather, g.tp, message, s) +
                         group_collective_ms(CollectiveOp::kReduceScatter, g.tp, message, s);
      out.tp_layer = {2 * one, 2 * one};
      const CommTimes& gemms = windows.tp_gemms;
      // Split into one piece per TP rank (ring exchange), in each pass that overlaps.
      if (gemms.fwd_ms > 0) out.tp_layer.fwd_ms = overlapped_tp_ms(2 * one, gemms.fwd_ms, x.tp);
      if (gemms.bwd_ms > 0) out.tp_layer.bwd_ms = overlapped_tp_ms(2 * one, gemms.bwd_ms, x.tp);
      out.embedding = {group_collective_ms(CollectiveOp::kReduceScatter, g.tp, message, s),
                       group_collective_ms(CollectiveOp::kAllGather, g.tp, message, s)};
      out.head = {group_collective_ms(CollectiveOp::kAllGather, g.tp, message, s),
                  group_collective_ms(CollectiveOp::kReduceScatter, g.tp, message, s)};
    } else {
      const double all_reduce = group_collective_ms(CollectiveOp::kAllReduce, g.tp, message, s);
      out.tp_layer = {2 * all_reduce, 2 * all_reduce};
      out.embedding = {all_reduce, 0};
      out.head = {0, all_reduce};
    }
    // Vocabulary-parallel cross-entropy: max, sum and target logit, one fp32 per token each.
    out.head.fwd_ms += 3 * group_collective_ms(CollectiveOp::kAllReduce, g.tp, tokens * 4, s);
  }
  out.tp_moe_layer = out.tp_layer;
  if (x.etp == 1 && x.tp > 1) out.tp_moe_layer = {out.tp_layer.fwd_ms / 2, out.tp_layer.bwd_ms / 2};
  if (c.moe.enabled() && x.ep > 1) {
    // Each device sends the tokens its experts' share of the routing gives it (layer_ops.cpp).
    const double routed = tokens * static_cast<double>(c.moe.top_k) * static_cast<double>(c.hidden) * ab *
                          static_cast<double>(x.etp) / static_cast<double>(x.tp);
    const double a2a = group_collective_ms(CollectiveOp::kAllToAll, g.ep, routed, s);
    out.ep_moe_layer = {2 * a2a, 2 * a2a};  // dispatch and combine
  }
  if (x.cp > 1) {
    // Ring attention: every device receives the keys and values of the whole sequence forward,
    // and sends their gradients back, overlapped with its attention blocks.
    const double kv = 2 * tokens * std::max(static_cast<double>(c.kv_size()) / static_cast<double>(x.tp), static_cast<double>(c.head_dim)) * ab *
                      static_cast<double>(x.cp);
    const double gather = group_collective_ms(CollectiveOp::kAllGather, g.cp, kv, s);
    const double scatter = group_collective_ms(CollectiveOp::kReduceScatter, g.cp, kv, s);
    out.cp_layer = {std::max(0.0, gather - attention.fwd_ms), std::max(0.0, scatter - attention.bwd_ms)};
  }
  return out;
}

}  // namespace paleo
