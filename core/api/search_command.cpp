#include "core/api/search_command.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/api/cluster_request.h"
#include "core/cluster/cluster_step.h"
#include "core/base/error.h"
#include "core/spec/presets.h"
#include "core/base/request_limits.h"
#include "core/efficiency/software_era.h"
#include "core/validation/expected_error.h"
#include "core/search/strategy_search.h"
#include "core/search/strategy_traffic.h"

namespace paleo {
namespace {

struct SearchOutcome {
  StrategyProblem problem;
  StrategyResult layerwise;
  double data_parallel_ms = 0, model_parallel_ms = 0, one_weird_trick_ms = 0, best_uniform_ms = 0;
  StrategyConfig best_uniform;
  std::vector<int> data_parallel, model_parallel, one_weird_trick;  // their assignments
};

Cluster cluster_of(const Request& r, std::int64_t devices, std::int64_t per_node,
                   std::vector<std::string>* warnings) {
  Cluster c;
  if (r.scenario.has_cluster) {
    c = r.scenario.cluster;
  } else {
    // The links and NICs of the node the device is built into (a P100: NVLink 1 inside, EDR
    // InfiniBand between nodes, as OptCNN's testbed), sized as the search asks.
    c = device_node_cluster(r.scenario.device, "cluster");
  }
  c.devices_per_node = std::min(devices, per_node);
  c.nodes = (devices + c.devices_per_node - 1) / c.devices_per_node;
  if (!r.scenario.has_cluster && warnings) check_request_cluster(Json::object(), c, r.scenario.device, *warnings);
  return c;
}

// The request's "collective": "auto" (the fastest all-reduce) or "parameter_server" (OptCNN's).
GradientExchange gradient_exchange(const Request& r) {
  if (r.cluster_step.collective == "auto") return GradientExchange::kAllReduce;
  if (r.cluster_step.collective == "parameter_server") return GradientExchange::kParameterServer;
  throw Error("the search exchanges gradients with 'auto' (the fastest all-reduce) or 'parameter_server' "
                  "(a server per layer, as OptCNN), got '" + r.cluster_step.collective + "'",
              "", "collective");
}

SearchOutcome search(const Request& r, const Network& net, const Cluster& cluster) {
  const CostModel model = r.scenario.cost_model();
  SearchOutcome o{make_strategy_problem(net, model, r.scenario.cost, cluster,
                                        collective_settings(r.scenario.device, 1, model.message_overhead_ms()),
                                        gradient_exchange(r)),
                  {}, 0, 0, 0, 0, {}, {}, {}, {}};
  const StrategyProblem& p = o.problem;
  // The search minimises Equation 1; with "overlap": true each strategy's step is then priced
  // with its exchanges overlapping the backward pass, as a runtime that overlaps them runs it.
  const bool overlap = r.cluster_step.overlap_given && r.cluster_step.overlap;
  auto step_ms = [&](const std::vector<int>& choice) {
    return overlap ? overlapped_strategy_cost(p, choice) : strategy_cost(p, choice);
  };
  o.layerwise = optimal_strategy(p);
  o.layerwise.cost_ms = step_ms(o.layerwise.choice);
  o.data_parallel = uniform_strategy(p, {p.devices, 1, 1, 1});
  o.model_parallel = uniform_strategy(p, {1, p.devices, 1, 1});
  o.data_parallel_ms = step_ms(o.data_parallel);
  o.model_parallel_ms = step_ms(o.model_parallel);
  o.one_weird_trick = one_weird_trick_strategy(p);
  o.one_weird_trick_ms = step_ms(o.one_weird_trick);
  o.best_uniform_ms = o.data_parallel_ms;
  o.best_uniform = {p.devices, 1, 1, 1};
  std::vector<StrategyConfig> seen;
  for (const auto& configs : p.configs)
    for (const StrategyConfig& c : configs) {
      if (c.degree() != p.devices || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
      seen.push_back(c);
      const double t = step_ms(uniform_strategy(p, c));
      if (t < o.best_uniform_ms) {
        o.best_uniform_ms = t;
        o.best_uniform = c;
      }
    }
  // Overlap can make a uniform strategy faster than Equation 1's optimum; it is a layer-wise
  // strategy too, so the answer is never slower than the best uniform one.
  if (overlap && o.best_uniform_ms < o.layerwise.cost_ms) {
    o.layerwise.choice = uniform_strategy(p, o.best_uniform);
    o.layerwise.cost_ms = o.best_uniform_ms;
  }
  return o;
}

Json config_json(const StrategyConfig& c) { return {{"n", c.n}, {"c", c.c}, {"h", c.h}, {"w", c.w}}; }

}  // namespace

Json search_response(const Request& r, std::vector<std::string>& warnings) {
  if (!r.has_net) throw Error("is required for command 'search'", "", "net");
  const std::int64_t devices = r.search.devices > 0 ? r.search.devices : 16;
  const std::int64_t per_node = r.search.devices_per_node > 0 ? r.search.devices_per_node
                        : r.scenario.has_cluster ? r.scenario.cluster.devices_per_node : 4;
  if (devices > kMaxSearchDevices)
    throw Error("the search handles up to " + std::to_string(kMaxSearchDevices) + " devices", "", "devices");
  // Fewer devices than a node holds is a part of one node (the page's 4 per node with 2 devices);
  // said, since a number far past the devices is more likely a slip than a node of that size.
  if (r.search.devices_per_node > devices)
    warnings.push_back("devices_per_node: " + std::to_string(r.search.devices_per_node) + " is more than the " +
                       std::to_string(devices) + " devices searched; they are priced as " + std::to_string(devices) +
                       " devices of one node");
  const Dim per_device = r.scenario.batch_size;
  const Dim global_batch = checked_multiply(per_device, devices, "batch_size");
  const Network net = network_at_batch(r.scenario, global_batch);
  const Cluster cluster = cluster_of(r, devices, per_node, &warnings);
  const SearchOutcome o = search(r, net, cluster);
  const StrategyProblem& p = o.problem;

  Json layers = Json::array();
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    const auto c = static_cast<std::size_t>(o.layerwise.choice[i]);
    double incoming = 0;
    for (int parent : net.layers[i].parents)
      incoming += transfer_ms(p, parent, p.configs[static_cast<std::size_t>(parent)][static_cast<std::size_t>(
                                  o.layerwise.choice[static_cast<std::size_t>(parent)])],
                              static_cast<int>(i), p.configs[i][c]);
    layers.push_back({{"name", net.layers[i].name}, {"type", net.layers[i].type},
                      {"config", config_json(p.configs[i][c])}, {"devices", p.configs[i][c].degree()},
                      {"t_c_ms", p.compute_ms[i][c]}, {"t_s_ms", p.sync_ms[i][c]}, {"t_x_in_ms", incoming}});
  }
  // The same search on 1, 2, 4, ... devices, for the throughput plot.
  Json scaling = Json::array();
  for (std::int64_t d = 1;; d *= 2) {
    if (d > devices) d = devices;
    std::optional<Network> at;
    std::optional<SearchOutcome> fewer;
    if (d < devices) {
      at.emplace(network_at_batch(r.scenario, checked_multiply(per_device, d, "batch_size")));
      fewer.emplace(search(r, *at, cluster_of(r, d, per_node, nullptr)));
    }
    const SearchOutcome& s = fewer ? *fewer : o;
    const double samples = static_cast<double>(per_device * d);
    scaling.push_back({{"devices", d}, {"layerwise_ms", s.layerwise.cost_ms}, {"data_parallel_ms", s.data_parallel_ms},
                       {"model_parallel_ms", s.model_parallel_ms},
                       {"layerwise_samples_per_s", samples / s.layerwise.cost_ms * 1e3},
                       {"data_parallel_samples_per_s", samples / s.data_parallel_ms * 1e3},
                       {"model_parallel_samples_per_s", samples / s.model_parallel_ms * 1e3}});
    if (d == devices) break;
  }
  Json out = {{"ok", true}, {"command", "search"}, {"net", {{"name", r.scenario.spec.name}}},
          {"device", r.scenario.device.name}, {"profile", r.scenario.profile->name},
          {"devices", devices}, {"devices_per_node", std::min(devices, per_node)},
          {"overlap", r.cluster_step.overlap_given && r.cluster_step.overlap},
          {"batch_per_device", per_device}, {"global_batch", global_batch},
          {"step_ms", o.layerwise.cost_ms}, {"data_parallel_step_ms", o.data_parallel_ms},
          {"model_parallel_step_ms", o.model_parallel_ms}, {"one_weird_trick_step_ms", o.one_weird_trick_ms},
          {"traffic_bytes", strategy_traffic_bytes(p, o.layerwise.choice)},
          {"data_parallel_traffic_bytes", strategy_traffic_bytes(p, o.data_parallel)},
          {"model_parallel_traffic_bytes", strategy_traffic_bytes(p, o.model_parallel)},
          {"one_weird_trick_traffic_bytes", strategy_traffic_bytes(p, o.one_weird_trick)},
          {"best_uniform", {{"config", config_json(o.best_uniform)}, {"step_ms", o.best_uniform_ms}}},
          {"speedup_over_data_parallel", o.data_parallel_ms / o.layerwise.cost_ms},
          {"speedup_over_best_uniform", o.best_uniform_ms / o.layerwise.cost_ms},
          {"reduced", o.layerwise.reduced}, {"remaining_nodes", o.layerwise.remaining_nodes},
          {"node_eliminations", o.layerwise.node_eliminations}, {"edge_eliminations", o.layerwise.edge_eliminations},
          {"message", o.layerwise.message}, {"layers", layers}, {"scaling", scaling}};
  // The software era pricing each layer (what `calibrate` fits when a measurement is a search).
  // The links priced, and which of them the request left to the device's node preset.
  out["cluster"] = {{"intra", cluster.intra.key}, {"inter", cluster.inter.key}, {"nics_per_node", cluster.nics_per_node},
                    {"assumed", cluster.assumed},
                    {"assumed_from", cluster.assumed_from.empty() ? Json() : Json(cluster.assumed_from)}};
  if (r.scenario.era) out["software_era"] = software_era_json(*r.scenario.era);
  // How far such predictions land from published measurements (OptCNN's Figure 7).
  out["expected_error"] = expected_error_json("cnn_layer_wise");
  return out;
}

}  // namespace paleo
