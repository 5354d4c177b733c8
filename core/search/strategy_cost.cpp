#include "core/search/strategy_cost.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "core/cluster/cluster_step.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/search/strategy_traffic.h"

namespace paleo {
namespace {


Dim ceil_div(Dim a, long b) { return (a + b - 1) / b; }

// The layer as the largest of its parts computes it, written over `p` (a copy of `l`): only the
// shapes change, so the copy's strings and buffers are reused from configuration to configuration.
void cut_to_part(const Layer& l, const StrategyConfig& cfg, Layer& p) {
  p.output = l.output;
  for (std::size_t k = 0; k < l.inputs.size(); ++k) p.inputs[k] = l.inputs[k];
  p.conv = l.conv;
  p.weights = l.weights;
  const bool image = l.output.size() == 4;
  p.output[0] = ceil_div(l.output[0], cfg.n);
  if (image) {
    p.output[1] = ceil_div(l.output[1], cfg.h);
    p.output[2] = ceil_div(l.output[2], cfg.w);
    p.output[3] = ceil_div(l.output[3], cfg.c);
  } else if (l.output.size() == 2) {
    p.output[1] = ceil_div(l.output[1], cfg.c);
  }
  for (Shape& in : p.inputs) {
    in[0] = p.output[0];
    if (image && in.size() == 4) {
      in[1] = std::max<Dim>(1, ceil_div(in[1], cfg.h));
      in[2] = std::max<Dim>(1, ceil_div(in[2], cfg.w));
      if (!mixes_channels(l)) in[3] = ceil_div(in[3], cfg.c);
    }
  }
  if (l.kind == LayerKind::kConvolution) {
    ConvGeometry& g = p.conv;
    g.output = p.output;
    g.cout = p.output[3];
    g.input[0] = p.output[0];
    // The input rows a part reads, halo included (the padding counted once).
    g.input[1] = std::clamp<Dim>((p.output[1] - 1) * g.sh + g.kh - 2 * g.pad_h, 1, l.conv.input[1]);
    g.input[2] = std::clamp<Dim>((p.output[2] - 1) * g.sw + g.kw - 2 * g.pad_w, 1, l.conv.input[2]);
    p.inputs[0] = g.input;
  } else if (l.kind == LayerKind::kInnerProduct) {
    p.weights[1] = p.output[1];
  }
  p.weights_bytes = l.weights_bytes / cfg.c;
}

// t_s: the exchange of a configuration's gradients among its replicas, inside a node or
// across the nodes its devices span. Many configurations (of one layer, or of layers of one
// size) exchange the same bytes over the same devices: each is priced once.
struct ReplicaSync {
  const Cluster& cluster;
  const CollectiveSettings& sync;
  GradientExchange exchange;
  std::map<std::tuple<long, long, double>, double> priced;

  // One message of `bytes` over `link`, with the software's time to issue it.
  double message_ms(const Link& link, double bytes) const {
    return link.alpha_ms() + sync.message_overhead_ms + bytes * link.ms_per_byte();
  }

  double ms(long replicas, long degree, double bytes) {
    auto [it, fresh] = priced.emplace(std::make_tuple(replicas, degree, bytes), 0.0);
    if (!fresh) return it->second;
    const long per_node = cluster.devices_per_node;
    if (exchange == GradientExchange::kParameterServer) {
      // OptCNN (section 3): every replica sends its gradients to the layer's server, which sends
      // the new parameters back. The server is one of the replicas: the others of its node reach
      // it over the node's link, one from each other node over the inter-node link; the return
      // leg runs the other way of the full-duplex links (as the authors' code prices t_s).
      const long nodes = degree <= per_node ? 1 : degree / per_node;
      const long in_node = std::max<long>(1, replicas / nodes);
      it->second = static_cast<double>(in_node - 1) * message_ms(cluster.intra, bytes) +
                   static_cast<double>(nodes - 1) * message_ms(cluster.inter, bytes);
    } else if (degree <= per_node) {
      it->second = best_collective(CollectiveOp::kAllReduce, replicas, bytes, cluster.intra, sync).time_ms();
    } else {
      Cluster group = cluster;
      group.nodes = degree / per_node;
      group.devices_per_node = std::max<long>(1, replicas / group.nodes);
      it->second = cluster_collective(CollectiveOp::kAllReduce, CollectiveAlgorithm::kAuto, group, bytes, sync).time_ms();
    }
    return it->second;
  }
};

void divisors(long d, std::vector<long>& out) {
  for (long k = 1; k <= d; ++k)
    if (d % k == 0) out.push_back(k);
}

}  // namespace

std::string StrategyConfig::to_string() const {
  return "n" + std::to_string(n) + " c" + std::to_string(c) + " h" + std::to_string(h) + " w" + std::to_string(w);
}

std::vector<StrategyConfig> layer_configs(const Layer& l, long devices) {
  const std::array<Dim, 4> d = nhwc_dims(l.output);
  bool split_c = false, split_hw = false;
  switch (l.kind) {
    case LayerKind::kConvolution:
    case LayerKind::kPooling:
    case LayerKind::kDropout:
    case LayerKind::kZeroCost:
      split_c = true;
      split_hw = l.output.size() == 4;
      break;
    case LayerKind::kInnerProduct:
      split_c = l.output.size() == 2;  // on the last axis of [N, T, D]: samples only
      break;
    case LayerKind::kConcatenate:
    case LayerKind::kElementwise:
      split_hw = l.output.size() == 4;
      break;
    default:
      break;  // Input, Softmax, Reshape, UpSampling2D, Deconvolution: samples only
  }
  std::vector<long> ks;
  divisors(devices, ks);
  std::vector<StrategyConfig> out;
  for (long n : ks)
    for (long c : ks)
      for (long s : ks) {
        // The product checked before it is formed: 1024^4 wraps to 0 in a 32-bit long (WebAssembly).
        if (n * c > devices || s * s > devices / (n * c) || devices % (n * c * s * s) != 0) continue;
        if ((c > 1 && !split_c) || (s > 1 && !split_hw)) continue;
        if (n > d[0] || c > d[3] || s > d[1] || s > d[2]) continue;
        out.push_back({n, c, s, s});
      }
  return out;
}

void check_search_space(const StrategyProblem& p) {
  double pairs = 0;
  for (std::size_t i = 0; i < p.configs.size(); ++i)
    for (int parent : p.net->layers[i].parents)
      pairs += static_cast<double>(p.configs[static_cast<std::size_t>(parent)].size()) *
               static_cast<double>(p.configs[i].size());
  // Transfers moved in turn across nodes also look, for each device, at the parts of its node.
  const bool in_turn = p.model.transfer_serialization() > 0 && p.cluster.devices_per_node < p.devices;
  const double looks = static_cast<double>(in_turn ? std::max<std::int64_t>(1, p.cluster.devices_per_node) : 1);
  const double work = pairs * static_cast<double>(p.devices) * looks;
  if (work > kMaxSearchWork)
    throw Error("the search would price " + std::to_string(static_cast<std::int64_t>(pairs)) +
                    " configuration pairs on " + std::to_string(p.devices) + " devices (" +
                    std::to_string(static_cast<std::int64_t>(work)) + " pair-devices" +
                    (in_turn ? ", each device looking at the " + std::to_string(p.cluster.devices_per_node) +
                                   " parts of its node" : std::string()) + "; the limit is " +
                    std::to_string(static_cast<std::int64_t>(kMaxSearchWork)) + ", docs/api.md): ask for fewer devices",
                "", "devices");
}

StrategyProblem make_strategy_problem(const Network& net, const CostModel& model, const CostOptions& options,
                                      const Cluster& cluster, const CollectiveSettings& sync,
                                      GradientExchange exchange) {
  StrategyProblem p{&net, model, options, cluster, sync, exchange, cluster.devices(), {}, {}, {}, {}, {}, {}};
  // The configurations first: the search's size is checked before any of it is priced.
  for (const Layer& l : net.layers) p.configs.push_back(layer_configs(l, p.devices));
  check_search_space(p);
  ReplicaSync gradient_sync{cluster, sync, exchange, {}};
  const std::vector<BatchNormFusion> fusion = layer_fusion(net, options);
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    const Layer& l = net.layers[i];
    std::vector<double> compute, backward, synchronise, exchanged;
    Layer part = l;
    for (const StrategyConfig& cfg : p.configs[i]) {
      cut_to_part(l, cfg, part);
      const LayerCost c = layer_compute_cost(part, model, options, fusion[i]);
      compute.push_back(c.forward.total_ms() + c.backward.total_ms());
      backward.push_back(c.backward.total_ms());
      const long replicas = cfg.n * cfg.h * cfg.w;
      // The gradients in the format they are reduced in (fp32 keeps weights_bytes).
      const double gradient_bytes =
          static_cast<double>(part.weights_bytes) / 4 * dtype_bytes(model.precision().grad_reduce);
      const bool exchanges = part.weights_bytes > 0 && replicas > 1;
      synchronise.push_back(exchanges ? gradient_sync.ms(replicas, cfg.degree(), gradient_bytes) : 0.0);
      exchanged.push_back(exchanges ? exchange_bytes(exchange, replicas, gradient_bytes) : 0.0);
    }
    p.compute_ms.push_back(std::move(compute));
    p.backward_ms.push_back(std::move(backward));
    p.sync_ms.push_back(std::move(synchronise));
    p.sync_bytes.push_back(std::move(exchanged));
  }
  p.transfer = transfer_tables(p);
  return p;
}

double transfer_ms(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                   const StrategyConfig& b) {
  return transfer_entry_ms(p, producer, a, consumer, b);
}

double overlapped_strategy_cost(const StrategyProblem& p, const std::vector<int>& choice) {
  const auto& layers = p.net->layers;
  double serial = p.model.step_overhead_ms();
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto c = static_cast<std::size_t>(choice[i]);
    serial += p.compute_ms[i][c] - p.backward_ms[i][c];
    for (std::size_t k = 0; k < layers[i].parents.size(); ++k) {
      const auto parent = static_cast<std::size_t>(layers[i].parents[k]);
      serial += p.transfer.edge(i, k)[static_cast<std::size_t>(choice[parent]) * p.configs[i].size() + c];
    }
  }
  double ready = 0, channel_free = 0;  // since the backward pass began
  for (std::size_t i = layers.size(); i-- > 0;) {
    const auto c = static_cast<std::size_t>(choice[i]);
    ready += p.backward_ms[i][c];
    if (p.sync_ms[i][c] > 0) channel_free = std::max(channel_free, ready) + p.sync_ms[i][c];
  }
  return serial + std::max(ready, channel_free);
}

double strategy_cost(const StrategyProblem& p, const std::vector<int>& choice) {
  double total = p.model.step_overhead_ms();
  const auto& layers = p.net->layers;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto c = static_cast<std::size_t>(choice[i]);
    total += p.compute_ms[i][c] + p.sync_ms[i][c];
    for (std::size_t k = 0; k < layers[i].parents.size(); ++k) {
      const auto parent = static_cast<std::size_t>(layers[i].parents[k]);
      total += p.transfer.edge(i, k)[static_cast<std::size_t>(choice[parent]) * p.configs[i].size() + c];
    }
  }
  return total;
}

}  // namespace paleo
