#include "cli/training_scheme_cli.h"

#include "cli/python_float.h"
#include "cli/request_builder.h"

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string num(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<long long>());
  return v.is_number() ? python_repr(v.get<double>()) : v.dump();
}

}  // namespace

const std::vector<std::string>& training_scheme_valued_options() {
  static const std::vector<std::string> options = {
      "consistency", "staleness", "jitter", "slow_worker", "compression", "exchange", "server_layout",
      "ps_servers", "push", "averaging", "averaging_every", "gossip_peers", "batch_norm"};
  return options;
}

const std::vector<std::string>& training_scheme_flag_options() {
  static const std::vector<std::string> flags = {"offload_fc"};
  return flags;
}

void add_training_scheme_options(const Arguments& args, Json& r) {
  Json s = Json::object();
  // Option name -> member of `training_scheme`; numbers stay numbers so the core checks them.
  const std::pair<const char*, const char*> members[] = {
      {"consistency", "consistency"}, {"staleness", "staleness"}, {"jitter", "jitter"},
      {"slow_worker", "slow_worker"}, {"compression", "compression"}, {"exchange", "exchange"},
      {"server_layout", "server_layout"}, {"ps_servers", "servers"}, {"push", "push"},
      {"averaging", "averaging"}, {"averaging_every", "averaging_every"}, {"gossip_peers", "gossip_peers"},
      {"batch_norm", "batch_norm"}};
  for (const auto& [option, field] : members)
    if (args.has(option)) s[field] = number_or_text(args.get(option, ""));
  if (args.has("offload_fc")) s["offload_fc"] = true;
  if (s.contains("averaging_every") && !s.contains("averaging")) s["averaging"] = "local_sgd";
  if (s.contains("gossip_peers") && !s.contains("averaging")) s["averaging"] = "gossip";
  if (!s.empty()) r["training_scheme"] = s;
}

void print_training_scheme(std::ostream& out, const Json& t, Format format) {
  if (format == Format::kJson) return;  // part of the response already printed
  const std::string sep = format == Format::kCsv ? "," : "\t";
  out << "\ntraining scheme: " << t["consistency"].get<std::string>() << ", " << t["exchange"].get<std::string>()
      << ", " << num(t["workers"]) << " workers\n";
  const char* keys[] = {"step_ms", "deterministic_step_ms", "compute_ms", "exposed_comm_ms", "codec_ms",
                        "batch_norm_sync_ms", "throughput_samples_per_s", "updates_per_s", "staleness_expected",
                        "staleness_bound", "dense_gradient_bytes", "message_bytes", "wire_bytes_per_step",
                        "extra_memory_bytes"};
  for (const char* k : keys) out << k << sep << num(t[k]) << "\n";
  if (t.contains("gossip_rounds")) out << "gossip_rounds" << sep << num(t["gossip_rounds"]) << "\n";
  if (t["capped_by_servers"].get<bool>()) out << "the parameter servers' links cap the update rate\n";
}

}  // namespace paleo::cli
