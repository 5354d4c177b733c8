#include "core/training_scheme/parameter_server.h"

#include <algorithm>

#include "core/base/enum_names.h"
#include "core/base/error.h"

namespace paleo {
namespace {

const EnumName<ServerLayout> kServerLayouts[] = {
    {ServerLayout::kSingle, "single"}, {ServerLayout::kSharded, "sharded"}, {ServerLayout::kHierarchical, "hierarchical"}};

}  // namespace

ServerLayout parse_server_layout(const std::string& text, const std::string& field) {
  return parse_enum(kServerLayouts, text, "server layout", field);
}

const char* server_layout_name(ServerLayout l) { return enum_name(kServerLayouts, l); }

ServerExchange server_exchange(const ParameterServerSpec& spec, const std::vector<GradientTensor>& tensors,
                               const Cluster& cluster, std::int64_t workers, const Device& device,
                               const CollectiveSettings& settings) {
  ServerExchange out;
  double dense_values = 0;
  for (const GradientTensor& t : tensors) {
    dense_values += t.values;
    if (spec.offload_fc && t.fully_connected && t.batch > 0) {
      out.dense_fc_values += t.rows * t.cols;
      out.offloaded_fc_values += t.batch * (t.rows + t.cols);
      out.server_flops += 2 * t.batch * t.rows * t.cols;
    }
  }
  out.pulled_bytes = dense_values * kValueBytes;
  out.pushed_bytes = (dense_values - out.dense_fc_values + out.offloaded_fc_values) * kValueBytes;
  const Link link = cluster.nodes > 1 ? cluster.inter : cluster.intra;
  const double servers = spec.layout == ServerLayout::kSharded ? static_cast<double>(spec.servers) : 1.0;
  CollectiveSettings s = settings;
  s.servers = static_cast<std::int64_t>(servers);
  // The server link carries the larger of push and pull per worker: price the exchange as the
  // collective's 2 a + 2 p n b (+ p n g) with n the mean of the two, which is exact when they match.
  const double bytes = (out.pushed_bytes + out.pulled_bytes) / 2;
  std::int64_t clients = workers;
  out.layout = spec.layout == ServerLayout::kHierarchical ? ServerLayout::kSingle : spec.layout;
  if (spec.layout == ServerLayout::kHierarchical && cluster.nodes > 1 && cluster.devices_per_node > 1 &&
      workers == cluster.devices()) {
    out.layout = ServerLayout::kHierarchical;
    // Inside the node: reduce-scatter and all-gather of the model; then one client per node.
    out.exchange += best_collective(CollectiveOp::kReduceScatter, cluster.devices_per_node, out.pulled_bytes,
                                    cluster.intra, settings);
    out.exchange += best_collective(CollectiveOp::kAllGather, cluster.devices_per_node, out.pulled_bytes,
                                    cluster.intra, settings);
    clients = cluster.nodes;
  }
  const CollectiveAlgorithm algorithm =
      servers > 1 ? CollectiveAlgorithm::kShardedParameterServer : CollectiveAlgorithm::kParameterServer;
  out.exchange += collective_cost(CollectiveOp::kAllReduce, algorithm, clients, bytes, link, s);
  out.exchange.algorithm = std::string("parameter_server_") + server_layout_name(out.layout);
  const double gflops = device.peak_gflops > 0 ? device.peak_gflops : 1;
  out.server_compute_ms = out.server_flops * static_cast<double>(clients) / servers / (gflops * 1e9) * 1e3;
  // Each server takes n / S bytes per update in each direction and reduces them.
  const double per_update_ms = bytes / servers * (link.ms_per_byte() + settings.reduction_ms_per_byte) +
                               out.server_flops / servers / (gflops * 1e9) * 1e3;
  out.updates_per_s_cap = per_update_ms > 0 ? 1e3 / per_update_ms : 0;
  return out;
}

}  // namespace paleo
