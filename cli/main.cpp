// paleo: the command-line front end of the core. A drop-in for the original's `summary` and
// `simulate`, plus `layers`, `estimate` and `api` (a JSON request on stdin or in a file).
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/bounded_input.h"
#include "cli/calibrate_output.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/request_builder.h"
#include "cli/training_scheme_cli.h"
#include "cli/transformer_output.h"
#include "cli/transformer_request.h"
#include "cli/validate_output.h"
#include "core/api.h"
#include "core/api/net_kind.h"
#include "core/base/request_limits.h"
#include "core/base/json.h"
#include "core/base/version.h"

namespace {

using Json = nlohmann::ordered_json;
using namespace paleo::cli;

constexpr int kExitBadInput = 2;

const char* const kUsage =
    "usage: paleo COMMAND [NET] [OPTIONS]\n"
    "commands:\n"
    "  simulate NET   data/model/hybrid-parallel scaling (the original's simulate)\n"
    "  layers NET     per-layer forward / backward-data / backward-filter times\n"
    "  estimate NET   layers and totals (plus scaling with --num_workers)\n"
    "  summary NET    shapes and parameters\n"
    "  search NET     layer-wise parallel strategy (--devices --per_node; OptCNN; --collective\n"
    "                 auto|parameter_server, --overlap: exchanges overlap the backward pass)\n"
    "  plan NET       the fastest parallel layouts of a transformer (--devices --per_node\n"
    "                 --global_batch --seq_len --precision)\n"
    "  inference NET  prefill and decode of a transformer (--tp --pp --batch_size --prompt_len\n"
    "                 --generate_len), served under load (--concurrency or --request_rate,\n"
    "                 --kv_cache_dtype --gpu_memory_utilization --kv_cache_free_gpu_mem_fraction\n"
    "                 --no_cuda_graphs --no_mixed_steps --runtime pytorch|tensorrt\n"
    "                 --decode_attention per_kv_head|per_query_head --moe_routing_skew\n"
    "                 --block_size --max_num_batched_tokens\n"
    "                 --prefix_cache_hit_rate --draft_tokens --acceptance_rate --draft_net\n"
    "                 --tpot_target_ms --ttft_target_ms --price)\n"
    "  collective     cost of one collective (--op --algorithm --workers --bytes, and --link or\n"
    "                 --bandwidth_gbps --latency_us, or --nodes --per_node --intra --inter)\n"
    "  validate       Paleo's predictions against published measurements, per case and family\n"
    "                 (--family cnn_single_gpu|cnn_data_parallel|cnn_layer_wise|kernels|collectives|transformers)\n"
    "  calibrate FILE fit the kernel efficiencies of a device's software to measured step or layer\n"
    "                 times (JSON or CSV, docs/calibration.md; --holdout alternate|FRACTION\n"
    "                 --request FILE --parameters a,b --loss soft_l1|huber|linear --software_era)\n"
    "  presets        the built-in nets, devices, networks and software profiles (JSON)\n"
    "  api [FILE]     answer a JSON request (docs/api.md) from FILE or standard input;\n"
    "                 --lines: one request per line of standard input, one response per line\n"
    "  version\n"
    "NET is a spec file or a preset key (e.g. vgg16, presets/nets/inception_v3.json, llama3_8b), or\n"
    "a transformer config file (compact {\"transformer\": {...}} or a Hugging Face config.json), or\n"
    "a Caffe .prototxt, an .onnx model (decoded by Node: tools/onnx_to_graph.mjs) or a graph JSON\n"
    "that tool printed, or a Keras model.to_json() file (docs/import.md).\n"
    "--device_name is a device preset key, or a .json file of a device object of your own\n"
    "(docs/api.md, \"device\"; a response's \"device\" is one).\n"
    "options: --device_name --network_name --batch_size --num_workers --scaling --ppp_comp\n"
    "  --ppp_comm --use_only_gemm --use_pipeline --parallel data|model|hybrid --hybrid_workers\n"
    "  --software --profile --conv_algorithm --workspace_limit_bytes --fetch_bandwidth_gb_per_s\n"
    "  --separator --format table|csv|json --input_gradient --memory_format nhwc|nchw\n"
    "  --fused_batchnorm_activation  each batch norm also runs the ReLU (and residual add) after it\n"
    "  --precision fp32|tf32|fp16|bf16|fp8 --software_era ERA (paleo2026 CNNs, docs/model.md)\n"
    "  --input_shape N,C,H,W  an ONNX graph input's shape where the file leaves sizes symbolic\n"
    "cluster options (estimate, collective, search, transformers): --cluster PRESET --nodes --per_node\n"
    "  --intra LINK --inter LINK --nics_per_node N (a LINK is a preset key, a JSON object or a .json\n"
    "  file of one; each replaces only its own part of --cluster's preset or of the device's node;\n"
    "  docs/cluster.md)\n"
    "  --collective --bucket_bytes --no_overlap --stages --micro_batches --schedule gpipe|1f1b\n"
    "  --optimizer sgd|momentum|adam --roofline\n"
    "training scheme (estimate with a cluster, docs/training-schemes.md): --consistency sync|ssp|async\n"
    "  --staleness S --jitter none|normal:CV|lognormal:CV --slow_worker FRACTION --compression\n"
    "  fp16|bf16|onebit|ternary|qsgd:S|threshold:D|topk:D|powersgd:R|sfb --exchange allreduce|parameter_server\n"
    "  --server_layout single|sharded|hierarchical --ps_servers S --push gradients|weights --offload_fc\n"
    "  --averaging local_sgd|elastic|gossip|ensemble --averaging_every K --gossip_peers K --batch_norm local|global\n"
    "transformer options (estimate, layers, plan, inference): --precision fp32|tf32|fp16|bf16|fp8\n"
    "  --nodes --per_node --devices --cluster --intra --inter --nics_per_node --tp --pp --dp --cp --ep "
    "--virtual_stages\n"
    "  --sequence_parallel --micro_batch --global_batch --seq_len --recompute none|selective|selective_op|full\n"
    "  --zero 0..3 --attention flash|materialized --train_tokens --price USD|PRESET --top\n"
    "  --calibration FILE   the profile of `paleo calibrate` (its JSON, or the whole response)\n";

int report(const Json& response) {
  const Json& e = response["error"];
  std::cerr << "paleo: error: " << e["message"].get<std::string>() << "\n";
  return kExitBadInput;
}

// A CNN answer's warnings go to standard error: standard output keeps the original's formats.
void report_warnings(const Json& response) {
  if (!response.contains("warnings")) return;
  for (const Json& w : response["warnings"]) std::cerr << "paleo: warning: " << w.get<std::string>() << "\n";
}

// The fields of a calibration profile ({"software_era"?, "efficiency"}, or a whole `calibrate`
// response holding one under "profile") set on a request.
void apply_calibration(const std::string& path, Json& request) {
  const Json doc = json_file_document(read_bounded_file(path), path);
  const Json& profile = doc.is_object() && doc.contains("profile") ? doc["profile"] : doc;
  if (!profile.is_object() || !profile.contains("efficiency"))
    throw std::invalid_argument(path + ": not a calibration profile ({\"software_era\"?, \"efficiency\"})");
  for (const char* field : {"software_era", "efficiency"})
    if (profile.contains(field)) request[field] = profile[field];
}

// One request per line of standard input, one response per line of output: for scripts that run
// thousands of requests (the era fits), without a process per request. A line is read no further
// than the request limit: a longer one is answered with the limit's error and skipped to its end.
int run_api_lines() {
  std::vector<char> buffer(paleo::kMaxRequestBytes + 2);
  const auto size = static_cast<std::streamsize>(buffer.size());
  bool all_ok = true;
  while (true) {
    std::cin.getline(buffer.data(), size);
    std::string response;
    if (std::cin.fail() && !std::cin.eof() && std::cin.gcount() == size - 1) {
      std::cin.clear();
      std::cin.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
      const std::string message = "the line is longer than the request limit of " +
                                  std::to_string(paleo::kMaxRequestBytes) + " bytes (docs/api.md); reading stopped there";
      response = Json{{"ok", false}, {"error", {{"message", message}, {"layer", ""}, {"field", ""}}}}.dump();
    } else if (!std::cin && std::cin.gcount() == 0) {
      break;
    } else {
      const std::string line(buffer.data());
      if (line.empty()) continue;
      response = paleo::handle_request_json(line);
    }
    all_ok = all_ok && Json::parse(response)["ok"].get<bool>();
    std::cout << response << "\n";
  }
  std::cout.flush();
  return all_ok ? 0 : kExitBadInput;
}

int run_api(const Arguments& args) {
  if (args.has("lines")) return run_api_lines();
  // Read no further than the request limit; the core checks the nesting before building a tree.
  const std::string text = args.positional.empty() ? read_bounded_stdin() : read_bounded_file(args.positional[0]);
  const std::string response = paleo::handle_request_json(text);
  std::cout << response << "\n";
  return Json::parse(response)["ok"].get<bool>() ? 0 : kExitBadInput;
}

int run(int argc, char** argv) {
  std::vector<std::string> flags = {"use_only_gemm",  "use_pipeline", "help",
                                    "no_overlap",     "overlap",      "roofline",
                                    "input_gradient", "lines",        "fused_batchnorm_activation"};
  flags.insert(flags.end(), transformer_flag_options().begin(), transformer_flag_options().end());
  flags.insert(flags.end(), training_scheme_flag_options().begin(), training_scheme_flag_options().end());
  std::vector<std::string> valued = {
      "device_name", "network_name", "batch_size", "num_workers", "scaling", "ppp_comp", "ppp_comm",
      "parallel", "hybrid_workers", "software", "profile", "conv_algorithm", "workspace_limit_bytes",
      "fetch_bandwidth_gb_per_s", "separator", "format", "cluster", "nodes", "per_node", "intra", "inter",
      "nics_per_node", "collective", "bucket_bytes", "stages", "micro_batches", "schedule", "optimizer", "op",
      "algorithm", "workers", "bytes", "link", "bandwidth_gbps", "latency_us", "servers", "devices", "family",
      "holdout", "request", "parameters", "loss", "loss_scale", "software_era", "max_evaluations", "calibration",
      "memory_format", "input_shape"};
  valued.insert(valued.end(), transformer_valued_options().begin(), transformer_valued_options().end());
  valued.insert(valued.end(), training_scheme_valued_options().begin(), training_scheme_valued_options().end());
  Arguments args = parse_arguments(argc, argv, flags, valued);
  const std::string& cmd = args.command;
  if (cmd.empty() || cmd == "--help" || cmd == "-h" || cmd == "help" || args.has("help")) {
    std::cout << kUsage;
    return cmd.empty() ? kExitBadInput : 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::cout << "Paleo, version " << paleo::kVersion << "\n";
    return 0;
  }
  if (cmd == "api") return run_api(args);
  const Format format = parse_format(args.get("format", "table"));
  if (cmd == "collective") {
    Json r = paleo::handle_request(build_collective_request(args));
    if (!r["ok"].get<bool>()) return report(r);
    print_collective(std::cout, r, format);
    report_warnings(r);
    return 0;
  }
  if (cmd == "validate") {
    Json request = {{"command", "validate"}};
    if (args.has("family")) request["family"] = args.get("family", "");
    Json r = paleo::handle_request(request);
    if (!r["ok"].get<bool>()) return report(r);
    print_validation(std::cout, r, format);
    return 0;
  }
  if (cmd == "calibrate") {
    Json r = paleo::handle_request(build_calibrate_request(args));
    if (!r["ok"].get<bool>()) return report(r);
    print_calibration(std::cout, r, format);
    return 0;
  }
  if (cmd == "presets") {
    Json r = paleo::handle_request(Json{{"command", "presets"}});
    std::cout << paleo::dump_json(r, 2) << "\n";
    return 0;
  }
  if (cmd != "simulate" && cmd != "layers" && cmd != "estimate" && cmd != "summary" && cmd != "search" &&
      cmd != "plan" && cmd != "inference")
    throw std::invalid_argument("unknown command '" + cmd + "'\n" + kUsage);
  if (args.positional.empty()) throw std::invalid_argument("'" + cmd + "' needs a network spec or preset\n" + kUsage);
  int status = 0;
  for (const std::string& net_arg : args.positional) {
    Json net = net_argument(net_arg);
    apply_input_shape(args, net);
    const bool transformer = paleo::names_transformer_net(net) || cmd == "plan" || cmd == "inference";
    Json request = transformer ? build_transformer_request(cmd, args, net) : build_request(cmd, args, std::move(net));
    if (args.has("calibration")) apply_calibration(args.get("calibration", ""), request);
    Json response = paleo::handle_request(request);
    if (!response["ok"].get<bool>()) {
      status = report(response);
      continue;
    }
    if (transformer) {
      print_transformer(std::cout, response, format);
    } else if (cmd == "simulate") {
      SimulateContext context;
      context.net_argument = net_arg;
      context.use_only_gemm = args.has("use_only_gemm");
      context.separator = args.get("separator", "\t");
      print_simulation(std::cout, response, format, context);
    } else if (cmd == "summary") {
      print_summary(std::cout, response, format);
    } else if (cmd == "search") {
      print_search(std::cout, response, format);
    } else {
      print_layers(std::cout, response, format);
      if (response.contains("cluster")) print_cluster(std::cout, response["cluster"], format);
      if (response.contains("training_scheme")) print_training_scheme(std::cout, response["training_scheme"], format);
      if (cmd == "estimate") print_estimate_totals(std::cout, response, format);
    }
    if (!transformer) report_warnings(response);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "paleo: error: " << e.what() << "\n";
    return kExitBadInput;
  }
}
