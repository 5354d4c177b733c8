#include "cli/output.h"

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "cli/python_float.h"
#include "cli/table_row.h"
#include "core/base/json.h"

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

const char* const kSchemes[] = {"OneToAll", "TreeAllReduce", "ButterflyAllReduce", "ButterflyMixing"};

// Integers as integers, everything else as Python's repr.
std::string num(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<long long>());
  return python_repr(v.get<double>());
}

std::string fixed6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%f", v);
  return buf;
}

std::string join(const std::vector<std::string>& cells, const std::string& sep) { return joined_cells(cells, sep); }

// A text field of the response (a name from the request) as a cell.
std::string text(const Json& v) { return text_cell(v.get<std::string>()); }

std::string shape(const Json& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "x" : "") + std::to_string(s[i].get<long long>());
  return out;
}

void print_preamble(std::ostream& out, const Json& r, const SimulateContext& c, const std::string& title,
                    bool hybrid) {
  out << std::string(10, '=') << "\n" << title << "\n";
  out << "Profiling for device " << r["device"]["name"].get<std::string>() << " and "
      << r["interconnect"]["name"].get<std::string>() << " ("
      << fixed6(r["interconnect"]["bandwidth_gbit_per_s"].get<double>() / 8) << " GB/s)\n";
  out << "Use pipelining: " << (r.value("use_pipeline", false) ? "True" : "False") << "\n";
  if (hybrid) out << "Hybrid workers: " << r["rows"][0]["workers"].get<long long>() << "\n";
  out << "Use gemm: " << (c.use_only_gemm ? "True" : "False") << "  PPP comp: " << fixed6(r["ppp_comp"].get<double>())
      << "   PPP comm: " << fixed6(r["ppp_comm"].get<double>()) << "\n";
}

}  // namespace

bool printed_as_json(std::ostream& out, const Json& response, Format format) {
  if (format != Format::kJson) return false;
  out << paleo::dump_json(response, 2) << "\n";
  return true;
}

Format parse_format(const std::string& name) {
  if (name == "table") return Format::kTable;
  if (name == "csv") return Format::kCsv;
  if (name == "json") return Format::kJson;
  throw std::invalid_argument("unknown --format '" + name + "' (known: table, csv, json)");
}

void print_simulation(std::ostream& out, const Json& r, Format format, const SimulateContext& c) {
  if (printed_as_json(out, r, format)) return;
  const std::string sep = format == Format::kCsv ? "," : c.separator;
  const std::string parallel = r["parallel"].get<std::string>();
  if (format == Format::kTable) out << c.net_argument << "\n";
  if (parallel == "data") {
    const Json& tables = r["scaling"];
    const bool scaling_column = format == Format::kCsv && tables.size() > 1;
    std::vector<std::string> header = {"workers", "batch_size", "iter", "time_fwd", "time_bwd", "time_apply", "time_comp"};
    for (const char* s : kSchemes) header.push_back(s);
    if (scaling_column) header.insert(header.begin(), "scaling");
    if (format == Format::kCsv) out << join(header, sep) << "\n";
    for (const Json& t : tables) {
      if (format == Format::kTable) {
        print_preamble(out, r, c, t["scaling"].get<std::string>() + " scaling", false);
        out << join(header, sep) << "\n";
      }
      for (const Json& row : t["rows"]) {
        std::vector<std::string> cells = {num(row["workers"]), num(row["batch_size"]), num(row["iter"]),
                                          num(row["time_fwd_ms"]), num(row["time_bwd_ms"]),
                                          num(row["time_apply_ms"]), num(row["time_comp_ms"])};
        for (const char* s : kSchemes) cells.push_back(num(row["comm_ms"][s]));
        if (scaling_column) cells.insert(cells.begin(), t["scaling"].get<std::string>());
        out << join(cells, sep) << "\n";
      }
    }
  } else if (parallel == "model") {
    if (format == Format::kTable) print_preamble(out, r, c, "Model parallel", false);
    out << join({"Pass", "Lowerbound", "Upperbound"}, sep) << "\n";
    out << join({"Fwd", num(r["forward"]["lower_ms"]), num(r["forward"]["upper_ms"])}, sep) << "\n";
    out << join({"Bwd", num(r["backward"]["lower_ms"]), num(r["backward"]["upper_ms"])}, sep) << "\n";
  } else {
    if (format == Format::kTable) print_preamble(out, r, c, "Hybrid parallel", true);
    out << join({"workers", "batch_size", "fwd_time", "bwd_time", "apply_time", "sync_time(tree)"}, sep) << "\n";
    for (const Json& row : r["rows"])
      out << join({num(row["workers"]), num(row["batch_size"]), num(row["fwd_time_ms"]), num(row["bwd_time_ms"]),
                   num(row["apply_time_ms"]), num(row["sync_time_ms"])}, sep) << "\n";
  }
}

void print_layers(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  const std::string sep = format == Format::kCsv ? "," : "\t";
  std::vector<std::string> header = {"name", "type", "device_id", "inputs", "output", "params", "weights_bytes"};
  const char* const passes[] = {"forward", "backward_data", "backward_filter"};
  for (const char* p : passes)
    for (const char* f : {"flops", "bytes", "comp_ms", "mem_ms", "total_ms", "algorithm"})
      header.push_back(std::string(p) + "_" + f);
  for (const char* f : {"comp_ms", "mem_ms", "total_ms"}) header.push_back(std::string("backward_") + f);
  out << join(header, sep) << "\n";
  for (const Json& l : r["layers"]) {
    std::string inputs;
    for (const Json& in : l["inputs"]) inputs += (inputs.empty() ? "" : "|") + shape(in);
    std::vector<std::string> cells = {text(l["name"]), text(l["type"]), text(l["device_id"]), inputs, shape(l["output"]),
                                      num(l["params"]), num(l["weights_bytes"])};
    for (const char* p : passes) {
      for (const char* f : {"flops", "bytes", "comp_ms", "mem_ms", "total_ms"}) cells.push_back(num(l[p][f]));
      cells.push_back(text(l[p]["algorithm"]));
    }
    for (const char* f : {"comp_ms", "mem_ms", "total_ms"}) cells.push_back(num(l["backward"][f]));
    out << join(cells, sep) << "\n";
  }
}

void print_estimate_totals(std::ostream& out, const Json& r, Format format) {
  if (format != Format::kTable || !r.contains("totals")) return;
  const Json& t = r["totals"];
  out << "\n";
  // A cluster's step is its own section's; the one-device totals would read as the answer.
  if (!r.contains("cluster"))
    for (const char* k : {"forward_ms", "backward_ms", "update_ms", "step_ms", "throughput_samples_per_s"})
      if (t.contains(k)) out << "totals." << k << "\t" << num(t[k]) << "\n";
  if (r.contains("expected_error"))
    out << "expected_error\t" << table_cell(text(r["expected_error"]["summary"]), false) << "\n";
}

void print_summary(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  if (format == Format::kCsv) {
    out << "name,type,output,params\n";
    for (const Json& l : r["layers"]) out << join({text(l["name"]), text(l["type"]), shape(l["output"]), num(l["params"])}, ",") << "\n";
    return;
  }
  out << "A summary of static characteristics of network.\n  LAYER\tOUTPUTS\n";
  for (const Json& l : r["layers"])
    out << "  " << table_cell(text(l["name"]), false) << "\t[" << shape(l["output"]) << "]  " << table_cell(text(l["type"]), false)
        << "  Params: " << num(l["params"]) << "\n";
  const Json& t = r["totals"];
  auto grouped = [](double v) {
    std::string digits = std::to_string(static_cast<long long>(v)), grouped_digits;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i && (digits.size() - i) % 3 == 0) grouped_digits += ',';
      grouped_digits += digits[i];
    }
    return grouped_digits;
  };
  out << "Number of params: " << grouped(t["params"].get<double>()) << " (" << grouped(t["params_bytes"].get<double>())
      << " Bytes)\n";
  out << "Activation: " << grouped(t["activation_bytes"].get<double>()) << " Bytes\n";
}

void print_collective(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  const std::string sep = format == Format::kCsv ? "," : "\t";
  if (format == Format::kTable)
    out << r["op"].get<std::string>() << " of " << num(r["bytes"]) << " bytes among " << num(r["workers"])
        << " workers: " << r["algorithm"].get<std::string>() << " " << num(r["time_ms"]) << " ms\n";
  out << join({"algorithm", "time_ms", "alpha_ms", "beta_ms", "reduction_ms"}, sep) << "\n";
  for (const Json& a : r["algorithms"])
    out << join({a["algorithm"].get<std::string>(), num(a["time_ms"]), num(a["alpha_ms"]), num(a["beta_ms"]),
                 num(a["reduction_ms"])}, sep) << "\n";
}

void print_cluster(std::ostream& out, const Json& c, Format format) {
  if (format == Format::kJson) return;  // part of the response already printed
  const std::string sep = format == Format::kCsv ? "," : "\t";
  const Json& cl = c["cluster"];
  out << "\n" << "cluster: " << num(cl["nodes"]) << " x " << num(cl["devices_per_node"]) << " devices ("
      << cl["intra"]["name"].get<std::string>() << " in node, " << num(cl["nics_per_node"]) << " x "
      << cl["inter"]["name"].get<std::string>() << " between nodes"
      << (cl.contains("assumed") && !cl["assumed"].empty() ? "; assumed, see warnings" : "") << "), data parallel " << num(c["data_parallel"]) << ", pipeline stages "
      << num(c["pipeline_stages"]) << ", global batch " << num(c["global_batch"]) << "\n";
  const Json& comp = c["compute"];
  out << "compute_ms" << sep << num(comp["compute_ms"]) << sep << "forward_ms" << sep << num(comp["forward_ms"]) << sep
      << "backward_ms" << sep << num(comp["backward_ms"]) << sep << "update_ms" << sep << num(comp["update_ms"]) << "\n";
  out << join({"algorithm", "comm_ms", "buckets", "step_no_overlap_ms", "exposed_no_overlap_ms", "step_overlap_ms",
               "exposed_overlap_ms"}, sep) << "\n";
  for (const Json& o : c["collectives"])
    out << join({o["algorithm"].get<std::string>(), num(o["comm_ms"]), num(o["buckets"]),
                 num(o["no_overlap"]["step_ms"]), num(o["no_overlap"]["exposed_comm_ms"]),
                 num(o["overlap"]["step_ms"]), num(o["overlap"]["exposed_comm_ms"])}, sep) << "\n";
  out << "chosen" << sep << c["chosen"]["algorithm"].get<std::string>() << sep << "step_ms" << sep << num(c["step_ms"])
      << sep << "samples_per_s" << sep << num(c["throughput_samples_per_s"]) << "\n";
  if (c.contains("pipeline")) {
    const Json& p = c["pipeline"];
    out << "pipeline_ms" << sep << num(p["step_ms"]) << sep << "bubble_ms" << sep << num(p["bubble_ms"]) << sep
        << "bubble_fraction" << sep << num(p["bubble_fraction"]) << "\n";
  }
  out << join({"stage", "weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes", "workspace_bytes",
               "total_bytes", "capacity_bytes", "fits"}, sep) << "\n";
  long stage = 0;
  for (const Json& m : c["memory"])
    out << join({std::to_string(stage++), num(m["weights_bytes"]), num(m["gradients_bytes"]), num(m["optimizer_bytes"]),
                 num(m["activations_bytes"]), num(m["workspace_bytes"]), num(m["total_bytes"]),
                 m["capacity_bytes"].is_null() ? "unknown" : num(m["capacity_bytes"]),
                 m["fits"].get<bool>() ? "yes" : "NO"}, sep) << "\n";
  if (!c["max_batch_per_replica"].is_null())
    out << "largest batch per replica that fits" << sep << num(c["max_batch_per_replica"]) << "\n";
}

void print_search(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  const std::string sep = format == Format::kCsv ? "," : "\t";
  if (format == Format::kTable)
    out << r["net"]["name"].get<std::string>() << " on " << num(r["devices"]) << " devices (" << num(r["devices_per_node"])
        << " per node), batch " << num(r["batch_per_device"]) << " per device\n"
        << "layer-wise " << num(r["step_ms"]) << " ms, data parallel " << num(r["data_parallel_step_ms"])
        << " ms, model parallel " << num(r["model_parallel_step_ms"]) << " ms; speed-up over data parallelism "
        << num(r["speedup_over_data_parallel"]) << ", over the best uniform strategy "
        << num(r["speedup_over_best_uniform"]) << (r["reduced"].get<bool>() ? "" : " (" + r["message"].get<std::string>() + ")")
        << "\n";
  out << join({"layer", "type", "n", "c", "h", "w", "t_c_ms", "t_s_ms", "t_x_in_ms"}, sep) << "\n";
  for (const Json& l : r["layers"])
    out << join({text(l["name"]), text(l["type"]), num(l["config"]["n"]), num(l["config"]["c"]),
                 num(l["config"]["h"]), num(l["config"]["w"]), num(l["t_c_ms"]), num(l["t_s_ms"]), num(l["t_x_in_ms"])}, sep)
        << "\n";
}

}  // namespace paleo::cli
