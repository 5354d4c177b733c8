#pragma once
// Communication inside the forward and backward of one micro-batch: tensor parallelism
// (Megatron: two all-reduces per layer forward and two backward; with sequence parallelism an
// all-gather and a reduce-scatter in place of each), expert parallelism (all-to-all dispatch and
// combine), context parallelism (ring attention passes keys and values, overlapped with the
// attention), and the embedding and vocabulary-parallel head. Exposed: Megatron runs TP
// collectives on the critical path, unless the stack overlaps them with the GEMMs.
#include "core/cluster/collectives.h"
#include "core/transformer/device_groups.h"
#include "core/transformer/layer_ops.h"

namespace paleo {

struct CommTimes {
  double fwd_ms = 0;
  double bwd_ms = 0;
};

struct LayerCommunication {
  CommTimes tp_layer;     // per layer
  // Per MoE layer: tp_layer, less the MLP's half when the experts are not split over TP
  // (expert_tp 1 < tp: each rank routes its own tokens, the all-to-all replaces the MLP's collectives).
  CommTimes tp_moe_layer;
  CommTimes ep_moe_layer; // per MoE layer (all-to-all)
  CommTimes cp_layer;     // per layer, exposed after overlap with the attention kernel
  CommTimes embedding;
  CommTimes head;
  double tp_message_bytes = 0;  // one TP collective's full message (T x h)
};

// One collective of `bytes` (the full vector) over a group, the fastest algorithm on the group's
// links; 0 for a group of one.
double group_collective_ms(CollectiveOp op, const DeviceGroup& g, double bytes, const CollectiveSettings& s);

// What a layer's communication can run under: the attention core (ring attention) and, when the
// stack overlaps TP communication with the GEMMs (TrainingOptions::tp_comm_overlap), the layer's
// linear GEMMs; zero where nothing overlaps.
struct OverlapWindows {
  CommTimes attention;
  CommTimes tp_gemms;
};

// The exposed part of a layer's sequence-parallel TP collectives (`comm_ms`, one direction) run
// in `chunks` pieces under GEMMs of `gemm_ms`: each piece but one moves while a GEMM piece runs
// (the first all-gather piece is local; the last reduce-scatter piece follows the last GEMM
// piece), so one piece stays exposed, and more where the communication outruns the GEMMs.
double overlapped_tp_ms(double comm_ms, double gemm_ms, std::int64_t chunks);

LayerCommunication layer_communication(const TransformerConfig& c, const OpContext& x, const LayoutGroups& g,
                                       const CollectiveSettings& settings, const OverlapWindows& windows);

}  // namespace paleo
