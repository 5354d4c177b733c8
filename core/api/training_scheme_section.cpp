#include "core/api/training_scheme_section.h"

#include <functional>

#include "core/api/cluster_section.h"
#include "core/api/request.h"
#include "core/base/enum_names.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/training_scheme/scheme_comparison.h"

namespace paleo {
namespace {

const std::string kField = "training_scheme";

std::string member(const std::string& name) { return kField + "." + name; }

std::string read_text(const Json& v, const std::string& name) {
  if (!v.is_string()) throw Error("must be a string, got " + echo(v), "", member(name));
  return v.get<std::string>();
}

std::int64_t read_whole(const Json& v, const std::string& name, std::int64_t lo, std::int64_t hi) {
  if (!v.is_number() || !v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
    throw Error("must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + echo(v), "",
                member(name));
  return v.get<std::int64_t>();
}

bool read_flag(const Json& v, const std::string& name) {
  if (!v.is_boolean()) throw Error("must be true or false, got " + echo(v), "", member(name));
  return v.get<bool>();
}

struct SchemeField {
  const char* name;
  std::function<void(const Json&, TrainingScheme&)> read;
};

// The members of `training_scheme`, each read by its row (docs/api.md).
const SchemeField kSchemeFields[] = {
    {"consistency", [](const Json& v, TrainingScheme& s) { s.consistency = parse_consistency(read_text(v, "consistency"), member("consistency")); }},
    {"staleness", [](const Json& v, TrainingScheme& s) { s.staleness = read_whole(v, "staleness", 0, 1000000); }},
    {"jitter", [](const Json& v, TrainingScheme& s) {
       const double slow = s.jitter.slow_fraction;
       s.jitter = parse_jitter(read_text(v, "jitter"), member("jitter"));
       s.jitter.slow_fraction = slow;
     }},
    {"slow_worker", [](const Json& v, TrainingScheme& s) {
       if (!v.is_number() || !(v.get<double>() >= 0) || v.get<double>() > 100)
         throw Error("must be the slow worker's extra time as a fraction, 0 to 100, got " + echo(v), "", member("slow_worker"));
       s.jitter.slow_fraction = v.get<double>();
     }},
    {"compression", [](const Json& v, TrainingScheme& s) { s.compression = parse_compression(read_text(v, "compression"), member("compression")); }},
    {"exchange", [](const Json& v, TrainingScheme& s) {
       static const EnumName<GradientExchange> exchanges[] = {{GradientExchange::kAllReduce, "allreduce"},
                                                              {GradientExchange::kParameterServer, "parameter_server"}};
       s.exchange = parse_enum(exchanges, read_text(v, "exchange"), "exchange", member("exchange"));
     }},
    {"server_layout", [](const Json& v, TrainingScheme& s) { s.server.layout = parse_server_layout(read_text(v, "server_layout"), member("server_layout")); }},
    {"servers", [](const Json& v, TrainingScheme& s) { s.server.servers = read_whole(v, "servers", 1, kMaxDevices); }},
    {"push", [](const Json& v, TrainingScheme& s) {
       const std::string p = read_text(v, "push");
       if (p != "gradients" && p != "weights") throw Error("must be 'gradients' or 'weights'", "", member("push"));
       s.server.push_weights = p == "weights";
     }},
    {"offload_fc", [](const Json& v, TrainingScheme& s) { s.server.offload_fc = read_flag(v, "offload_fc"); }},
    {"averaging", [](const Json& v, TrainingScheme& s) { s.averaging.kind = parse_averaging(read_text(v, "averaging"), member("averaging")); }},
    {"averaging_every", [](const Json& v, TrainingScheme& s) { s.averaging.every = read_whole(v, "averaging_every", 1, 1000000); }},
    {"gossip_peers", [](const Json& v, TrainingScheme& s) { s.averaging.peers = read_whole(v, "gossip_peers", 1, kMaxDevices); }},
    {"batch_norm", [](const Json& v, TrainingScheme& s) {
       const std::string b = read_text(v, "batch_norm");
       if (b != "local" && b != "global") throw Error("must be 'local' or 'global'", "", member("batch_norm"));
       s.global_batch_norm = b == "global";
     }},
};

Json step_json(const SchemeStep& st, const TrainingScheme& scheme) {
  Json j = {{"consistency", consistency_name(scheme.consistency)},
            {"exchange", st.exchange},
            {"workers", st.workers},
            {"compute_ms", st.compute_ms},
            {"deterministic_step_ms", st.deterministic_step_ms},
            {"step_ms", st.consistency.step_ms},
            {"exposed_comm_ms", st.comm_ms},
            {"codec_ms", st.codec_ms},
            {"batch_norm_sync_ms", st.batch_norm_ms},
            {"batch_norm_layers", st.batch_norm_layers},
            {"throughput_samples_per_s", st.throughput_samples_per_s},
            {"updates_per_s", st.consistency.updates_per_s},
            {"staleness_expected", st.consistency.staleness_expected},
            {"staleness_bound", st.consistency.staleness_bound},
            {"capped_by_servers", st.consistency.capped_by_servers},
            {"dense_gradient_bytes", st.dense_gradient_bytes},
            {"message_bytes", st.message_bytes},
            {"compression_ratio", st.message_bytes > 0 ? Json(st.dense_gradient_bytes / st.message_bytes) : Json()},
            {"wire_bytes_per_step", st.wire_bytes_per_step},
            {"extra_memory_bytes", st.extra_memory_bytes}};
  if (scheme.averaging.kind == AveragingKind::kGossip) j["gossip_rounds"] = st.gossip_rounds;
  if (st.server_layout_used)
    j["parameter_server"] = {{"layout", server_layout_name(st.server.layout)},
                             {"servers", scheme.server.layout == ServerLayout::kSharded ? scheme.server.servers : 1},
                             {"push", scheme.server.push_weights ? "weights" : "gradients"},
                             {"pushed_bytes", st.server.pushed_bytes},
                             {"pulled_bytes", st.server.pulled_bytes},
                             {"offload_fc", scheme.server.offload_fc},
                             {"fc_values_dense", st.server.dense_fc_values},
                             {"fc_values_offloaded", st.server.offloaded_fc_values},
                             {"server_compute_ms", st.server.server_compute_ms},
                             {"updates_per_s_cap", st.server.updates_per_s_cap}};
  return j;
}


}  // namespace

TrainingScheme read_training_scheme(const Json& value) {
  if (!value.is_object()) throw Error("must be an object (docs/training-schemes.md)", "", kField);
  for (auto it = value.begin(); it != value.end(); ++it) {
    bool known = false;
    for (const SchemeField& f : kSchemeFields) known = known || it.key() == f.name;
    if (!known) throw Error("unknown member (docs/api.md, training_scheme)", "", member(it.key()));
  }
  TrainingScheme s;
  for (const SchemeField& f : kSchemeFields)
    if (value.contains(f.name)) f.read(value[f.name], s);
  return s;
}

Json training_scheme_json(const Request& r, std::vector<std::string>& warnings) {
  if (!r.scenario.has_cluster) throw Error("needs a cluster (docs/cluster.md)", "", kField);
  ClusterOptions options = cluster_options(r);
  options.find_max_batch = false;  // the scheme prices the request's batch; no search for the largest that fits
  NetworkPricer pricer(r.scenario);
  const SchemeStep st = training_scheme_step(r.scenario, options, r.scheme.training_scheme, pricer);
  Json j = step_json(st, r.scheme.training_scheme);
  warnings.insert(warnings.end(), st.warnings.begin(), st.warnings.end());
  if (r.scheme.comparison) {
    Json sweeps = Json::array();
    for (const SchemeSweep& sw : scheme_comparison(r.scenario, options, r.scheme.training_scheme.jitter, pricer)) {
      Json points = Json::array();
      for (const ComparisonPoint& p : sw.points)
        points.push_back({{"nodes", p.nodes}, {"workers", p.workers}, {"step_ms", p.step_ms},
                          {"throughput_samples_per_s", p.throughput_samples_per_s},
                          {"wire_bytes_per_step", p.wire_bytes_per_step}});
      sweeps.push_back({{"scheme", sw.name}, {"points", points}});
    }
    j["comparison"] = sweeps;
  }
  return j;
}

}  // namespace paleo
