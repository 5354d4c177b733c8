#include "core/api/request.h"

#include "core/api/answer_sections.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/api/cluster_request.h"
#include "core/api/cnn_request.h"
#include "core/api/command_registry.h"
#include "core/precision/device_peak.h"
#include "core/base/checked_math.h"
#include "core/cluster/collectives.h"
#include "core/base/error.h"
#include "core/import/net_import.h"
#include "core/spec/network_batch.h"
#include "core/spec/preset_networks.h"
#include "core/spec/presets.h"
#include "core/api/training_scheme_section.h"
#include "core/base/request_limits.h"
#include "core/transformer/transformer_net.h"
#include "core/base/utf8.h"

namespace paleo {
namespace {


Dim read_size(const Json& v, const std::string& field, Dim max) {
  Dim n = read_dim(v, field, "");
  if (n < 1 || n > max) throw Error("must be an integer from 1 to " + std::to_string(max) + ", got " + echo(v), "", field);
  return n;
}

std::int64_t read_count(const Json& v, const std::string& field, std::int64_t max) { return read_size(v, field, max); }

// A list of the request no longer than its cap (core/base/request_limits.h), checked before it is read.
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
  // A fraction of peak far below any platform's makes times that overflow a double further on
  // (ppp_comp 1e-300 with a time to train), where no field could be named.
  if (v < kMinPpp)
    throw Error("is " + echo(request[field]) + "; the smallest fraction of peak taken is " + echo(Json(kMinPpp)) +
                    " (docs/api.md, Limits)", "", field);
  return v;
}

double read_positive(const Json& request, const std::string& field) {
  double v = read_number(request, field, "");
  if (!(v > 0)) throw Error("must be positive, got " + echo(request[field]), "", field);
  return v;
}

std::string read_key(const Json& request, const std::string& field) {
  return read_string(request, field, "");
}

void read_cluster(const Json& request, Request& r) {
  Scenario& s = r.scenario;
  std::string device_key;
  // Without a "cluster" (or without some of its links), the device's node preset (docs/cluster.md).
  s.cluster = read_request_cluster(request, s.device, &device_key);
  if (request.contains("nodes")) s.cluster.nodes = read_count(request["nodes"], "nodes", kMaxDevices);
  if (request.contains("devices_per_node"))
    s.cluster.devices_per_node = read_count(request["devices_per_node"], "devices_per_node", kMaxDevices);
  // A named preset keeps its node count; an object that states none takes the layout's.
  const bool cluster_counts_nodes =
      request.contains("cluster") && (request["cluster"].is_string() || request["cluster"].contains("nodes"));
  if (r.is_transformer && !request.contains("devices") && !request.contains("nodes") && !cluster_counts_nodes) {
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
  if (!device_key.empty() && request.contains("device") && s.device.key != device_key)
    r.warnings.push_back("the cluster '" + shortened_utf8(s.cluster.name, kMaxEchoedNameBytes) + "' is built of " +
                         device_key + "; priced with the requested device '" +
                         shortened_utf8(s.device.name, kMaxEchoedNameBytes) + "' instead");
  check_request_cluster(request, s.cluster, s.device, r.warnings);
  s.has_cluster = true;
}

void read_pipeline(const Json& request, Request& r) {
  const Json& p = request["pipeline"];
  if (!p.is_object()) throw Error("must be an object {stages, micro_batches, schedule, split}", "", "pipeline");
  for (auto it = p.begin(); it != p.end(); ++it)
    if (it.key() != "stages" && it.key() != "micro_batches" && it.key() != "schedule" && it.key() != "split")
      throw Error("unknown field '" + it.key() + "'", "", "pipeline");
  if (p.contains("stages")) r.cluster_step.pipeline_stages = read_count(p["stages"], "pipeline.stages", kMaxPipelineStages);
  if (p.contains("micro_batches"))
    r.cluster_step.micro_batches = read_count(p["micro_batches"], "pipeline.micro_batches", kMaxMicroBatches);
  if (p.contains("schedule")) {
    r.cluster_step.pipeline_schedule = read_string(p, "schedule", "");
    // The transformer's "schedule" and the pipeline's take the same values.
    if (!is_allowed("schedule", r.cluster_step.pipeline_schedule))
      throw Error("must be " + allowed_alternatives("schedule"), "", "pipeline.schedule");
  }
  if (p.contains("split")) {
    const Json& split = read_list(p["split"], "pipeline.split", static_cast<std::size_t>(kMaxPipelineStages),
                                  "layer counts per stage");
    for (const Json& n : split) r.cluster_step.pipeline_split.push_back(read_count(n, "pipeline.split", static_cast<Dim>(kMaxLayers)));
    if (static_cast<std::int64_t>(r.cluster_step.pipeline_split.size()) != r.cluster_step.pipeline_stages)
      throw Error("needs one layer count per stage", "", "pipeline.split");
  }
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
  s.spec = is_imported_net(net) ? expand_net_spec(std::make_shared<const Json>(imported_net_spec(
                                      net, "net", s.profile->name == "paleo2017", warnings)))
                                : expand_net_spec(net);
  s.graph = build_layer_graph(s.spec);
  s.batch_size = spec_batch_size(s.spec);
  if (request.contains("batch_size")) s.batch_size = read_size(request["batch_size"], "batch_size", kMaxBatch);
  // Instantiate once here so that every spec error surfaces whatever the command; pricing starts
  // from this network.
  s.keep_network(build_network(s.spec, s.graph, s.batch_size, *s.profile));
}

// ---- One reader per request field ---------------------------------------------------------------

void read_profile(const Json& q, Request& r) { r.scenario.profile = &find_profile(read_key(q, "profile")); }

void read_device(const Json& q, Request& r) {
  const Json& v = q["device"];
  r.scenario.device = v.is_string() ? Presets::instance().device(v.get<std::string>()) : device_from_json(v, "device");
}

// "interconnect", or its name before API 0.2, "network" (docs/api.md, "Changes").
void read_interconnect(const Json& q, Request& r) {
  const char* field = q.contains("interconnect") ? "interconnect" : "network";
  if (q.contains("interconnect") && q.contains("network"))
    throw Error("\"network\" is the old name of \"interconnect\": give one of them", "", "network");
  const Json& v = q[field];
  r.scenario.interconnect =
      v.is_string() ? Presets::instance().interconnect(v.get<std::string>(), field) : interconnect_from_json(v, field);
}

void read_software(const Json& q, Request& r) {
  const Software sw = Presets::instance().software(read_key(q, "software"));
  r.scenario.ppp_comp = sw.ppp_comp;
  r.scenario.ppp_comm = sw.ppp_comm;
}

// A request has a cluster when it names one or counts nodes (the search sizes its own); a
// transformer also when its layout or counts need devices.
bool has_cluster_section(const Json& q, const Request& r) {
  if (q.contains("cluster")) return true;
  if (r.command != "search" && (q.contains("nodes") || q.contains("devices_per_node"))) return true;
  return r.is_transformer &&
         (layout_devices(q) > 1 || q.contains("nodes") || q.contains("devices_per_node") || q.contains("devices"));
}

// The cluster and its counts, and the device counts of the `search` command.
void read_cluster_and_counts(const Json& q, Request& r) {
  if (has_cluster_section(q, r)) read_cluster(q, r);
  if (q.contains("devices")) r.search.devices = read_count(q["devices"], "devices", kMaxDevices);
  if (q.contains("devices_per_node") && !r.scenario.has_cluster)
    r.search.devices_per_node = read_count(q["devices_per_node"], "devices_per_node", kMaxDevices);
}

void read_conv_algorithm(const Json& q, Request& r) {
  Scenario& s = r.scenario;
  if (q.contains("conv_algorithm")) s.cost.algorithm = parse_conv_algorithm(read_key(q, "conv_algorithm"));
  // The original's CPU path always lowers convolutions to GEMM; a request that chose another
  // algorithm is told so.
  if (s.device.is_gpu) return;
  const ConvAlgorithm chosen = s.cost.algorithm;
  s.cost.algorithm = ConvAlgorithm::kGemm;
  if (chosen != ConvAlgorithm::kGemm && chosen != ConvAlgorithm::kAuto)
    r.warnings.push_back("conv_algorithm '" + read_key(q, "conv_algorithm") + "' does not apply to the CPU device '" +
                         shortened_utf8(s.device.name, kMaxEchoedNameBytes) +
                         "': its convolutions are priced as gemm (the original's CPU path)");
}

void read_parallel(const Json& q, Request& r) {
  r.simulation.parallel = read_key(q, "parallel");
  if (!is_allowed("parallel", r.simulation.parallel))
    throw Error("must be " + allowed_alternatives("parallel") + ", got \"" + r.simulation.parallel + "\"", "", "parallel");
}

void read_workers(const Json& q, Request& r) {
  const Json& w = q["workers"];
  r.simulation.workers.clear();
  if (w.is_number()) {
    r.simulation.workers.push_back(read_count(w, "workers", kMaxDevices));
  } else {
    for (const Json& n : read_list(w, "workers", kMaxWorkersListLength, "worker counts"))
      r.simulation.workers.push_back(read_count(n, "workers", kMaxDevices));
  }
  r.simulation.workers_given = true;
}

void read_scaling(const Json& q, Request& r) {
  const Json& sc = q["scaling"];
  std::vector<std::string> list;
  if (sc.is_string()) {
    list.push_back(sc.get<std::string>());
  } else {
    read_list(sc, "scaling", kMaxScalingListLength, "scalings (weak and/or strong)");
    list = read_strings(q, "scaling", "");
  }
  for (const std::string& x : list)
    if (!is_allowed("scaling", x)) throw Error("unknown scaling '" + x + "' (known: weak, strong)", "", "scaling");
  if (list.size() == 2 && list[0] == list[1]) throw Error("names '" + list[0] + "' twice", "", "scaling");
  r.simulation.scalings = list;
}

void read_collective(const Json& q, Request& r) {
  r.cluster_step.collective = read_key(q, "collective");
  try {
    parse_collective_algorithm(r.cluster_step.collective);  // validate early, naming this field
  } catch (const Error& e) {
    throw Error(e.detail(), "", "collective");
  }
}

void read_collective_library(const Json& q, Request& r) {
  r.cluster_step.collective_library = read_key(q, "collective_library");
  (void)parse_collective_library(r.cluster_step.collective_library, "collective_library");  // validate early
}

void read_bucket_bytes(const Json& q, Request& r) {
  r.cluster_step.bucket_bytes = read_number(q, "bucket_bytes", "");
  if (r.cluster_step.bucket_bytes < 0) throw Error("must not be negative", "", "bucket_bytes");
}

void read_memory_format(const Json& q, Request& r) {
  const std::string format = read_key(q, "memory_format");
  if (!is_allowed("memory_format", format)) throw Error("must be " + allowed_alternatives("memory_format"), "", "memory_format");
  r.scenario.cost.nchw_tensors = format == "nchw";
}

void read_timing(const Json& q, Request& r) {
  const std::string timing = read_key(q, "timing");
  if (!is_allowed("timing", timing)) throw Error("must be " + allowed_alternatives("timing"), "", "timing");
  r.scenario.cost.kernel_timing = timing == "kernel";
}

void read_optimizer(const Json& q, Request& r) {
  r.cluster_step.optimizer = read_key(q, "optimizer");
  if (!is_allowed("optimizer", r.cluster_step.optimizer))
    throw Error("must be " + allowed_alternatives("optimizer"), "", "optimizer");
  r.scenario.cost.optimizer = r.cluster_step.optimizer == "adam"       ? Optimizer::kAdam
                              : r.cluster_step.optimizer == "momentum" ? Optimizer::kMomentum
                                                          : Optimizer::kSgd;
}

void read_bytes(const Json& q, Request& r) {
  r.collective_command.bytes = read_number(q, "bytes", "");
  if (r.collective_command.bytes < 0 || r.collective_command.bytes > 1e18) throw Error("must be from 0 to 1e18", "", "bytes");
}

void read_link(const Json& q, Request& r) {
  r.collective_command.link = link_from_json(q["link"], "link");
  r.collective_command.has_link = true;
}

// ---- The table ----------------------------------------------------------------------------------

// Each field's reader; what a field is and which nets and commands take it is its row of the
// registry (core/api/command_registry.h).
struct RequestField {
  const char* name;
  // Reads the field when the request has it; nullptr: read with the row that names it in `group`.
  void (*read)(const Json& request, Request& r);
  // Called whether or not the request has the field: the rows it reads as a group.
  void (*group)(const Json& request, Request& r) = nullptr;
};

// In reading order: a reader may use what the rows above it set (the cluster's device before the
// convolution algorithm's CPU check). Transformer fields are core/api/transformer_request.h's.
const RequestField kRequestFields[] = {
    {"command", nullptr},  // read first
    {"profile", read_profile},
    {"device", read_device},
    {"interconnect", read_interconnect},
    {"network", read_interconnect},
    {"software", read_software},
    {"ppp_comp", [](const Json& q, Request& r) { r.scenario.ppp_comp = read_ppp(q, "ppp_comp"); }},
    {"ppp_comm", [](const Json& q, Request& r) { r.scenario.ppp_comm = read_ppp(q, "ppp_comm"); }},
    {"cluster", nullptr, read_cluster_and_counts},
    {"nodes", nullptr},             // with "cluster"
    {"devices_per_node", nullptr},  // with "cluster"
    {"devices", nullptr},           // with "cluster"
    {"conv_algorithm", nullptr, read_conv_algorithm},
    {"workspace_limit_bytes",
     [](const Json& q, Request& r) {
       r.scenario.cost.workspace_limit_bytes = read_positive(q, "workspace_limit_bytes");
     }},
    {"fetch_bandwidth_gb_per_s",
     [](const Json& q, Request& r) {
       r.scenario.cost.fetch_bandwidth_gb_per_s = read_positive(q, "fetch_bandwidth_gb_per_s");
     }},
    {"use_pipeline", [](const Json& q, Request& r) { r.scenario.use_pipeline = read_bool(q, "use_pipeline", ""); }},
    {"parallel", read_parallel},
    {"workers", read_workers},
    {"scaling", read_scaling},
    {"hybrid_workers",
     [](const Json& q, Request& r) {
       r.simulation.hybrid_workers = read_count(q["hybrid_workers"], "hybrid_workers", kMaxDevices);
     }},
    {"collective", read_collective},
    {"bucket_bytes", read_bucket_bytes},
    {"sections", [](const Json& q, Request& r) { read_sections(q["sections"], "sections", r.sections); }},
    {"omit_sections",
     [](const Json& q, Request& r) { read_sections(q["omit_sections"], "omit_sections", r.sections); }},
    {"node_scaling_max_nodes",
     [](const Json& q, Request& r) {
       r.cluster_step.node_scaling_max_nodes =
           read_count(q["node_scaling_max_nodes"], "node_scaling_max_nodes", kMaxDevices);
     }},
    {"collective_library", read_collective_library},
    {"optimizer", read_optimizer},
    {"pipeline", read_pipeline},
    {"overlap",
     [](const Json& q, Request& r) {
       r.cluster_step.overlap = read_bool(q, "overlap", "");
       r.cluster_step.overlap_given = true;
     }},
    {"roofline", [](const Json& q, Request& r) { r.scenario.cost.roofline = read_bool(q, "roofline", ""); }},
    {"training_scheme",
     [](const Json& q, Request& r) {
       r.scheme.training_scheme = read_training_scheme(q["training_scheme"]);
       r.scheme.has_training_scheme = true;
     }},
    {"work_depth", [](const Json& q, Request& r) { r.layers.work_depth = read_bool(q, "work_depth", ""); }},
    {"scheme_comparison",
     [](const Json& q, Request& r) { r.scheme.comparison = read_bool(q, "scheme_comparison", ""); }},
    {"input_gradient",
     [](const Json& q, Request& r) { r.scenario.cost.input_gradient = read_bool(q, "input_gradient", ""); }},
    {"memory_format", read_memory_format},
    {"timing", read_timing},
    {"cuda_graph_step",
     [](const Json& q, Request& r) { r.scenario.cost.cuda_graph_step = read_bool(q, "cuda_graph_step", ""); }},
    {"fused_batchnorm_activation",
     [](const Json& q, Request& r) {
       r.scenario.cost.fused_batchnorm_activation = read_bool(q, "fused_batchnorm_activation", "");
     }},
    // Time and cost to train.
    {"dataset_samples",
     [](const Json& q, Request& r) {
       r.train.dataset_samples = read_count(q["dataset_samples"], "dataset_samples", kMaxDatasetSamples);
     }},
    {"epochs", [](const Json& q, Request& r) { r.train.epochs = read_count(q["epochs"], "epochs", kMaxEpochs); }},
    {"price_per_gpu_hour", [](const Json& q, Request& r) { r.train.price = read_price_per_gpu_hour(q); }},
    // The `collective` command.
    {"op", [](const Json& q, Request& r) { r.collective_command.op = read_key(q, "op"); }},
    {"algorithm", [](const Json& q, Request& r) { r.collective_command.algorithm = read_key(q, "algorithm"); }},
    {"bytes", read_bytes},
    {"link", read_link},
    {"servers", [](const Json& q,
                   Request& r) { r.collective_command.servers = read_count(q["servers"], "servers", kMaxDevices); }},
    {"net", nullptr},         // last: it needs the profile, device and era
    {"batch_size", nullptr},  // with "net"
};

// Every field known, and of the kind of net the request has (the registry's `nets`).
void check_fields(const Json& request, bool is_transformer) {
  for (auto it = request.begin(); it != request.end(); ++it) {
    const std::string& key = it.key();
    const FieldSpec* f = find_field_spec(key);
    if (!f || f->nets == FieldNets::kOwn) throw Error("unknown request field (see docs/api.md)", "", key);
    if (is_transformer && f->nets == FieldNets::kCnn)
      throw Error("applies to CNN specs only; a transformer takes the fields of docs/transformer.md", "", key);
    if (!is_transformer && f->nets == FieldNets::kTransformer)
      throw Error("applies to transformer nets only (docs/transformer.md)", "", key);
  }
}

// A request's field that its command does not use, or that has no effect without another: a
// warning naming it, rather than an answer that silently leaves it out. A transformer request is
// warned of its own fields only (FieldSpec::only_command).
void warn_unused_fields(const Json& request, Request& r) {
  for (const FieldSpec& f : field_specs()) {
    if (!request.contains(f.name)) continue;
    if (r.is_transformer && f.nets != FieldNets::kTransformer) continue;
    if (!f.only_command.empty() && r.command != f.only_command)
      r.warnings.push_back("unused: '" + f.name + "' applies to the '" + f.only_command + "' command only; '" +
                           shortened_utf8(r.command, kMaxEchoedNameBytes) + "' ignores it");
    else if (r.is_transformer && !f.commands.empty() &&
             std::find(f.commands.begin(), f.commands.end(), r.command) == f.commands.end())
      r.warnings.push_back("unused: '" + f.name + "' applies to " + field_command_list(f) + "; '" +
                           shortened_utf8(r.command, kMaxEchoedNameBytes) + "' ignores it");
    else if (!f.needs.empty() && !request.contains(f.needs))
      r.warnings.push_back("unused: '" + f.name + "' has no effect without '" + f.needs + "'");
  }
}

}  // namespace

std::vector<std::string> request_reader_names() {
  std::vector<std::string> names;
  for (const RequestField& f : kRequestFields) names.push_back(f.name);
  return names;
}

Request parse_request(const Json& request) {
  if (!request.is_object()) throw Error("a request must be a JSON object", "", "");
  Request r;
  r.is_transformer = request.contains("net") && is_transformer_net(request["net"]);
  check_fields(request, r.is_transformer);
  r.command = read_key(request, "command");
  // A 2016 CNN defaults to the original's TITAN X; a transformer to a current GPU.
  const Presets& presets = Presets::instance();
  r.scenario.device = presets.device(r.is_transformer ? "H100_SXM" : "TITAN_X");
  r.scenario.interconnect = presets.interconnect("ethernet", "interconnect");
  for (const RequestField& f : kRequestFields) {
    if (f.group) f.group(request, r);
    if (f.read && request.contains(f.name)) f.read(request, r);
  }
  if (r.is_transformer) {
    if (request.contains("batch_size") && r.command != "inference")
      throw Error("a transformer's batch is global_batch (sequences per step) and micro_batch", "", "batch_size");
    r.transformer =
        parse_transformer_request(request, r.scenario.device, r.scenario.has_cluster ? r.scenario.cluster.devices() : 1);
    r.has_net = true;
    warn_unused_fields(request, r);
    return r;
  }
  warn_unused_fields(request, r);
  read_cnn_kernel_model(request, r.scenario);
  if (auto w = matrix_format_warning(r.scenario.device, r.scenario.precision.compute)) r.warnings.push_back(*w);
  if (request.contains("net")) {
    read_net(request, r.scenario, r.warnings);
    r.has_net = true;
  }
  return r;
}

}  // namespace paleo
