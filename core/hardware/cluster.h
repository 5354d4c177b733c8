#pragma once
// A cluster of N nodes x G devices: the link between devices of a node and the one between nodes
// (presets/clusters.json, docs/cluster.md).
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/hardware/link.h"

namespace paleo {

struct Cluster {
  std::string key;
  std::string name;
  std::int64_t nodes = 1;
  std::int64_t devices_per_node = 1;
  Link intra;            // between devices of one node
  Link inter;            // between nodes (one NIC's link)
  std::int64_t nics_per_node = 1;
  // What the request did not state and Paleo assumed ("intra", "inter", "nics_per_node"), and the
  // node preset it took them from (empty when none was): named in every answer (docs/cluster.md).
  std::vector<std::string> assumed;
  std::string assumed_from;

  // The inter-node link as each device of a node sees it when all G of them cross at once: they
  // share the node's NICs, min(nics, G) / G of one each.
  Link shared_inter() const {
    const std::int64_t g = devices_per_node < 1 ? 1 : devices_per_node;
    Link l = inter;
    l.bandwidth_gb_per_s *= static_cast<double>(nics_per_node < g ? nics_per_node : g) / static_cast<double>(g);
    return l;
  }

  // Checked: a request's nodes x devices_per_node must not wrap (paleo::Error naming "cluster").
  std::int64_t devices() const { return checked_multiply(nodes, devices_per_node, "cluster"); }
};

}  // namespace paleo
