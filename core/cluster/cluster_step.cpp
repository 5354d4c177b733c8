#include "core/cluster/cluster_step.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/cluster/nccl_model.h"
#include "core/cluster/straggler.h"

namespace paleo {
namespace {

CollectiveSettings settings_for(const Scenario& s, const ClusterOptions& o) {
  // Sharded parameter servers: one per node unless the request says otherwise.
  CollectiveSettings settings = collective_settings(s.device, o.servers > 1 ? o.servers : s.cluster.nodes,
                                                    s.cost_model().message_overhead_ms());
  settings.library = o.library;
  return settings;
}

// The devices holding one stage's replicas: stages spread over nodes first.
Cluster data_parallel_group(const Cluster& c, std::int64_t stages) {
  Cluster g = c;
  if (stages <= c.nodes) {
    g.nodes = c.nodes / stages;
  } else {
    g.devices_per_node = c.devices_per_node / (stages / c.nodes);
  }
  return g;
}

SyncOption sync_option(CollectiveAlgorithm algorithm, const Cluster& group, const CollectiveSettings& settings,
                       const std::vector<double>& backward_ms, const std::vector<double>& gradient_bytes,
                       double bucket_bytes, double forward_ms, double update_ms) {
  SyncOption o;
  o.algorithm = collective_algorithm_name(algorithm);
  o.sync = gradient_sync(backward_ms, gradient_bytes, bucket_bytes, [&](double bytes) {
    return cluster_collective(CollectiveOp::kAllReduce, algorithm, group, bytes, settings);
  });
  o.step_no_overlap_ms = forward_ms + o.sync.backward_ms + o.sync.comm_ms + update_ms;
  o.step_overlap_ms = forward_ms + o.sync.backward_and_sync_ms + update_ms;
  return o;
}

// Per layer in backward order: backward time and gradient bytes, for layers [first, last).
void backward_order(const PricedNetwork& c, std::size_t first, std::size_t last, std::vector<double>& ms,
                    std::vector<double>& bytes) {
  for (std::size_t i = last; i-- > first;) {
    ms.push_back(c.cost.layers[i].backward.total_ms());
    bytes.push_back(static_cast<double>(c.net.layers[i].params) * dtype_bytes(c.cost.precision.grad_reduce));
  }
}

// The largest batch whose footprint fits: a bracket [fits, does not fit] narrowed to adjacent
// batches. The footprint is nearly linear in the batch (activations, plus the workspaces of the
// algorithms chosen at that batch), so each probe interpolates inside the bracket (bisecting
// when an end has been kept twice): each probe prices the whole net.
std::int64_t largest_fitting_batch(const Scenario& s, NetworkPricer& pricer) {
  const double memory = s.device.memory_bytes;
  if (memory <= 0) return 0;
  // A batch past the limits on tensor sizes (docs/api.md, "Limits") does not fit either.
  auto total = [&](Dim b) {
    try {
      const PricedNetwork c = pricer.at(b);
      return memory_footprint(c.net, c.cost, s.cost.optimizer, memory).total_bytes();
    } catch (const Error&) {
      return std::numeric_limits<double>::infinity();
    }
  };
  constexpr Dim kLargest = Dim{1} << 30;
  Dim lo = 1, hi = 2;
  double lo_bytes = total(lo), hi_bytes = total(hi);
  if (lo_bytes > memory) return 0;
  // Grow the bracket until its top does not fit, from the line through the points known.
  while (hi_bytes <= memory) {
    if (hi == kLargest) return hi;
    const double slope = (hi_bytes - lo_bytes) / static_cast<double>(hi - lo);
    const double reach = slope > 0 ? static_cast<double>(hi) + (memory - hi_bytes) / slope + 1 : 2.0 * hi;
    lo = hi;
    lo_bytes = hi_bytes;
    hi = static_cast<Dim>(std::min(static_cast<double>(kLargest), std::max(reach, static_cast<double>(hi) + 1)));
    hi_bytes = total(hi);
  }
  int kept_lo = 0, kept_hi = 0;
  while (hi - lo > 1) {
    Dim probe = lo + (hi - lo) / 2;
    if (kept_lo < 2 && kept_hi < 2 && hi_bytes > lo_bytes && std::isfinite(hi_bytes)) {
      const double at = static_cast<double>(lo) + (memory - lo_bytes) / (hi_bytes - lo_bytes) * static_cast<double>(hi - lo);
      probe = std::clamp<Dim>(static_cast<Dim>(std::floor(at)), lo + 1, hi - 1);
    }
    const double bytes = total(probe);
    if (bytes <= memory) {
      lo = probe, lo_bytes = bytes, ++kept_hi, kept_lo = 0;
    } else {
      hi = probe, hi_bytes = bytes, ++kept_lo, kept_hi = 0;
    }
  }
  return lo;
}

void choose(ClusterStep& step, const ClusterOptions& o) {
  const bool pinned = o.collective != CollectiveAlgorithm::kAuto;
  double best = std::numeric_limits<double>::infinity();
  for (const SyncOption& opt : step.options) {
    const double t = o.overlap ? opt.step_overlap_ms : opt.step_no_overlap_ms;
    // `auto` chooses among the algorithms the stack's library runs.
    if (!pinned && !offered_by(o.library, parse_collective_algorithm(opt.algorithm))) continue;
    if (pinned ? opt.algorithm == collective_algorithm_name(o.collective) : t < best) {
      best = t;
      step.chosen = opt;
    }
  }
  step.step_ms = o.overlap ? step.chosen.step_overlap_ms : step.chosen.step_no_overlap_ms;
}

void data_parallel_step(const Scenario& s, const ClusterOptions& o, ClusterStep& step, NetworkPricer& pricer) {
  const PricedNetwork c = pricer.at(s.batch_size);
  step.forward_ms = forward_ms(s, c.cost);
  step.backward_ms = backward_ms(s, c.cost);
  step.update_ms = update_ms(s, c.cost);
  std::vector<double> ms, bytes;
  backward_order(c, 0, c.net.layers.size(), ms, bytes);
  const CollectiveSettings settings = settings_for(s, o);
  // The all-reduce of the last bucket cannot end before the slowest server's backward pass has.
  step.straggler_wait_ms = straggler_wait_ms(step.forward_ms + step.backward_ms, s.cost_model().step_jitter_cv(),
                                             step.cluster.nodes);
  for (CollectiveAlgorithm a : sync_algorithms()) {
    SyncOption opt = sync_option(a, step.cluster, settings, ms, bytes, o.bucket_bytes, step.forward_ms, step.update_ms);
    opt.step_no_overlap_ms += step.straggler_wait_ms;
    opt.step_overlap_ms += step.straggler_wait_ms;
    step.options.push_back(opt);
  }
  step.memory.push_back(memory_footprint(c.net, c.cost, s.cost.optimizer, s.device.memory_bytes));
  if (o.find_max_batch) step.max_batch_per_replica = largest_fitting_batch(s, pricer);
}

void pipeline_step(const Scenario& s, const ClusterOptions& o, ClusterStep& step, NetworkPricer& pricer) {
  step.pipelined = true;
  step.micro_batch = (s.batch_size + o.micro_batches - 1) / o.micro_batches;
  const PricedNetwork c = pricer.at(step.micro_batch);
  const std::size_t n = c.net.layers.size();
  if (static_cast<std::size_t>(step.stages) > n) throw Error("more stages than layers", "", "pipeline.stages");
  std::vector<double> layer_ms(n);
  for (std::size_t i = 0; i < n; ++i) layer_ms[i] = c.cost.layers[i].forward.total_ms() + c.cost.layers[i].backward.total_ms();
  // The automatic split is a search of stages x layers^2 steps, bounded before it starts.
  if (o.split.empty() && static_cast<double>(step.stages) * static_cast<double>(n) * static_cast<double>(n) > kMaxPipelineSplitWork)
    throw Error("splitting " + std::to_string(n) + " layers into " + std::to_string(step.stages) +
                    " stages automatically is too large a search (docs/api.md, Limits): give pipeline.split",
                "", "pipeline.stages");
  // Each micro-batch holds at least one sample: more of them than samples would price empty
  // micro-batches as whole ones (1,048,576 of a 128-sample batch: 1,381 s a step).
  if (o.micro_batches > s.batch_size)
    throw Error("is " + std::to_string(o.micro_batches) + " for a batch of " + std::to_string(s.batch_size) +
                    " samples; micro-batches must not exceed the batch (each holds at least one sample)",
                "", "pipeline.micro_batches");
  step.split = o.split.empty() ? balanced_split(layer_ms, step.stages) : o.split;
  std::int64_t total = 0;
  for (std::int64_t k : step.split) total += k;
  if (static_cast<std::size_t>(total) != n)
    throw Error("the stages hold " + std::to_string(total) + " layers; the network has " + std::to_string(n),
                "", "pipeline.split");
  // Stage of each layer, and the activations crossing each stage boundary.
  std::vector<std::int64_t> stage_of(n);
  for (std::int64_t st = 0, i = 0; st < step.stages; ++st)
    for (std::int64_t k = 0; k < step.split[static_cast<std::size_t>(st)]; ++k) stage_of[static_cast<std::size_t>(i++)] = st;
  std::vector<double> boundary_bytes(static_cast<std::size_t>(step.stages), 0);
  std::vector<bool> counted(n, false);
  for (std::size_t i = 0; i < n; ++i)
    for (int p : c.net.layers[i].parents)
      if (stage_of[static_cast<std::size_t>(p)] < stage_of[i] && !counted[static_cast<std::size_t>(p)]) {
        counted[static_cast<std::size_t>(p)] = true;
        boundary_bytes[static_cast<std::size_t>(stage_of[static_cast<std::size_t>(p)])] +=
            product(c.net.layers[static_cast<std::size_t>(p)].output) * dtype_bytes(c.cost.precision.activations);
      }
  const Link& hop = step.stages <= step.cluster.nodes && step.cluster.nodes > 1 ? step.cluster.inter : step.cluster.intra;
  const Cluster group = data_parallel_group(step.cluster, step.stages);
  const CollectiveSettings settings = settings_for(s, o);
  std::vector<StageTimes> stages(static_cast<std::size_t>(step.stages));
  const CostModel update_model = update_model_for(s.cost_model());
  double slowest_update = 0;
  std::vector<std::vector<double>> stage_ms(stages.size()), stage_bytes(stages.size());
  for (std::size_t st = 0, first = 0; st < stages.size(); ++st) {
    const std::size_t last = first + static_cast<std::size_t>(step.split[st]);
    double params = 0;
    for (std::size_t i = first; i < last; ++i) {
      const LayerCost& lc = c.cost.layers[i];
      stages[st].forward_ms += s.use_pipeline ? lc.forward.pipelined_ms() : lc.forward.total_ms();
      stages[st].backward_ms += s.use_pipeline ? lc.backward.pipelined_ms() : lc.backward.total_ms();
      params += static_cast<double>(c.net.layers[i].weights_bytes);
    }
    if (boundary_bytes[st] > 0) stages[st].transfer_ms = hop.alpha_ms() + boundary_bytes[st] * hop.ms_per_byte();
    backward_order(c, first, last, stage_ms[st], stage_bytes[st]);
    const PassCost upd = update_cost(update_model, params, s.cost.optimizer);
    slowest_update = std::max(slowest_update, s.use_pipeline ? upd.pipelined_ms() : upd.total_ms());
    step.memory.push_back(memory_footprint(c.net, c.cost, s.cost.optimizer, s.device.memory_bytes, first, last,
                                           activations_kept(o.schedule, static_cast<std::int64_t>(st), step.stages,
                                                            o.micro_batches)));
    first = last;
  }
  step.pipeline = pipeline_schedule(stages, o.micro_batches);
  step.forward_ms = 0;
  step.backward_ms = step.pipeline.step_ms;
  step.update_ms = slowest_update;
  // Gradients are all-reduced per stage among its replicas once the pipeline has drained; the
  // slowest stage sets the pace (no overlap with the pipeline is modelled).
  for (CollectiveAlgorithm a : sync_algorithms()) {
    SyncOption worst;
    for (std::size_t st = 0; st < stages.size(); ++st) {
      SyncOption opt = sync_option(a, group, settings, stage_ms[st], stage_bytes[st], o.bucket_bytes, 0, 0);
      if (st == 0 || opt.sync.comm_ms > worst.sync.comm_ms) worst = opt;
    }
    worst.sync.backward_ms = step.pipeline.step_ms;
    worst.sync.backward_and_sync_ms = step.pipeline.step_ms + worst.sync.comm_ms;
    worst.step_no_overlap_ms = worst.step_overlap_ms = step.pipeline.step_ms + worst.sync.comm_ms + slowest_update;
    step.options.push_back(worst);
  }
}

}  // namespace

CollectiveSettings collective_settings(const Device& device, std::int64_t servers, double message_overhead_ms) {
  CollectiveSettings settings;
  settings.message_overhead_ms = message_overhead_ms;
  settings.reduction_ms_per_byte = 3.0 / (device.mem_bandwidth_gb_per_s * 1e9) * 1e3;
  settings.servers = servers;
  settings.ring_plateau = nccl_ring_plateau(device);
  return settings;
}

std::vector<CollectiveAlgorithm> sync_algorithms() {
  using A = CollectiveAlgorithm;
  return {A::kRing, A::kRecursiveDoubling, A::kRabenseifner, A::kBinomialTree, A::kDoubleBinaryTree,
          A::kParameterServer, A::kShardedParameterServer, A::kHierarchical};
}

ClusterStep cluster_step(const Scenario& s, const ClusterOptions& o) {
  NetworkPricer pricer(s);
  return cluster_step(s, o, pricer);
}

ClusterStep cluster_step(const Scenario& s, const ClusterOptions& o, NetworkPricer& pricer) {
  ClusterStep step;
  step.cluster = s.cluster;
  step.stages = o.pipeline_stages;
  const std::int64_t devices = s.cluster.devices();
  if (devices % step.stages != 0 ||
      (step.stages > s.cluster.nodes && step.stages % s.cluster.nodes != 0) ||
      (step.stages <= s.cluster.nodes && s.cluster.nodes % step.stages != 0) ||
      (step.stages > s.cluster.nodes && s.cluster.devices_per_node % (step.stages / s.cluster.nodes) != 0))
    throw Error(std::to_string(step.stages) + " stages do not divide " + std::to_string(s.cluster.nodes) + " x " +
                    std::to_string(s.cluster.devices_per_node) + " devices evenly", "", "pipeline.stages");
  step.data_parallel = devices / step.stages;
  step.batch_per_replica = s.batch_size;
  step.micro_batch = s.batch_size;
  step.global_batch = checked_multiply(s.batch_size, step.data_parallel, "batch_size");
  if (step.stages > 1) {
    pipeline_step(s, o, step, pricer);
  } else {
    data_parallel_step(s, o, step, pricer);
  }
  choose(step, o);
  return step;
}

}  // namespace paleo
