#include "cli/transformer_request.h"

#include "cli/request_builder.h"

namespace paleo::cli {

using Json = nlohmann::ordered_json;

const std::vector<std::string>& transformer_valued_options() {
  static const std::vector<std::string> options = {"precision",
                                                   "seq_len",
                                                   "global_batch",
                                                   "micro_batch",
                                                   "tp",
                                                   "pp",
                                                   "dp",
                                                   "cp",
                                                   "ep",
                                                   "virtual_stages",
                                                   "recompute",
                                                   "zero",
                                                   "attention",
                                                   "train_tokens",
                                                   "price",
                                                   "prompt_len",
                                                   "generate_len",
                                                   "top",
                                                   "concurrency",
                                                   "request_rate",
                                                   "kv_cache_dtype",
                                                   "gpu_memory_utilization",
                                                   "block_size",
                                                   "max_num_batched_tokens",
                                                   "prefix_cache_hit_rate",
                                                   "draft_tokens",
                                                   "acceptance_rate",
                                                   "draft_net",
                                                   "tpot_target_ms",
                                                   "ttft_target_ms",
                                                   "kv_cache_free_gpu_mem_fraction",
                                                   "runtime",
                                                   "decode_attention",
                                                   "moe_routing_skew"};
  return options;
}

const std::vector<std::string>& transformer_flag_options() {
  static const std::vector<std::string> flags = {"sequence_parallel", "cuda_graphs", "mixed_steps", "no_cuda_graphs",
                                                 "no_mixed_steps"};
  return flags;
}

Json build_transformer_request(const std::string& command, const Arguments& args, const Json& net) {
  Json r = {{"command", command}, {"net", net}};
  if (args.has("device_name")) r["device"] = device_argument(args.get("device_name", ""));
  add_cluster_options(args, r);  // --cluster --nodes --per_node --intra --inter --nics_per_node
  if (args.has("devices")) r["devices"] = number_or_text(args.get("devices", ""));
  const char* const numeric[] = {"seq_len", "global_batch", "micro_batch", "tp", "pp", "dp", "cp", "ep",
                                 "virtual_stages", "zero", "train_tokens", "prompt_len", "generate_len", "top"};
  for (const char* name : numeric)
    if (args.has(name)) r[name] = number_or_text(args.get(name, ""));
  for (const char* name : {"precision", "recompute", "attention", "optimizer", "schedule"})
    if (args.has(name)) r[name] = args.get(name, "");
  if (args.has("sequence_parallel")) r["sequence_parallel"] = true;
  if (args.has("no_overlap")) r["overlap"] = false;
  if (args.has("price")) r["price_per_gpu_hour"] = number_or_text(args.get("price", ""));
  if (args.has("batch_size")) r["batch_size"] = number_or_text(args.get("batch_size", ""));
  // Serving (docs/serving.md).
  for (const char* name :
       {"concurrency", "request_rate", "gpu_memory_utilization", "kv_cache_free_gpu_mem_fraction", "block_size",
        "max_num_batched_tokens", "prefix_cache_hit_rate", "tpot_target_ms", "ttft_target_ms", "moe_routing_skew"})
    if (args.has(name)) r[name] = number_or_text(args.get(name, ""));
  for (const char* name : {"cuda_graphs", "mixed_steps"}) {  // on by default (today's engines)
    if (args.has(name)) r[name] = true;
    if (args.has(std::string("no_") + name)) r[name] = false;
  }
  for (const char* name : {"kv_cache_dtype", "runtime", "decode_attention"})
    if (args.has(name)) r[name] = args.get(name, "");
  if (args.has("draft_tokens") || args.has("acceptance_rate") || args.has("draft_net")) {
    Json s = Json::object();
    if (args.has("draft_tokens")) s["draft_tokens"] = number_or_text(args.get("draft_tokens", ""));
    if (args.has("acceptance_rate")) s["acceptance_rate"] = number_or_text(args.get("acceptance_rate", ""));
    if (args.has("draft_net")) s["draft_net"] = args.get("draft_net", "");
    r["speculative"] = s;
  }
  return r;
}

}  // namespace paleo::cli
