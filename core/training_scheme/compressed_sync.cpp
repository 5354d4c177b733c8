#include "core/training_scheme/compressed_sync.h"

#include <cmath>

#include "core/base/enum_names.h"
#include "core/cluster/collectives.h"
#include "core/training_scheme/sparse_all_reduce.h"

namespace paleo {
namespace {

const EnumName<WireCollective> kWireCollectives[] = {{WireCollective::kAllReduce, "allreduce"},
                                                      {WireCollective::kAllGather, "allgather"},
                                                      {WireCollective::kSparseAllReduce, "sparse_allreduce"}};

}  // namespace

double all_reduce_bytes_sent(const std::string& algorithm, const Cluster& cluster, double bytes) {
  const double p = static_cast<double>(cluster.devices());
  if (p <= 1) return 0;
  if (algorithm == "ring" || algorithm == "rabenseifner") return 2 * bytes * (p - 1) / p;
  if (algorithm == "recursive_doubling") return bytes * ceil_log2(cluster.devices());
  if (algorithm == "binomial_tree") return 2 * bytes * ceil_log2(cluster.devices());
  if (algorithm == "double_binary_tree") return 2 * bytes;
  if (algorithm == "parameter_server" || algorithm == "sharded_parameter_server") return bytes;
  // hierarchical: ring-like halves inside the node, the 1/G share across nodes
  const double g = static_cast<double>(cluster.devices_per_node), n = static_cast<double>(cluster.nodes);
  return 2 * bytes * (g - 1) / g + 2 * (bytes / g) * (n - 1) / n;
}

CompressedSync compressed_sync(const Compression& compression, const std::vector<GradientTensor>& tensors,
                               const std::vector<double>& backward_ms, double bucket_bytes, const Cluster& cluster,
                               CollectiveAlgorithm all_reduce, const CollectiveSettings& settings,
                               const Device& device) {
  CompressedSync out;
  const std::int64_t p = cluster.devices();
  const double mem_ms_per_byte = 1e3 / (device.mem_bandwidth_gb_per_s * 1e9);
  const double ms_per_flop = device.peak_gflops > 0 ? 1e3 / (device.peak_gflops * 1e9) : 0;
  std::vector<double> wire;
  std::vector<WireCollective> kinds;  // of the layers with a message, in order
  for (const GradientTensor& t : tensors) {
    const CompressedTensor c = compress_gradient(compression, t, p);
    wire.push_back(t.values > 0 ? c.wire_bytes : 0);
    if (t.values <= 0) continue;
    kinds.push_back(c.collective);
    out.dense_bytes += c.dense_bytes;
    out.message_bytes += c.wire_bytes;
    out.extra_memory_bytes += c.extra_memory_bytes;
    out.codec_ms += (c.encode_traffic_bytes + c.decode_traffic_bytes) * mem_ms_per_byte + c.codec_flops * ms_per_flop;
  }
  bool mixed = false;
  for (WireCollective k : kinds) mixed = mixed || k != kinds.front();
  const Link pairwise = pairwise_link(cluster);
  std::size_t next = 0;  // mixed formats: one message per layer, priced by its own collective
  const WireCollective single = kinds.empty() ? WireCollective::kAllReduce : kinds.front();
  const double density = compression.density;
  auto price = [&](double bytes) {
    const WireCollective kind = mixed ? kinds[next++] : single;
    CollectiveCost c;
    switch (kind) {
      case WireCollective::kAllReduce:
        c = cluster_collective(CollectiveOp::kAllReduce, all_reduce, cluster, bytes, settings);
        out.bytes_sent += all_reduce_bytes_sent(c.algorithm, cluster, bytes);
        break;
      case WireCollective::kAllGather:
        c = cluster_collective(CollectiveOp::kAllGather, CollectiveAlgorithm::kAuto, cluster,
                               bytes * static_cast<double>(p), settings);
        out.bytes_sent += bytes * static_cast<double>(p - 1);
        break;
      case WireCollective::kSparseAllReduce: {
        const double nonzeros = bytes / (kValueBytes + kIndexBytes);
        const double values = std::ceil(nonzeros / density);
        c = sparse_all_reduce(nonzeros, values, p, pairwise, settings);
        out.bytes_sent += sparse_all_reduce_bytes_sent(nonzeros, values, p);
        break;
      }
    }
    return c;
  };
  out.sync = gradient_sync(backward_ms, wire, mixed ? 0 : bucket_bytes, price);
  out.collective = mixed ? "allreduce+allgather" : enum_name(kWireCollectives, single);
  if (!mixed && single == WireCollective::kAllReduce) out.collective = out.sync.parts.algorithm;
  return out;
}

}  // namespace paleo
