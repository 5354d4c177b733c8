#include "core/transformer/device_groups.h"

#include <algorithm>

namespace paleo {

DeviceGroup device_group(const Cluster& full, std::int64_t size, std::int64_t stride) {
  DeviceGroup g;
  g.size = size;
  g.cluster = full;
  const std::int64_t per_node_devices = std::max<std::int64_t>(1, full.devices_per_node);
  const std::int64_t members = std::max<std::int64_t>(1, std::min(size, per_node_devices / std::max<std::int64_t>(1, stride)));
  g.cluster.devices_per_node = members;
  g.cluster.nodes = std::max<std::int64_t>(1, size / members);
  // Every group of this kind crosses nodes at once: this one gets its share of the node's NICs.
  const double share = static_cast<double>(full.nics_per_node) * static_cast<double>(members) /
                       static_cast<double>(per_node_devices);
  if (share >= 1) {
    g.cluster.nics_per_node = static_cast<std::int64_t>(share);
  } else {
    g.cluster.nics_per_node = 1;
    g.cluster.inter.bandwidth_gb_per_s *= share;
  }
  return g;
}

LayoutGroups layout_groups(const Cluster& full, const ParallelLayout& p) {
  LayoutGroups l;
  l.tp = device_group(full, p.tp, 1);
  l.cp = device_group(full, p.cp, p.tp);
  l.dp = device_group(full, p.dp, p.tp * p.cp);
  l.dp_cp = device_group(full, p.dp * p.cp, p.tp);
  // The experts' ranks: expert_tp fastest, then ep, then the expert data-parallel ranks.
  l.ep = device_group(full, p.ep, p.etp());
  l.pp = device_group(full, p.pp, p.tp * p.cp * p.dp);
  l.expert_dp = device_group(full, p.expert_dp(), p.etp() * p.ep);
  return l;
}

}  // namespace paleo
