#include "core/api_request.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/api/cnn_request.h"
#include "core/checked_math.h"
#include "core/collectives.h"
#include "core/error.h"
#include "core/import/net_import.h"
#include "core/network_batch.h"
#include "core/preset_networks.h"
#include "core/presets.h"
#include "core/request_limits.h"
#include "core/transformer/transformer_net.h"
#include "core/utf8.h"

namespace paleo {
namespace {


const std::vector<std::string>& request_fields() {
  static const std::vector<std::string> fields = {
      "command", "profile", "net", "device", "network", "software", "ppp_comp", "ppp_comm",
      "batch_size", "conv_algorithm", "workspace_limit_bytes", "fetch_bandwidth_gb_per_s",
      "use_pipeline", "parallel", "workers", "scaling", "hybrid_workers", "cluster", "nodes",
      "devices_per_node", "collective", "bucket_bytes", "optimizer", "pipeline", "roofline", "input_gradient", "op",
      "algorithm", "bytes", "link", "servers", "devices", "overlap"};
  return fields;
}

bool known_field(const std::string& key) {
  const auto& base = request_fields();
  const auto& transformer = transformer_request_fields();
  return std::find(base.begin(), base.end(), key) != base.end() ||
         std::find(transformer.begin(), transformer.end(), key) != transformer.end();
}

Dim read_size(const Json& v, const std::string& field, Dim max) {
  Dim n = read_dim(v, field, "");
  if (n < 1 || n > max) throw Error("must be an integer from 1 to " + std::to_string(max) + ", got " + echo(v), "", field);
  return n;
}

std::int64_t read_count(const Json& v, const std::string& field, std::int64_t max) { return read_size(v, field, max); }

// A list of the request no longer than its cap (core/request_limits.h), checked before it is read.
const Json& read_list(const Json& v, const std::string& field, std::size_t max_length, const std::string& what) {
  if (!v.is_array() || v.empty()) throw Error("must be a non-empty list of " + what, "", field);
  if (v.size() > max_length)
    throw Error("lists " + std::to_string(v.size()) + " entries; the limit is " + std::to_string(max_length) +
                    " (docs/api.md)", "", field);
  return v;
}

double read_ppp(const Json& request, const std::string& field) {
  double v = read_number(request, field, "");
  if (!(v > 0 && v <= 1)) throw Error("must be in (0, 1], got " + echo(request[field]), "", field);
  return v;
}

double read_positive(const Json& request, const std::string& field) {
  double v = read_number(request, field, "");
  if (!(v > 0)) throw Error("must be positive, got " + echo(request[field]), "", field);
  return v;
}

bool read_bool(const Json& request, const std::string& field) {
  const Json& v = request[field];
  if (!v.is_boolean()) throw Error("must be true or false, got " + echo(v), "", field);
  return v.get<bool>();
}

std::string read_key(const Json& request, const std::string& field) {
  return read_string(request, field, "");
}

void read_hardware(const Json& request, Scenario& s, bool transformer) {
  const Presets& presets = Presets::instance();
  // A 2016 CNN defaults to the original's TITAN X; a transformer to a current GPU.
  s.device = presets.device(transformer ? "H100_SXM" : "TITAN_X");
  if (request.contains("device"))
    s.device = request["device"].is_string() ? presets.device(request["device"].get<std::string>())
                                             : device_from_json(request["device"], "device");
  s.interconnect = presets.interconnect("ethernet");
  if (request.contains("network"))
    s.interconnect = request["network"].is_string()
                         ? presets.interconnect(request["network"].get<std::string>())
                         : interconnect_from_json(request["network"], "network");
  if (request.contains("software")) {
    Software sw = presets.software(read_key(request, "software"));
    s.ppp_comp = sw.ppp_comp;
    s.ppp_comm = sw.ppp_comm;
  }
  if (request.contains("ppp_comp")) s.ppp_comp = read_ppp(request, "ppp_comp");
  if (request.contains("ppp_comm")) s.ppp_comm = read_ppp(request, "ppp_comm");
}

// Without a "cluster", the node counts of a transformer request take the cluster preset built of
// the chosen device (or, for a device no preset is built of, PCIe 4 nodes over 100 Gb/s Ethernet).
Json default_cluster(const Device& device) {
  for (const Json& c : Presets::instance().clusters())
    if (c.value("device", "") == device.key) return c.value("key", "");
  return Json{{"intra", "pcie4_x16"}, {"inter", "ethernet_100g"}};
}

void read_cluster(const Json& request, Request& r) {
  Scenario& s = r.scenario;
  std::string device_key;
  const Json cluster = request.contains("cluster") ? request["cluster"] : default_cluster(s.device);
  s.cluster = cluster_from_json(cluster, "cluster", &device_key);
  if (request.contains("nodes")) s.cluster.nodes = read_count(request["nodes"], "nodes", kMaxDevices);
  if (request.contains("devices_per_node"))
    s.cluster.devices_per_node = read_count(request["devices_per_node"], "devices_per_node", kMaxDevices);
  if (r.is_transformer && !request.contains("devices") && !request.contains("nodes") && !request.contains("cluster")) {
    // Neither nodes nor devices: as many devices as the layout names, filling nodes in turn.
    const std::int64_t devices = layout_devices(request);
    if (devices < s.cluster.devices_per_node || devices % s.cluster.devices_per_node != 0) s.cluster.devices_per_node = devices;
    s.cluster.nodes = devices / s.cluster.devices_per_node;
  }
  if (r.is_transformer && request.contains("devices") && !request.contains("nodes")) {
    // A device count instead of nodes: whole nodes of the cluster's size.
    const std::int64_t devices = read_count(request["devices"], "devices", kMaxDevices);
    if (devices % s.cluster.devices_per_node != 0 && devices > s.cluster.devices_per_node)
      throw Error(std::to_string(devices) + " devices do not fill whole nodes of " +
                      std::to_string(s.cluster.devices_per_node), "", "devices");
    if (devices < s.cluster.devices_per_node) s.cluster.devices_per_node = devices;
    s.cluster.nodes = devices / s.cluster.devices_per_node;
  }
  // The product checked before it is formed (nodes x devices_per_node wrapped in 32 bits once).
  checked_multiply(s.cluster.nodes, s.cluster.devices_per_node, request.contains("nodes") ? "nodes" : "cluster",
                   kMaxDevices);
  if (!device_key.empty() && !request.contains("device")) s.device = Presets::instance().device(device_key);
  s.has_cluster = true;
}

void read_pipeline(const Json& request, Request& r) {
  const Json& p = request["pipeline"];
  if (!p.is_object()) throw Error("must be an object {stages, micro_batches, schedule, split}", "", "pipeline");
  for (auto it = p.begin(); it != p.end(); ++it)
    if (it.key() != "stages" && it.key() != "micro_batches" && it.key() != "schedule" && it.key() != "split")
      throw Error("unknown field '" + it.key() + "'", "", "pipeline");
  if (p.contains("stages")) r.pipeline_stages = read_count(p["stages"], "pipeline.stages", kMaxPipelineStages);
  if (p.contains("micro_batches"))
    r.micro_batches = read_count(p["micro_batches"], "pipeline.micro_batches", kMaxMicroBatches);
  if (p.contains("schedule")) {
    r.pipeline_schedule = read_string(p, "schedule", "");
    if (r.pipeline_schedule != "gpipe" && r.pipeline_schedule != "1f1b")
      throw Error("must be \"gpipe\" or \"1f1b\"", "", "pipeline.schedule");
  }
  if (p.contains("split")) {
    const Json& split = read_list(p["split"], "pipeline.split", static_cast<std::size_t>(kMaxPipelineStages),
                                  "layer counts per stage");
    for (const Json& n : split) r.pipeline_split.push_back(read_count(n, "pipeline.split", static_cast<Dim>(kMaxLayers)));
    if (static_cast<std::int64_t>(r.pipeline_split.size()) != r.pipeline_stages)
      throw Error("needs one layer count per stage", "", "pipeline.split");
  }
}

void read_collective_command(const Json& request, Request& r) {
  if (request.contains("op")) r.op = read_key(request, "op");
  if (request.contains("algorithm")) r.algorithm = read_key(request, "algorithm");
  if (request.contains("bytes")) {
    r.bytes = read_number(request, "bytes", "");
    if (r.bytes < 0 || r.bytes > 1e18) throw Error("must be from 0 to 1e18", "", "bytes");
  }
  if (request.contains("link")) {
    r.link = link_from_json(request["link"], "link");
    r.has_link = true;
  }
  if (request.contains("servers")) r.servers = read_count(request["servers"], "servers", kMaxDevices);
}

void read_net(const Json& request, Scenario& s, std::vector<std::string>& warnings) {
  const Json& net = request["net"];
  if (net.is_string()) {
    // A preset: read once per process, re-batched here (which checks the batch as building does).
    const PresetNetwork& preset = preset_network(net.get<std::string>(), *s.profile);
    s.spec = preset.spec;
    s.graph = preset.graph;
    s.batch_size = preset.network.batch_size;
    if (request.contains("batch_size")) s.batch_size = read_size(request["batch_size"], "batch_size", kMaxBatch);
    Network at_batch = preset.network;
    rebatch(at_batch, s.spec, s.graph, s.batch_size, *s.profile);
    s.keep_network(std::move(at_batch));
    return;
  }
  if (!net.is_object()) throw Error("must be a preset name or a network spec object", "", "net");
  // A net in another format (Caffe prototxt ...) is converted to a spec first (core/import/).
  s.spec = is_imported_net(net) ? expand_net_spec(std::make_shared<const Json>(imported_net_spec(net, "net", s.profile->name == "paleo2017", warnings)))
                                : expand_net_spec(net);
  s.graph = build_layer_graph(s.spec);
  s.batch_size = spec_batch_size(s.spec);
  if (request.contains("batch_size")) s.batch_size = read_size(request["batch_size"], "batch_size", kMaxBatch);
  // Instantiate once here so that every spec error surfaces whatever the command; pricing starts
  // from this network.
  s.keep_network(build_network(s.spec, s.graph, s.batch_size, *s.profile));
}

}  // namespace

Request parse_request(const Json& request) {
  if (!request.is_object()) throw Error("a request must be a JSON object", "", "");
  for (auto it = request.begin(); it != request.end(); ++it)
    if (!known_field(it.key())) throw Error("unknown request field (see docs/api.md)", "", it.key());
  Request r;
  r.command = read_key(request, "command");
  Scenario& s = r.scenario;
  if (request.contains("profile")) s.profile = &find_profile(read_key(request, "profile"));
  r.is_transformer = request.contains("net") && is_transformer_net(request["net"]);
  read_hardware(request, s, r.is_transformer);
  if (request.contains("conv_algorithm")) s.cost.algorithm = parse_conv_algorithm(read_key(request, "conv_algorithm"));
  // The original's CPU path always lowers convolutions to GEMM; a request that chose another
  // algorithm is told so.
  if (!s.device.is_gpu) {
    const ConvAlgorithm chosen = s.cost.algorithm;
    s.cost.algorithm = ConvAlgorithm::kGemm;
    if (chosen != ConvAlgorithm::kGemm && chosen != ConvAlgorithm::kAuto)
      r.warnings.push_back("conv_algorithm '" + read_key(request, "conv_algorithm") + "' does not apply to the CPU device '" +
                           shortened_utf8(s.device.name, kMaxEchoedNameBytes) +
                           "': its convolutions are priced as gemm (the original's CPU path)");
  }
  if (request.contains("workspace_limit_bytes"))
    s.cost.workspace_limit_bytes = read_positive(request, "workspace_limit_bytes");
  if (request.contains("fetch_bandwidth_gb_per_s"))
    s.cost.fetch_bandwidth_gb_per_s = read_positive(request, "fetch_bandwidth_gb_per_s");
  if (request.contains("use_pipeline")) s.use_pipeline = read_bool(request, "use_pipeline");
  if (request.contains("parallel")) {
    r.parallel = read_key(request, "parallel");
    if (r.parallel != "data" && r.parallel != "model" && r.parallel != "hybrid")
      throw Error("must be \"data\", \"model\" or \"hybrid\", got \"" + r.parallel + "\"", "", "parallel");
  }
  if (request.contains("workers")) {
    const Json& w = request["workers"];
    r.workers.clear();
    if (w.is_number()) {
      r.workers.push_back(read_count(w, "workers", kMaxDevices));
    } else {
      for (const Json& n : read_list(w, "workers", kMaxWorkersListLength, "worker counts"))
        r.workers.push_back(read_count(n, "workers", kMaxDevices));
    }
    r.workers_given = true;
  }
  if (request.contains("scaling")) {
    const Json& sc = request["scaling"];
    std::vector<std::string> list;
    if (sc.is_string()) {
      list.push_back(sc.get<std::string>());
    } else {
      read_list(sc, "scaling", kMaxScalingListLength, "scalings (weak and/or strong)");
      list = read_strings(request, "scaling", "");
    }
    for (const std::string& x : list)
      if (x != "weak" && x != "strong") throw Error("unknown scaling '" + x + "' (known: weak, strong)", "", "scaling");
    if (list.size() == 2 && list[0] == list[1]) throw Error("names '" + list[0] + "' twice", "", "scaling");
    r.scalings = list;
  }
  if (request.contains("hybrid_workers"))
    r.hybrid_workers = read_count(request["hybrid_workers"], "hybrid_workers", kMaxDevices);
  if (request.contains("cluster") ||
      (r.is_transformer && layout_devices(request) > 1) ||
      (r.is_transformer && (request.contains("nodes") || request.contains("devices_per_node") || request.contains("devices"))))
    read_cluster(request, r);
  if (request.contains("collective")) {
    r.collective = read_key(request, "collective");
    try {
      parse_collective_algorithm(r.collective);  // validate early, naming this field
    } catch (const Error& e) {
      throw Error(e.detail(), "", "collective");
    }
  }
  if (request.contains("bucket_bytes")) {
    r.bucket_bytes = read_number(request, "bucket_bytes", "");
    if (r.bucket_bytes < 0) throw Error("must not be negative", "", "bucket_bytes");
  }
  if (request.contains("optimizer")) {
    r.optimizer = read_key(request, "optimizer");
    if (r.optimizer != "sgd" && r.optimizer != "momentum" && r.optimizer != "adam")
      throw Error("must be \"sgd\", \"momentum\" or \"adam\"", "", "optimizer");
    s.cost.optimizer = r.optimizer == "adam" ? Optimizer::kAdam
                       : r.optimizer == "momentum" ? Optimizer::kMomentum : Optimizer::kSgd;
  }
  if (request.contains("pipeline")) read_pipeline(request, r);
  if (request.contains("overlap")) r.overlap = read_bool(request, "overlap");
  if (request.contains("roofline")) s.cost.roofline = read_bool(request, "roofline");
  if (request.contains("input_gradient")) s.cost.input_gradient = read_bool(request, "input_gradient");
  if (r.command == "collective") read_collective_command(request, r);
  if (request.contains("devices")) r.devices = read_count(request["devices"], "devices", kMaxDevices);
  if (request.contains("devices_per_node") && !r.scenario.has_cluster)
    r.devices_per_node = read_count(request["devices_per_node"], "devices_per_node", kMaxDevices);
  if (r.is_transformer) {
    // Fields of the CNN model would be silently ignored: say so instead.
    static const char* const kCnnOnly[] = {
        "profile", "network", "software", "ppp_comp", "ppp_comm", "conv_algorithm", "workspace_limit_bytes",
        "fetch_bandwidth_gb_per_s", "use_pipeline", "parallel", "workers", "scaling", "hybrid_workers", "collective",
        "bucket_bytes", "pipeline", "roofline", "input_gradient", "op", "algorithm", "bytes", "link", "servers"};
    for (const char* field : kCnnOnly)
      if (request.contains(field))
        throw Error("applies to CNN specs only; a transformer takes the fields of docs/transformer.md", "", field);
    if (request.contains("batch_size") && r.command != "inference")
      throw Error("a transformer's batch is global_batch (sequences per step) and micro_batch", "", "batch_size");
    r.transformer =
        parse_transformer_request(request, r.scenario.device, r.scenario.has_cluster ? r.scenario.cluster.devices() : 1);
    r.has_net = true;
    return r;
  }
  for (const std::string& field : transformer_request_fields())
    if (request.contains(field) && field != "precision" && field != "software_era" && field != "efficiency")
      throw Error("applies to transformer nets only (docs/transformer.md)", "", field);
  read_cnn_kernel_model(request, s);
  if (request.contains("net")) {
    read_net(request, s, r.warnings);
    r.has_net = true;
  }
  return r;
}

}  // namespace paleo
