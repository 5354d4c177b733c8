#pragma once
// Parameter servers (Ben-Nun & Hoefler's survey, section 6.2 and Table 8's "parameter
// distribution" rows; features C8 and K6-K10 of docs/training-schemes.md): a single
// server, S shards with their own links, or a hierarchy (the devices of a node reduce among
// themselves, then one exchange per node); workers push gradients (DistBelief) or weights
// (HOGWILD-style) and pull weights: the bytes are the same, what the server does with them
// differs (apply the optimizer, or average). Project Adam's offload: a fully-connected layer
// sends its activations x (C_in x N) and errors dy (C_out x N) instead of its C_out x C_in
// gradient, and the server computes the gradient.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cluster/collectives.h"
#include "core/hardware/cluster.h"
#include "core/hardware/device.h"
#include "core/training_scheme/gradient_compression.h"

namespace paleo {

enum class ServerLayout { kSingle, kSharded, kHierarchical };

struct ParameterServerSpec {
  ServerLayout layout = ServerLayout::kSingle;
  std::int64_t servers = 1;      // shards (kSharded)
  bool push_weights = false;     // false: gradients; true moves the same bytes, priced alike
  bool offload_fc = false;       // Project Adam
};

ServerLayout parse_server_layout(const std::string& text, const std::string& field);  // single, sharded, hierarchical
const char* server_layout_name(ServerLayout l);

struct ServerExchange {
  // What was priced: a hierarchy needs several nodes of several devices, all of them workers;
  // otherwise it is one server (kSingle).
  ServerLayout layout = ServerLayout::kSingle;
  double pushed_bytes = 0;          // per worker per step (pulled: the weights, the dense size)
  double pulled_bytes = 0;
  double dense_fc_values = 0;       // what the fully-connected gradients would be: sum C_out C_in
  double offloaded_fc_values = 0;   // what Project Adam sends instead: sum N (C_out + C_in)
  double server_flops = 0;          // per worker: the offloaded gradients' products, 2 N C_out C_in
  CollectiveCost exchange;          // all `workers` workers at once through the servers
  double server_compute_ms = 0;     // the offloaded products of all workers, on the servers in parallel
  double time_ms() const { return exchange.time_ms() + server_compute_ms; }
  double updates_per_s_cap = 0;     // what the servers' links and reduction can absorb
};

// The exchange of `workers` workers (each pushes `tensors` and pulls the weights). The servers
// are devices like the workers (their compute and memory bandwidth), on the cluster's inter-node
// link (the intra-node link on one node).
ServerExchange server_exchange(const ParameterServerSpec& spec, const std::vector<GradientTensor>& tensors,
                               const Cluster& cluster, std::int64_t workers, const Device& device,
                               const CollectiveSettings& settings);

}  // namespace paleo
