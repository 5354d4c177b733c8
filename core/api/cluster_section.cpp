#include "core/api/cluster_section.h"

#include <algorithm>
#include <optional>

#include "core/api/estimate_warnings.h"
#include "core/api/max_batch_memo.h"
#include "core/cluster/cluster_step.h"
#include "core/base/error.h"

namespace paleo {
namespace {

Json link_json(const Link& l) {
  return {{"key", l.key}, {"name", l.name}, {"latency_us", l.latency_us}, {"bandwidth_gb_per_s", l.bandwidth_gb_per_s},
          {"peak_gb_per_s", l.peak_gb_per_s}};
}

Json cluster_json(const Cluster& c) {
  return {{"key", c.key}, {"name", c.name}, {"nodes", c.nodes}, {"devices_per_node", c.devices_per_node},
          {"devices", c.devices()}, {"nics_per_node", c.nics_per_node}, {"intra", link_json(c.intra)},
          {"inter", link_json(c.inter)}, {"assumed", c.assumed},
          {"assumed_from", c.assumed_from.empty() ? Json() : Json(c.assumed_from)}};
}

Json cost_json(const CollectiveCost& c) {
  return {{"algorithm", c.algorithm}, {"time_ms", c.time_ms()}, {"alpha_ms", c.alpha_ms}, {"beta_ms", c.beta_ms},
          {"reduction_ms", c.reduction_ms}};
}

Json sync_json(const SyncOption& o) {
  return {{"algorithm", o.algorithm}, {"buckets", o.sync.buckets}, {"comm_ms", o.sync.comm_ms},
          {"alpha_ms", o.sync.parts.alpha_ms}, {"beta_ms", o.sync.parts.beta_ms},
          {"reduction_ms", o.sync.parts.reduction_ms},
          {"no_overlap", {{"step_ms", o.step_no_overlap_ms}, {"exposed_comm_ms", o.sync.comm_ms}}},
          {"overlap", {{"step_ms", o.step_overlap_ms}, {"exposed_comm_ms", o.sync.exposed_overlap_ms()}}}};
}

Json memory_json(const MemoryFootprint& m) {
  Json j = {{"weights_bytes", m.weights_bytes}, {"gradients_bytes", m.gradients_bytes},
            {"optimizer_bytes", m.optimizer_bytes}, {"activations_bytes", m.activations_bytes},
            {"workspace_bytes", m.workspace_bytes}, {"total_bytes", m.total_bytes()},
            {"capacity_bytes", m.capacity_bytes}, {"fits", m.fits()}};
  if (m.capacity_bytes <= 0) j["capacity_bytes"] = nullptr;
  return j;
}


// Weak scaling: one device's step alone (its compute, no exchange) over the cluster's step, the
// "scaling efficiency" of published data-parallel runs. Null with a pipeline (no one-device step).
Json scaling_efficiency(const ClusterStep& step) {
  if (step.pipelined || !(step.step_ms > 0)) return nullptr;
  return (step.forward_ms + step.backward_ms + step.update_ms) / step.step_ms;
}

Json step_json(const ClusterStep& step) {
  Json options = Json::array();
  for (const SyncOption& o : step.options) options.push_back(sync_json(o));
  Json memory = Json::array();
  for (const MemoryFootprint& m : step.memory) memory.push_back(memory_json(m));
  Json j = {{"cluster", cluster_json(step.cluster)},
            {"data_parallel", step.data_parallel},
            {"pipeline_stages", step.stages},
            {"batch_per_replica", step.batch_per_replica},
            {"global_batch", step.global_batch},
            {"compute", {{"forward_ms", step.forward_ms}, {"backward_ms", step.backward_ms},
                         {"update_ms", step.update_ms},
                         {"compute_ms", step.forward_ms + step.backward_ms + step.update_ms}}},
            {"straggler_wait_ms", step.straggler_wait_ms},
            {"collectives", options},
            {"chosen", sync_json(step.chosen)},
            {"step_ms", step.step_ms},
            {"throughput_samples_per_s", step.throughput_samples_per_s()},
            {"scaling_efficiency", scaling_efficiency(step)},
            {"memory", memory},
            {"max_batch_per_replica", step.max_batch_per_replica > 0 ? Json(step.max_batch_per_replica) : Json()}};
  if (step.pipelined) {
    Json stages = Json::array();
    for (std::size_t i = 0; i < step.pipeline.stages.size(); ++i) {
      const StageTimes& st = step.pipeline.stages[i];
      stages.push_back({{"layers", step.split[i]}, {"forward_ms", st.forward_ms}, {"backward_ms", st.backward_ms},
                        {"transfer_ms", st.transfer_ms}});
    }
    j["pipeline"] = {{"micro_batch", step.micro_batch}, {"step_ms", step.pipeline.step_ms},
                     {"ideal_ms", step.pipeline.ideal_ms}, {"bubble_ms", step.pipeline.bubble_ms()},
                     {"bubble_fraction", step.pipeline.bubble_fraction()}, {"stages", stages}};
  }
  return j;
}

}  // namespace

ClusterOptions cluster_options(const Request& r) {
  ClusterOptions o;
  o.collective = parse_collective_algorithm(r.cluster_step.collective);
  if (!r.cluster_step.collective_library.empty()) {
    o.library = parse_collective_library(r.cluster_step.collective_library, "collective_library");
  } else if (r.scenario.era && !r.scenario.era->collective_library.empty()) {
    o.library = parse_collective_library(r.scenario.era->collective_library, "software_era.collective_library");
  }
  o.bucket_bytes = r.cluster_step.bucket_bytes;
  o.overlap = r.cluster_step.overlap;
  o.pipeline_stages = r.cluster_step.pipeline_stages;
  o.micro_batches = r.cluster_step.micro_batches;
  o.schedule = r.cluster_step.pipeline_schedule;
  o.split = r.cluster_step.pipeline_split;
  o.servers = r.collective_command.servers;
  return o;
}

Json cluster_step_json(const Request& r, std::vector<std::string>& warnings, ClusterStep* step_out,
                       NetworkPricer* given_pricer) {
  ClusterOptions options = cluster_options(r);
  std::optional<NetworkPricer> own;  // the network costs the same on every cluster size
  NetworkPricer& pricer = given_pricer ? *given_pricer : own.emplace(r.scenario);
  const std::optional<std::int64_t> known =
      r.max_batch_key.empty() ? std::nullopt : remembered_max_batch(r.max_batch_key);
  if (known) options.find_max_batch = false;
  ClusterStep step = cluster_step(r.scenario, options, pricer);
  if (known)
    step.max_batch_per_replica = *known;
  else if (!r.max_batch_key.empty())
    remember_max_batch(r.max_batch_key, step.max_batch_per_replica);
  if (step_out) *step_out = step;
  Json j = step_json(step);
  if (auto w = slow_link_warning(step.cluster, step.chosen.algorithm, step.chosen.sync.comm_ms,
                                 step.forward_ms + step.backward_ms + step.update_ms))
    warnings.push_back(*w);
  for (std::size_t i = 0; i < step.memory.size(); ++i) {
    const std::string where = step.memory.size() > 1 ? "each device of pipeline stage " + std::to_string(i + 1)
                                                     : "each device of the cluster";
    if (auto w = memory_warning(r.scenario.device, step.memory[i], where)) warnings.push_back(*w);
  }
  // The same step on 1, 2, 4, ... nodes of the same kind, for the scaling plot: up to the
  // cluster's nodes, or further when the request asks (a one-node cluster's plot has one point).
  const std::int64_t last_nodes = std::max(r.scenario.cluster.nodes, r.cluster_step.node_scaling_max_nodes);
  Json scaling = Json::array();
  double one_node_step_ms = 0;
  Scenario s = r.scenario;
  ClusterOptions quick = options;
  quick.find_max_batch = false;
  for (std::int64_t nodes = 1;; nodes *= 2) {
    if (nodes > last_nodes) nodes = last_nodes;
    s.cluster.nodes = nodes;
    try {
      const ClusterStep st = cluster_step(s, quick, pricer);
      if (nodes == 1) one_node_step_ms = st.step_ms;
      // Weak scaling from one node: its step over this one (the same batch per device).
      const Json efficiency = one_node_step_ms > 0 && st.step_ms > 0 ? Json(one_node_step_ms / st.step_ms) : Json();
      scaling.push_back({{"nodes", nodes}, {"devices", st.cluster.devices()}, {"step_ms", st.step_ms},
                         {"algorithm", st.chosen.algorithm},
                         {"throughput_samples_per_s", st.throughput_samples_per_s()},
                         {"efficiency_vs_one_node", efficiency}});
    } catch (const Error& e) {
      // Stages that do not divide this many nodes, say: no point, and the answer says why.
      warnings.push_back("node_scaling: no point for " + std::to_string(nodes) + (nodes == 1 ? " node: " : " nodes: ") +
                         e.what());
    }
    if (nodes == last_nodes) break;
  }
  j["node_scaling"] = std::move(scaling);
  return j;
}

Json collective_response(const Request& r) {
  const CollectiveOp op = parse_collective_op(r.collective_command.op);
  const CollectiveAlgorithm algorithm = parse_collective_algorithm(r.collective_command.algorithm);
  const CollectiveSettings settings = collective_settings(r.scenario.device, r.collective_command.servers);
  Json out = {{"ok", true}, {"command", "collective"}, {"op", collective_op_name(op)}, {"bytes", r.collective_command.bytes},
              {"device", r.scenario.device.key}};
  Json all = Json::array();
  if (r.scenario.has_cluster) {
    const Cluster& c = r.scenario.cluster;
    out["cluster"] = cluster_json(c);
    out["workers"] = c.devices();
    out.update(cost_json(cluster_collective(op, algorithm, c, r.collective_command.bytes, settings)));
    std::vector<CollectiveAlgorithm> algorithms = flat_algorithms(op);
    if (op == CollectiveOp::kAllReduce || op == CollectiveOp::kReduceScatter || op == CollectiveOp::kAllGather)
      algorithms.push_back(CollectiveAlgorithm::kHierarchical);
    for (CollectiveAlgorithm a : algorithms) all.push_back(cost_json(cluster_collective(op, a, c, r.collective_command.bytes, settings)));
  } else {
    if (!r.collective_command.has_link) throw Error("needs a link (preset or {latency_us, bandwidth_gb_per_s}) or a cluster", "", "link");
    if (algorithm == CollectiveAlgorithm::kHierarchical) throw Error("'hierarchical' needs a cluster", "", "algorithm");
    const std::int64_t workers = r.simulation.workers.size() == 1 ? r.simulation.workers[0] : 0;
    if (workers < 1) throw Error("must be one worker count", "", "workers");
    out["link"] = link_json(r.collective_command.link);
    out["workers"] = workers;
    out.update(cost_json(collective_cost(op, algorithm, workers, r.collective_command.bytes, r.collective_command.link, settings)));
    for (CollectiveAlgorithm a : flat_algorithms(op))
      all.push_back(cost_json(collective_cost(op, a, workers, r.collective_command.bytes, r.collective_command.link, settings)));
  }
  out["algorithms"] = std::move(all);
  return out;
}

}  // namespace paleo
