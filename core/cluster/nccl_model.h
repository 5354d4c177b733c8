#pragma once
// NCCL's own cost model of an all-reduce in its Simple protocol, the protocol NCCL runs for
// messages of the size of gradient buckets (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel
// and ncclTopoGetAlgoTime). NCCL prices each algorithm as a latency plus bytes over an algorithm
// bandwidth and picks the fastest; the constants are its own, from NVIDIA's measurements:
//
// ring: latency = 8.4 us + (2(p-1) - 2(N-1)) x intra hop + 2(N-1) x network hop, the intra hop
//       3.4 us over NVLink and 5.7 us over PCIe, the network hop 14 us; across nodes times the
//       "plateau effect of ring", 1.9 before Ampere and 1.4 from Ampere on. Bandwidth: the ring's
//       slowest hop, 2n(p-1)/p bytes; across nodes NCCL maps its channels' rings onto the node's
//       NICs (busBw = nChannels x the channel's speed), so the rings together move at the NICs'
//       sum, up to one NIC per device, bounded by the intra link.
// tree: latency = 6.8 us + 2((G-1) x 4.0 us + log2(N) x 14 us) (a chain inside the node, a double
//       binary tree across nodes). Bandwidth: 0.92 of the node's network bandwidth (the intra link
//       on one node), halved (each byte goes up one tree and down the other), times NCCL's
//       correction for trees of medium-sized messages (0.5 to 0.9 by size).
//
// With p = N x G ranks on N nodes of G devices. Both add the reduction's compute term of the
// alpha-beta model (collectives.h).
//
// All-gather and reduce-scatter: NCCL offers only its ring (tuning.cc prices no other algorithm
// for them), p-1 steps of which N-1 cross the network: latency = 8.4 us + ((p-1) - (N-1)) x intra
// hop + (N-1) x network hop, with no plateau factor (NCCL applies it to the all-reduce alone), so
// the latency grows with the ranks, not their logarithm. Bandwidth: n(p-1)/p bytes at the
// all-reduce ring's bandwidth.
#include "core/cluster/collectives.h"
#include "core/hardware/device.h"

namespace paleo {

// NCCL's ring all-reduce of `bytes` over the whole cluster.
CollectiveCost nccl_ring_all_reduce(const Cluster& cluster, double bytes, const CollectiveSettings& settings);
// NCCL's ring all-gather (or, with the reduction's compute term, reduce-scatter) of `bytes`, the
// full gathered vector, over the whole cluster.
CollectiveCost nccl_ring_all_gather(const Cluster& cluster, double bytes, const CollectiveSettings& settings);
CollectiveCost nccl_ring_reduce_scatter(const Cluster& cluster, double bytes, const CollectiveSettings& settings);
// NCCL's tree all-reduce (NCCL 2.4 and later) of `bytes` over the whole cluster.
CollectiveCost nccl_tree_all_reduce(const Cluster& cluster, double bytes, const CollectiveSettings& settings);
// NCCL's correction of a tree's bandwidth for a message of `bytes` (Simple protocol).
double nccl_tree_correction(double bytes);
// 1.4 on Ampere and later (compute capability 8.0 and up), 1.9 before.
double nccl_ring_plateau(const Device& device);

}  // namespace paleo
