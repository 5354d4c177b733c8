#pragma once
// Where the groups of a parallel layout sit on a cluster of nodes x G devices. Ranks are laid
// out as Megatron-LM does: tensor parallel fastest (inside a node), then context, then data
// parallel, then pipeline stages slowest (across nodes). A group of `size` devices at rank
// stride `stride` has min(size, G / stride) members per node; groups of the same kind run their
// collectives at once and share the node's NICs.
#include <cstdint>

#include "core/hardware/cluster.h"
#include "core/transformer/training_options.h"

namespace paleo {

struct DeviceGroup {
  std::int64_t size = 1;
  Cluster cluster;       // the group as a cluster of its own (nodes x members per node)
  bool crosses_nodes() const { return cluster.nodes > 1; }
};

DeviceGroup device_group(const Cluster& full, std::int64_t size, std::int64_t stride);

struct LayoutGroups {
  DeviceGroup tp, cp, dp, dp_cp, ep, pp;  // dp_cp: gradients are reduced over data and context ranks
  DeviceGroup expert_dp;                  // ranks holding the same experts: tp x cp x dp / (expert_tp x ep)
};

LayoutGroups layout_groups(const Cluster& full, const ParallelLayout& p);

}  // namespace paleo
