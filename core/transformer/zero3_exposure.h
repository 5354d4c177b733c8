#pragma once
// ZeRO-3 / FSDP, per micro-batch on one pipeline stage, in one of two schedules (TrainingOptions::
// zero3_gather):
//
// Layer, prefetched (FSDP; DeepSpeed from its coalesced gathers on): each layer's weights are
// gathered before its forward pass (and again before its backward unless they were kept after the
// forward), its gradients reduce-scattered after its backward, one layer ahead of the compute
// (FSDP's and DeepSpeed's prefetch; Zhao et al. 2023, section 3.3). Each layer is a collective of
// its own, so the latency of a collective over the whole data-parallel group is paid per layer,
// not per stage. Exposed: the first layer's gather and the last layer's scatter, which have no
// compute to hide behind, and whatever of each layer's traffic its neighbour's compute does not
// cover.
//
// Tensor, blocking (DeepSpeed's ZeRO-3 of 2021, microsoft/DeepSpeed 7b46d11: `fetch_sub_module`,
// "This call is blocking"): every sub-module gathers its own weight tensors, one
// torch.distributed.all_gather per tensor, each issued after and awaited by a device-wide
// synchronize, so none of it hides behind compute. A weight tensor of more than
// `stage3_param_persistence_threshold` (100,000) elements is gathered; a transformer layer's four
// weight matrices are (fused QKV, attention output, MLP up and down), its biases and norms stay
// resident. Per rank and gather, DeepSpeed views the rank's partition (flat_tensor.narrow) in the
// list it passes, and the list form of all_gather copies each share out of the flat buffer
// (PyTorch's ProcessGroupNCCL::allgather): two operations of the era's overhead; the gathered
// tensor is zero-filled first (`torch.zeros`) and copied once out, three passes over its bytes.
// Gathers run before the forward, before the backward, and once more before a fully recomputed
// forward (its pre-forward hooks fetch again). Gradients are reduce-scattered parameter by
// parameter (`_reduce_scatter_gradients`: one torch.distributed.reduce_scatter per parameter of
// the `reduce_bucket_size` bucket, biases and norms included), without overlap (`overlap_comm`
// off by default); per rank, DeepSpeed narrows the gradient to the rank's share and PyTorch
// copies it into its flat buffer (ProcessGroupNCCL::reduce_scatter), two operations again, and
// that copy is a pass each way over the gradient's bytes.
#include "core/cluster/collectives.h"
#include "core/transformer/device_groups.h"
#include "core/transformer/stage_plan.h"

namespace paleo {

struct Zero3Exposure {
  double fwd_ms = 0, bwd_ms = 0;
};

// `fwd_compute_ms` and `bwd_compute_ms`: the stage's compute for one micro-batch.
Zero3Exposure zero3_exposure(const TransformerConfig& c, const StagePlan& s, const TrainingOptions& o,
                             const LayoutGroups& groups, const CollectiveSettings& settings, double fwd_compute_ms,
                             double bwd_compute_ms);

// A layer's parameter tensors besides its four weight matrices: the biases of the QKV, attention
// output and the two MLP projections (Megatron-LM's GPT) or of q, k, v alone (`qkv_bias`), and the
// two norms' weights (and biases under layer norm).
int small_parameter_tensors_per_layer(const TransformerConfig& c);

}  // namespace paleo
