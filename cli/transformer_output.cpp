#include "cli/transformer_output.h"

#include <cstdio>
#include <string>
#include <vector>

#include "cli/table_row.h"
#include "core/base/json.h"

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string g(const Json& v) {
  if (!v.is_number()) return v.is_string() ? text_cell(v.get<std::string>()) : paleo::dump_json(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
  return buf;
}

void row(std::ostream& out, const std::vector<std::string>& cells, const std::string& sep) {
  out << joined_cells(cells, sep) << "\n";
}

void key_values(std::ostream& out, const Json& obj, const std::vector<std::string>& keys, const std::string& sep) {
  for (const std::string& k : keys)
    if (obj.contains(k)) row(out, {k, g(obj[k])}, sep);
}

void print_estimate(std::ostream& out, const Json& r, const std::string& sep) {
  row(out, {"model", g(r["model"]["name"])}, sep);
  key_values(out, r, {"step_ms", "tokens_per_s", "samples_per_s", "model_tflops_per_gpu", "hardware_tflops_per_gpu",
                      "mfu", "hfu", "memory_per_device_bytes", "fits", "max_micro_batch", "bubble_fraction"}, sep);
  for (auto it = r["breakdown"].begin(); it != r["breakdown"].end(); ++it) row(out, {"breakdown." + it.key(), g(it.value())}, sep);
  for (auto it = r["memory"].begin(); it != r["memory"].end(); ++it) row(out, {"memory." + it.key(), g(it.value())}, sep);
  if (r.contains("train"))
    for (auto it = r["train"].begin(); it != r["train"].end(); ++it) row(out, {"train." + it.key(), g(it.value())}, sep);
  if (r.contains("expected_error")) row(out, {"expected_error", g(r["expected_error"]["summary"])}, sep);
  for (const Json& w : r["warnings"]) row(out, {"warning", g(w)}, sep);
  out << "\n";
  row(out, {"name", "type", "count", "forward_ms", "backward_ms", "forward_flops", "backward_flops", "params",
            "activation_bytes"}, sep);
  for (const Json& l : r["layers"])
    row(out, {g(l["name"]), g(l["type"]), g(l["count"]), g(l["forward"]["total_ms"]),
              g(l["backward"]["total_ms"]), g(l["forward"]["flops"]), g(l["backward"]["flops"]), g(l["params"]),
              g(l["activation_bytes"])}, sep);
}

void print_plan(std::ostream& out, const Json& r, const std::string& sep) {
  const std::vector<std::string> cols = {"rank", "tp", "pp", "dp", "cp", "micro_batch", "virtual_stages", "recompute",
                                         "zero", "step_ms", "tokens_per_s", "mfu", "memory_per_device_bytes"};
  row(out, cols, sep);
  for (const Json& c : r["candidates"]) {
    std::vector<std::string> cells;
    for (const std::string& k : cols) cells.push_back(g(c[k]));
    row(out, cells, sep);
  }
  for (const Json& w : r["why"]) out << "# " << w.get<std::string>() << "\n";
}

}  // namespace

void print_transformer(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  const std::string sep = format == Format::kCsv ? "," : "\t";
  const std::string command = r["command"].get<std::string>();
  if (command == "plan") return print_plan(out, r, sep);
  if (command == "summary") {
    row(out, {"model", g(r["model"]["name"])}, sep);
    key_values(out, r["model"], {"params", "active_params"}, sep);
    return;
  }
  if (command == "inference") {
    key_values(out, r, {"prefill_ms", "decode_ms_per_token", "tokens_per_s", "total_ms", "weights_bytes",
                        "kv_cache_bytes", "memory_per_device_bytes", "fits"}, sep);
    row(out, {"serving"}, sep);
    key_values(out, r["serving"], {"concurrency", "ttft_ms", "tpot_ms", "e2e_latency_ms", "requests_per_s",
                                   "output_tokens_per_s", "replicas", "total_output_tokens_per_s",
                                   "output_tokens_per_s_per_gpu", "max_concurrency", "saturated"}, sep);
    if (r.contains("expected_error")) row(out, {"expected_error", g(r["expected_error"]["summary"])}, sep);
    for (const Json& w : r["warnings"]) row(out, {"warning", g(w)}, sep);
    return;
  }
  print_estimate(out, r, sep);
}

}  // namespace paleo::cli
