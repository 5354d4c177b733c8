#include "core/training_scheme/training_scheme.h"

#include <cmath>

#include "core/base/error.h"
#include "core/training_scheme/batch_norm_sync.h"
#include "core/training_scheme/compressed_sync.h"
#include "core/training_scheme/sparse_all_reduce.h"

namespace paleo {
namespace {

GradientTensor tensor_of(const Layer& l) {
  GradientTensor t;
  t.values = static_cast<double>(l.params);
  if (l.kind == LayerKind::kInnerProduct && l.weights.size() == 2) {
    t.rows = static_cast<double>(l.weights[1]);
    t.cols = static_cast<double>(l.weights[0]);
    t.fully_connected = true;
    t.batch = l.output.empty() ? 0 : static_cast<double>(l.output[0]);
  } else if (l.kind == LayerKind::kRecurrent && l.weights.size() == 2) {
    t.rows = static_cast<double>(l.weights[1]);  // G H: the gates' weights are [I + H, G H]
    t.cols = t.values / t.rows;
  } else if ((l.kind == LayerKind::kConvolution || l.kind == LayerKind::kDeconvolution) && l.conv.cout > 0) {
    t.rows = static_cast<double>(l.conv.cout);
    t.cols = t.values / t.rows;
  }
  return t;
}

// A hierarchy the cluster cannot hold is priced as one server: say so.
void note_server_layout(const ParameterServerSpec& asked, const ServerExchange& priced, const Cluster& cluster,
                        std::vector<std::string>& warnings) {
  if (asked.layout != ServerLayout::kHierarchical || priced.layout == ServerLayout::kHierarchical) return;
  warnings.push_back("training_scheme.server_layout: 'hierarchical' needs several nodes of several devices, all of "
                     "them workers (the cluster is " + std::to_string(cluster.nodes) + "x" +
                     std::to_string(cluster.devices_per_node) + "); priced as a single server");
}

void check(const TrainingScheme& s) {
  const bool averaging = s.averaging.kind != AveragingKind::kNone;
  if (s.compression.kind != CompressionKind::kNone &&
      (averaging || s.exchange == GradientExchange::kParameterServer || s.consistency == Consistency::kAsynchronous))
    throw Error("compression applies to all-reduced gradients of sync or ssp training, without averaging", "",
                "training_scheme.compression");
  if (averaging && s.consistency != Consistency::kSynchronous)
    throw Error("averaging sets its own consistency: leave consistency 'sync'", "", "training_scheme.averaging");
  if (s.consistency != Consistency::kStaleSynchronous && s.staleness != 0)
    throw Error("applies to consistency 'ssp' only", "", "training_scheme.staleness");
}

}  // namespace

std::vector<GradientTensor> gradient_tensors(const Network& net) {
  std::vector<GradientTensor> out;
  for (std::size_t i = net.layers.size(); i-- > 0;) out.push_back(tensor_of(net.layers[i]));
  return out;
}

SchemeStep training_scheme_step(const Scenario& s, const ClusterOptions& o, const TrainingScheme& scheme,
                                NetworkPricer& pricer) {
  check(scheme);
  if (o.pipeline_stages > 1) throw Error("applies to data parallelism; drop the pipeline", "", "training_scheme");
  const ClusterStep cs = cluster_step(s, o, pricer);
  const PricedNetwork c = pricer.at(s.batch_size);
  SchemeStep out;
  const std::int64_t m = cs.data_parallel;
  const Cluster& cluster = cs.cluster;
  out.workers = m;
  out.compute_ms = cs.forward_ms + cs.backward_ms + cs.update_ms;
  const std::vector<GradientTensor> tensors = gradient_tensors(c.net);
  for (const GradientTensor& t : tensors) out.dense_gradient_bytes += t.values * kValueBytes;
  CollectiveSettings settings = collective_settings(s.device, o.servers > 1 ? o.servers : s.cluster.nodes,
                                                    s.cost_model().message_overhead_ms());
  settings.library = o.library;  // the all-reduces are the cluster step's, as its library prices them
  const CollectiveAlgorithm chosen = parse_collective_algorithm(cs.chosen.algorithm);
  std::int64_t barrier_steps = 1;       // steps each worker runs between barriers
  std::int64_t barrier_workers = m;     // workers that wait for each other
  // The wait for the slowest server belongs to every synchronous barrier, once: the era's
  // (core/cluster/straggler.h, already in the all-reduce's cs.step_ms), unless the scheme's own
  // jitter model describes the workers and replaces it. Each branch prices its step without it.
  const bool own_jitter = scheme.jitter.distribution != JitterDistribution::kNone || scheme.jitter.slow_fraction > 0;
  double step = cs.step_ms - cs.straggler_wait_ms;
  bool waits_at_barrier = true;
  const AveragingKind avg = scheme.averaging.kind;
  const double every = static_cast<double>(scheme.averaging.every);

  if (avg == AveragingKind::kEnsemble) {
    out.exchange = "none (ensemble)";
    step = out.compute_ms;
    barrier_workers = 1;
    waits_at_barrier = false;
  } else if (avg == AveragingKind::kLocalSgd) {
    const CollectiveCost ar =
        cluster_collective(CollectiveOp::kAllReduce, chosen, cluster, out.dense_gradient_bytes, settings);
    out.exchange = "local_sgd " + ar.algorithm;
    out.comm_ms = ar.time_ms() / every;
    out.message_bytes = out.dense_gradient_bytes;
    out.wire_bytes_per_step = all_reduce_bytes_sent(ar.algorithm, cluster, out.dense_gradient_bytes) / every;
    step = out.compute_ms + out.comm_ms;
    barrier_steps = scheme.averaging.every;
  } else if (avg == AveragingKind::kElastic) {
    ParameterServerSpec spec = scheme.server;
    spec.push_weights = true;
    spec.offload_fc = false;
    out.server = server_exchange(spec, tensors, cluster, m, s.device, settings);
    out.server_layout_used = true;
    note_server_layout(scheme.server, out.server, cluster, out.warnings);
    out.exchange = "elastic " + out.server.exchange.algorithm;
    out.comm_ms = out.server.time_ms() / every;
    out.message_bytes = out.server.pushed_bytes;
    out.wire_bytes_per_step = out.server.pushed_bytes / every;
    step = out.compute_ms + out.comm_ms;
    barrier_steps = scheme.averaging.every;
  } else if (avg == AveragingKind::kGossip) {
    std::int64_t peers = m > 1 ? scheme.averaging.peers : 0;
    if (peers >= m) {  // at most every other worker: priced with m - 1 peers
      peers = m - 1;
      out.warnings.push_back("training_scheme.gossip_peers: " + std::to_string(scheme.averaging.peers) +
                             " peers need more than " + std::to_string(m) + " workers; priced with " +
                             std::to_string(peers) + " (every other worker)");
    }
    const CollectiveCost g = gossip_exchange(out.dense_gradient_bytes, peers, pairwise_link(cluster), settings);
    out.exchange = "gossip";
    out.comm_ms = g.time_ms();
    out.message_bytes = out.dense_gradient_bytes;
    out.wire_bytes_per_step = static_cast<double>(peers) * out.dense_gradient_bytes;
    out.gossip_rounds = gossip_rounds(m);
    step = out.compute_ms + out.comm_ms;
    barrier_workers = peers + 1;
    waits_at_barrier = false;  // each worker waits for its few peers, not for the slowest server
  } else if (scheme.consistency == Consistency::kAsynchronous ||
             scheme.exchange == GradientExchange::kParameterServer) {
    out.server = server_exchange(scheme.server, tensors, cluster, m, s.device, settings);
    out.server_layout_used = true;
    note_server_layout(scheme.server, out.server, cluster, out.warnings);
    if (scheme.server.push_weights)
      out.warnings.push_back("training_scheme.push: 'weights' moves the same bytes as 'gradients' and is priced like "
                             "them (the servers' averaging versus their optimizer step is not priced)");
    out.exchange = out.server.exchange.algorithm;
    out.message_bytes = out.server.pushed_bytes;
    out.wire_bytes_per_step = out.server.pushed_bytes;
    out.comm_ms = out.server.time_ms();
    step = out.compute_ms + out.comm_ms;
  } else if (scheme.compression.kind != CompressionKind::kNone) {
    std::vector<double> backward;
    for (std::size_t i = c.cost.layers.size(); i-- > 0;) backward.push_back(c.cost.layers[i].backward.total_ms());
    const CompressedSync cz = compressed_sync(scheme.compression, tensors, backward, o.bucket_bytes, cluster, chosen,
                                              settings, s.device);
    out.exchange = compression_name(scheme.compression) + " " + cz.collective;
    out.codec_ms = cz.codec_ms;
    out.message_bytes = cz.message_bytes;
    out.wire_bytes_per_step = cz.bytes_sent;
    out.extra_memory_bytes = cz.extra_memory_bytes;
    step = o.overlap ? cs.forward_ms + cz.sync.backward_and_sync_ms + cs.update_ms
                     : cs.forward_ms + cz.sync.backward_ms + cz.sync.comm_ms + cs.update_ms;
    step += cz.codec_ms;
    out.comm_ms = step - out.compute_ms - cz.codec_ms;
  } else {
    out.exchange = cs.chosen.algorithm;
    out.comm_ms = step - out.compute_ms;
    out.message_bytes = out.dense_gradient_bytes;
    out.wire_bytes_per_step = all_reduce_bytes_sent(cs.chosen.algorithm, cluster, out.dense_gradient_bytes);
  }
  if (scheme.global_batch_norm && m > 1 && avg != AveragingKind::kEnsemble) {
    double bn_bytes_sent = 0;  // each layer's all-reduce runs twice: forward and backward
    const BatchNormSync bn = batch_norm_sync(c.net, [&](double bytes) {
      const CollectiveCost ar =
          cluster_collective(CollectiveOp::kAllReduce, CollectiveAlgorithm::kAuto, cluster, bytes, settings);
      bn_bytes_sent += 2 * all_reduce_bytes_sent(ar.algorithm, cluster, bytes);
      return ar;
    });
    out.batch_norm_layers = bn.layers;
    out.batch_norm_ms = bn.time_ms;
    out.wire_bytes_per_step += bn_bytes_sent;
    step += bn.time_ms;
  }
  if (waits_at_barrier && !own_jitter && scheme.consistency != Consistency::kAsynchronous) {
    // Averaged over the steps between barriers (or the staleness bound), as synchronous_step does.
    const std::int64_t averaged =
        scheme.consistency == Consistency::kStaleSynchronous ? scheme.staleness + 1 : barrier_steps;
    step += cs.straggler_wait_ms / std::sqrt(static_cast<double>(averaged));
  }
  out.deterministic_step_ms = step;
  const double samples = static_cast<double>(cs.global_batch);
  if (scheme.consistency == Consistency::kAsynchronous) {
    const ServerExchange one = server_exchange(scheme.server, tensors, cluster, 1, s.device, settings);
    out.consistency = asynchronous_step(scheme.jitter, out.compute_ms, one.time_ms() + out.batch_norm_ms, m,
                                        out.server.updates_per_s_cap);
    out.comm_ms = one.time_ms();  // each worker's own push and pull (the servers' queue is in the cap)
    out.throughput_samples_per_s = out.consistency.updates_per_s * static_cast<double>(cs.batch_per_replica);
  } else {
    const std::int64_t s_bound =
        scheme.consistency == Consistency::kStaleSynchronous ? scheme.staleness : barrier_steps - 1;
    StragglerModel jitter = scheme.jitter;
    if (avg == AveragingKind::kEnsemble) jitter.slow_fraction = 0;  // nobody waits for the slow member
    out.consistency = synchronous_step(jitter, step, out.compute_ms, barrier_workers, s_bound);
    if (scheme.consistency == Consistency::kSynchronous)
      out.consistency.staleness_bound = out.consistency.staleness_expected = 0;
    out.consistency.updates_per_s = static_cast<double>(m) / out.consistency.step_ms * 1e3;
    out.throughput_samples_per_s = samples / out.consistency.step_ms * 1e3;
  }
  return out;
}

}  // namespace paleo
