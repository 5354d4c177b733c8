#include "core/cluster/nccl_model.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace paleo {
namespace {

// NVIDIA/nccl src/graph/tuning.cc (ncclTunerConstantsDefaults), Simple protocol, in microseconds.
constexpr double kRingBaseUs = 8.4;
constexpr double kTreeBaseUs = 6.8;
constexpr double kRingNvlinkHopUs = 3.4;
constexpr double kRingPciHopUs = 5.7;
constexpr double kTreeIntraHopUs = 4.0;  // NVLink and PCI alike
constexpr double kNetHopUs = 14.0;       // ring and tree
// An inter-node ring's intra hops take at least the network proxy's overhead (1 us on Intel
// hosts, tripled for the Simple protocol: getNetOverhead).
constexpr double kNetOverheadSimpleUs = 3.0;
// The tree's bus bandwidth is 0.92 of its links', and each byte crosses it twice (ratio .5).
constexpr double kTreeBandwidthFraction = 0.92 * 0.5;

// NCCL's intra-node hardware class of a node: NVLink, or PCI for everything else.
bool nvlink(const Link& intra) {
  return intra.key.rfind("nvlink", 0) == 0 || intra.key.rfind("nvswitch", 0) == 0;
}

int floor_log2(std::int64_t n) {
  int h = 0;
  while ((std::int64_t{2} << h) <= n) ++h;
  return h;
}

}  // namespace

double nccl_ring_plateau(const Device& device) {
  for (const char* g : {"ampere", "ada", "hopper", "blackwell"})
    if (device.generation == g) return 1.4;
  return 1.9;
}

double nccl_tree_correction(double bytes) {
  // treeCorrectionFactor[NCCL_PROTO_SIMPLE], powers of two from 64 B, applied below 2^23 x 64 B.
  static constexpr std::array<double, 24> kSimple = {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
                                                      .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9};
  const double chunks = std::floor(bytes / 64);
  if (chunks < 1) return 1.0;
  const int log_size = floor_log2(static_cast<std::int64_t>(std::min(chunks, 1e18)));
  return log_size < 23 ? kSimple[static_cast<std::size_t>(log_size)] : 1.0;
}

// A ring's bytes per millisecond per rank: NCCL runs one ring per channel and maps the channels
// of a multi-node ring onto the node's NICs (tuning.cc: busBw = nChannels x the channel's speed),
// so across nodes the node's NICs, up to one per device, carry the rings together, bounded by the
// intra link; inside one node the intra link.
double nccl_ring_ms_per_byte(const Cluster& cluster) {
  if (cluster.nodes <= 1 || cluster.devices_per_node <= 1) return ring_link(cluster).ms_per_byte();
  const double nics =
      static_cast<double>(std::max<std::int64_t>(1, std::min(cluster.nics_per_node, cluster.devices_per_node)));
  const double gb_per_s = std::min(cluster.intra.bandwidth_gb_per_s, cluster.inter.bandwidth_gb_per_s * nics);
  return 1.0 / (gb_per_s * 1e6);
}

CollectiveCost nccl_ring_all_reduce(const Cluster& cluster, double bytes, const CollectiveSettings& settings) {
  CollectiveCost c;
  c.algorithm = "ring";
  const std::int64_t p = cluster.devices();
  if (p <= 1) return c;
  const double pd = static_cast<double>(p);
  const double steps = 2 * (pd - 1);
  const double inter_steps = cluster.nodes > 1 ? 2 * static_cast<double>(cluster.nodes - 1) : 0;
  double intra_us = nvlink(cluster.intra) ? kRingNvlinkHopUs : kRingPciHopUs;
  if (cluster.nodes > 1) intra_us = std::max(intra_us, kNetOverheadSimpleUs);
  double latency_us = kRingBaseUs + (steps - inter_steps) * intra_us + inter_steps * kNetHopUs;
  // Across nodes, once each rank's share is 64 bytes or more (NCCL counts per channel).
  if (cluster.nodes > 1 && bytes / pd >= 64) latency_us *= settings.ring_plateau;
  c.alpha_ms = latency_us / 1e3;
  c.beta_ms = 2 * bytes * (pd - 1) / pd * nccl_ring_ms_per_byte(cluster);
  c.reduction_ms = bytes * (pd - 1) / pd * settings.reduction_ms_per_byte;
  return c;
}

CollectiveCost nccl_ring_all_gather(const Cluster& cluster, double bytes, const CollectiveSettings& settings) {
  (void)settings;  // no plateau factor: NCCL applies it to the all-reduce alone
  CollectiveCost c;
  c.algorithm = "ring";
  const std::int64_t p = cluster.devices();
  if (p <= 1) return c;
  const double pd = static_cast<double>(p);
  const double inter_steps = static_cast<double>(cluster.nodes - 1);
  double intra_us = nvlink(cluster.intra) ? kRingNvlinkHopUs : kRingPciHopUs;
  if (cluster.nodes > 1) intra_us = std::max(intra_us, kNetOverheadSimpleUs);
  const double latency_us = kRingBaseUs + (pd - 1 - inter_steps) * intra_us + inter_steps * kNetHopUs;
  c.alpha_ms = latency_us / 1e3;
  c.beta_ms = bytes * (pd - 1) / pd * nccl_ring_ms_per_byte(cluster);
  return c;
}

CollectiveCost nccl_ring_reduce_scatter(const Cluster& cluster, double bytes, const CollectiveSettings& settings) {
  CollectiveCost c = nccl_ring_all_gather(cluster, bytes, settings);
  if (cluster.devices() > 1)
    c.reduction_ms = bytes * (static_cast<double>(cluster.devices()) - 1) / static_cast<double>(cluster.devices()) *
                     settings.reduction_ms_per_byte;
  return c;
}

CollectiveCost nccl_tree_all_reduce(const Cluster& cluster, double bytes, const CollectiveSettings& settings) {
  CollectiveCost c;
  c.algorithm = "double_binary_tree";
  if (cluster.devices() <= 1) return c;
  const double chain = static_cast<double>(cluster.devices_per_node - 1);
  const double latency_us = kTreeBaseUs + 2 * (chain * kTreeIntraHopUs + floor_log2(cluster.nodes) * kNetHopUs);
  // Inside one node the intra link; across nodes the node's network (its NICs, one per device at
  // most), which NCCL's graph bandwidth across nodes never exceeds.
  const double nics = static_cast<double>(std::min(cluster.nics_per_node, cluster.devices_per_node));
  const double network_gb_per_s = cluster.inter.bandwidth_gb_per_s * std::max(nics, 1.0);
  const double link_gb_per_s = cluster.nodes <= 1 ? cluster.intra.bandwidth_gb_per_s
                                                  : std::min(cluster.intra.bandwidth_gb_per_s, network_gb_per_s);
  const double algorithm_gb_per_s = link_gb_per_s * kTreeBandwidthFraction * nccl_tree_correction(bytes);
  c.alpha_ms = latency_us / 1e3;
  c.beta_ms = bytes / (algorithm_gb_per_s * 1e9) * 1e3;
  c.reduction_ms = bytes * settings.reduction_ms_per_byte;
  return c;
}

}  // namespace paleo
