#include "cli/request_builder.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "cli/bounded_input.h"
#include "cli/training_scheme_cli.h"
#include "core/api/net_kind.h"
#include "core/base/error.h"
#include "core/base/json.h"

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

Json list_of(const std::string& text, bool numbers) {
  Json list = Json::array();
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) list.push_back(numbers ? number_or_text(item) : Json(item));
  return list;
}

std::string file_stem(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) name.resize(name.size() - 5);
  return name;
}

bool has_extension(const std::string& path, const std::string& extension) {
  return path.size() > extension.size() && path.compare(path.size() - extension.size(), extension.size(), extension) == 0;
}

// The text between single quotes for a POSIX shell.
std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// An .onnx file: decoded by tools/onnx_to_graph.mjs under Node (docs/import.md), which prints the
// request's {"onnx_graph": ...}. PALEO_TOOLS_DIR names another tools folder than the source tree's.
Json onnx_file_net(const std::string& path) {
  const char* env = std::getenv("PALEO_TOOLS_DIR");
  const std::string tools = env && *env ? env : PALEO_DEFAULT_TOOLS_DIR;
  const std::string command = "node " + shell_quoted(tools + "/onnx_to_graph.mjs") + " " + shell_quoted(path);
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::invalid_argument(path + ": cannot start node to decode the ONNX file");
  std::string text;
  try {
    text = read_bounded_stream(pipe, path + " (the ONNX decoder's output)");
  } catch (...) {
    pclose(pipe);
    throw;
  }
  const int status = pclose(pipe);
  if (status != 0)
    throw std::invalid_argument(path + ": the ONNX decoder (node " + tools +
                                "/onnx_to_graph.mjs, which needs Node and `npm ci`) failed; see its message above");
  return json_file_document(text, path);
}

}  // namespace

Json number_or_text(const std::string& text) {
  try {
    std::size_t used = 0;
    long long i = std::stoll(text, &used);
    if (used == text.size()) return i;
    double d = std::stod(text, &used);
    if (used == text.size()) return d;
  } catch (const std::exception&) {
  }
  return text;
}

Json json_file_document(const std::string& text, const std::string& path) {
  try {
    return paleo::parse_json_text(text, "file");
  } catch (const paleo::Error& e) {
    throw std::invalid_argument(path + ": " + e.detail());
  }
}

Json net_argument(const std::string& arg) {
  if (path_exists(arg)) {
    // The decoder reads the model itself (weights and all, often over the request limit); what it
    // prints is bounded.
    if (has_extension(arg, ".onnx")) {
      (void)require_file_or_pipe(arg);
      return onnx_file_net(arg);
    }
    const std::string text = read_bounded_file(arg);
    // Other frameworks' files go to the core as they are; it converts them (core/import/).
    if (has_extension(arg, ".prototxt")) return Json{{"prototxt", text}};
    // A JSON file (a spec, a Keras model.to_json(), a transformer config) as it is: the core tells
    // which it is.
    return json_file_document(text, arg);
  }
  // A path to no file: the original's nets/<key>.json still names the preset <key>; anything else
  // that looks like a path is a missing file, not an unknown preset.
  const std::string key = file_stem(arg);
  const bool path_like = arg.find('/') != std::string::npos || has_extension(arg, ".json") ||
                         has_extension(arg, ".prototxt") || has_extension(arg, ".onnx");
  if (path_like && !is_preset_net_key(key)) throw std::invalid_argument(arg + ": no such file");
  return key;
}

void apply_input_shape(const Arguments& args, Json& net) {
  if (!args.has("input_shape")) return;
  if (!net.is_object() || !net.contains("onnx_graph"))
    throw std::invalid_argument("--input_shape applies to an ONNX net (an .onnx file or its graph JSON)");
  net["input_shape"] = list_of(args.get("input_shape", ""), true);
}

Json device_argument(const std::string& arg) {
  if (!has_extension(arg, ".json")) return arg;
  try {
    return json_file_document(read_bounded_file(arg), arg);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--device_name ") + e.what());
  }
}

// --intra / --inter: a link preset key, a link object as JSON text ({"bandwidth_gb_per_s": ...,
// "latency_us": ...}), or a .json file holding one, as the API's "intra" and "inter" take.
Json link_argument(const std::string& arg, const std::string& option) {
  const std::size_t first = arg.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && arg[first] == '{') return json_file_document(arg, option);
  if (!has_extension(arg, ".json")) return arg;
  try {
    return json_file_document(read_bounded_file(arg), arg);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(option + " " + e.what());
  }
}

void add_cluster_options(const Arguments& args, Json& r) {
  const bool search = r.value("command", "") == "search";
  if (search) {  // the search sizes the cluster itself
    if (args.has("devices")) r["devices"] = number_or_text(args.get("devices", ""));
    if (args.has("per_node")) r["devices_per_node"] = number_or_text(args.get("per_node", ""));
  }
  // A preset alone is its key; links or NICs make an object, on top of the preset when one is
  // named (the API's {"preset": ...}): each option replaces only what it names.
  const bool overrides = args.has("intra") || args.has("inter") || args.has("nics_per_node");
  if (overrides) {
    Json c = Json::object();
    if (args.has("cluster")) c["preset"] = args.get("cluster", "");
    if (args.has("intra")) c["intra"] = link_argument(args.get("intra", ""), "--intra");
    if (args.has("inter")) c["inter"] = link_argument(args.get("inter", ""), "--inter");
    if (args.has("nics_per_node")) c["nics_per_node"] = number_or_text(args.get("nics_per_node", ""));
    r["cluster"] = std::move(c);
  } else if (args.has("cluster")) {
    r["cluster"] = args.get("cluster", "");
  }
  // Node counts without a cluster price the device's own node preset (the core names its links).
  if (search && !r.contains("cluster")) return;
  if (args.has("nodes")) r["nodes"] = number_or_text(args.get("nodes", ""));
  if (args.has("per_node") && !search) r["devices_per_node"] = number_or_text(args.get("per_node", ""));
}

Json build_collective_request(const Arguments& args) {
  Json r = {{"command", "collective"}, {"op", args.get("op", "allreduce")}, {"algorithm", args.get("algorithm", "auto")}};
  if (args.has("bytes")) r["bytes"] = number_or_text(args.get("bytes", ""));
  if (args.has("workers")) r["workers"] = number_or_text(args.get("workers", ""));
  if (args.has("device_name")) r["device"] = device_argument(args.get("device_name", ""));
  if (args.has("servers")) r["servers"] = number_or_text(args.get("servers", ""));
  if (args.has("link")) {
    r["link"] = args.get("link", "");
  } else if (args.has("bandwidth_gbps")) {
    Json bw = number_or_text(args.get("bandwidth_gbps", ""));
    Json link = {{"bandwidth_gb_per_s", bw.is_number() ? Json(bw.get<double>() / 8) : bw},
                 {"latency_us", number_or_text(args.get("latency_us", "0"))}};
    r["link"] = link;
  }
  add_cluster_options(args, r);
  return r;
}

Json build_request(const std::string& command, const Arguments& args, Json net) {
  Json r = Json::object();
  // Room for every field up front: an ordered object's entries are copied, the spec among them,
  // each time its vector grows.
  r.get_ref<Json::object_t&>().reserve(48);
  r["command"] = command;
  r["net"] = std::move(net);
  const bool simulate = command == "simulate";
  if (args.has("device_name")) r["device"] = device_argument(args.get("device_name", ""));
  if (args.has("network_name")) r["interconnect"] = args.get("network_name", "");
  if (args.has("software")) r["software"] = args.get("software", "");
  if (args.has("profile")) r["profile"] = args.get("profile", "");
  // The drop-in commands of the original reproduce it unless told otherwise.
  else if (simulate || command == "summary") r["profile"] = "paleo2017";
  if (args.has("batch_size")) r["batch_size"] = number_or_text(args.get("batch_size", ""));
  else if (simulate) r["batch_size"] = 128;  // the original simulate's default
  if (args.has("ppp_comp")) r["ppp_comp"] = number_or_text(args.get("ppp_comp", ""));
  if (args.has("ppp_comm")) r["ppp_comm"] = number_or_text(args.get("ppp_comm", ""));
  // paleo2026: the formats of a CNN and the software era pricing its kernels (docs/model.md).
  if (args.has("precision")) r["precision"] = args.get("precision", "");
  if (args.has("software_era")) r["software_era"] = args.get("software_era", "");
  // Without --use_only_gemm the original simulate asked cuDNN's heuristics; our stand-in is
  // "auto". The other commands follow the API's default unless told.
  if (args.has("use_only_gemm")) r["conv_algorithm"] = "gemm";
  else if (args.has("conv_algorithm")) r["conv_algorithm"] = args.get("conv_algorithm", "");
  else if (simulate) r["conv_algorithm"] = "auto";
  if (args.has("workspace_limit_bytes")) r["workspace_limit_bytes"] = number_or_text(args.get("workspace_limit_bytes", ""));
  if (args.has("fetch_bandwidth_gb_per_s"))
    r["fetch_bandwidth_gb_per_s"] = number_or_text(args.get("fetch_bandwidth_gb_per_s", ""));
  if (args.has("use_pipeline")) r["use_pipeline"] = true;
  if (args.has("roofline")) r["roofline"] = true;
  if (args.has("input_gradient")) r["input_gradient"] = true;
  if (args.has("memory_format")) r["memory_format"] = args.get("memory_format", "");
  if (args.has("fused_batchnorm_activation")) r["fused_batchnorm_activation"] = true;
  if (args.has("optimizer")) r["optimizer"] = args.get("optimizer", "");
  add_cluster_options(args, r);
  if (args.has("collective")) r["collective"] = args.get("collective", "");
  if (args.has("bucket_bytes")) r["bucket_bytes"] = number_or_text(args.get("bucket_bytes", ""));
  if (args.has("no_overlap")) r["overlap"] = false;
  if (args.has("overlap")) r["overlap"] = true;
  if (args.has("stages") || args.has("micro_batches") || args.has("schedule")) {
    Json p = Json::object();
    if (args.has("stages")) p["stages"] = number_or_text(args.get("stages", ""));
    if (args.has("micro_batches")) p["micro_batches"] = number_or_text(args.get("micro_batches", ""));
    if (args.has("schedule")) p["schedule"] = args.get("schedule", "");
    r["pipeline"] = p;
  }
  if (command == "estimate") add_training_scheme_options(args, r);
  if (simulate || command == "estimate") {
    if (args.has("num_workers")) r["workers"] = list_of(args.get("num_workers", ""), true);
    else if (simulate) r["workers"] = Json::array({1, 2, 4, 8, 16, 32, 64, 128});
    if (args.has("scaling")) r["scaling"] = list_of(args.get("scaling", ""), false);
    if (args.has("parallel")) r["parallel"] = args.get("parallel", "");
    if (args.has("hybrid_workers")) r["hybrid_workers"] = number_or_text(args.get("hybrid_workers", ""));
  }
  return r;
}

}  // namespace paleo::cli
