#pragma once
// A point-to-point link of the alpha-beta model and a cluster of N nodes x G devices.
#include <cstdint>
#include <string>

#include "core/checked_math.h"

namespace paleo {

struct Link {
  std::string key;
  std::string name;
  double latency_us = 0;            // alpha: one-way small-message latency
  double bandwidth_gb_per_s = 0;    // per direction, 1e9 bytes/s: achievable unless told otherwise
  double peak_gb_per_s = 0;         // per direction, for reference

  double alpha_ms() const { return latency_us / 1e3; }
  double ms_per_byte() const { return 1e3 / (bandwidth_gb_per_s * 1e9); }
};

struct Cluster {
  std::string key;
  std::string name;
  std::int64_t nodes = 1;
  std::int64_t devices_per_node = 1;
  Link intra;            // between devices of one node
  Link inter;            // between nodes (one NIC's link)
  std::int64_t nics_per_node = 1;

  // Checked: a request's nodes x devices_per_node must not wrap (paleo::Error naming "cluster").
  std::int64_t devices() const { return checked_multiply(nodes, devices_per_node, "cluster"); }
};

}  // namespace paleo
