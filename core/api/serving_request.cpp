#include "core/api/serving_request.h"

#include <cmath>

#include "core/api/command_registry.h"
#include "core/base/error.h"
#include "core/precision/dtype.h"
#include "core/transformer/transformer_net.h"

namespace paleo {
namespace {

double read_bounded(const Json& parent, const char* field, const std::string& path, double low, double high) {
  const double v = read_number(parent, field, "");
  if (!(v >= low && v <= high))
    throw Error("must be from " + echo(Json(low)) + " to " + echo(Json(high)) + ", got " + echo(parent[field]), "",
                path);
  return v;
}

std::int64_t read_whole(const Json& parent, const char* field, const std::string& path, double low, double high) {
  const double v = read_bounded(parent, field, path, low, high);
  if (v != std::floor(v)) throw Error("must be a whole number, got " + echo(parent[field]), "", path);
  return static_cast<std::int64_t>(v);
}

}  // namespace

const std::vector<std::string>& serving_request_fields() {
  // The registry's rows marked as serving fields: read by `inference` only.
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> names;
    for (const FieldSpec& f : field_specs())
      if (f.nets == FieldNets::kTransformer && f.only_command == "inference") names.push_back(f.name);
    return names;
  }();
  return fields;
}

Json serving_assumed(const Json& request, const ServingOptions& o, Dtype activations, bool moe) {
  Json assumed = Json::object();
  const auto unless_given = [&](const char* field, Json value) {
    if (!request.contains(field)) assumed[field] = std::move(value);
  };
  unless_given("cuda_graphs", o.cuda_graphs);
  unless_given("mixed_steps", o.mixed_steps);
  unless_given("runtime", runtime_name(o.inference.kernel_issue));
  unless_given("decode_attention", decode_attention_name(o.inference.decode_attention));
  unless_given("kv_cache_dtype", dtype_name(o.inference.kv_cache ? *o.inference.kv_cache : activations));
  if (!request.contains("kv_cache_free_gpu_mem_fraction")) unless_given("gpu_memory_utilization", o.memory_fraction);
  unless_given("block_size", o.block_size);
  if (moe) unless_given("moe_routing_skew", o.inference.moe_routing_skew);
  return assumed;
}

void read_serving_request(const Json& request, ServingOptions& o) {
  if (request.contains("concurrency")) o.concurrency = read_bounded(request, "concurrency", "concurrency", 1, 1 << 20);
  if (request.contains("request_rate"))
    o.request_rate = read_bounded(request, "request_rate", "request_rate", 1e-9, 1e9);
  if (o.concurrency > 0 && o.request_rate > 0)
    throw Error("give concurrency or request_rate, not both", "", "request_rate");
  if (request.contains("kv_cache_dtype"))
    o.inference.kv_cache = parse_dtype(read_string(request, "kv_cache_dtype", ""), "kv_cache_dtype");
  if (request.contains("gpu_memory_utilization"))
    o.memory_fraction = read_bounded(request, "gpu_memory_utilization", "gpu_memory_utilization", 0.01, 1);
  if (request.contains("kv_cache_free_gpu_mem_fraction")) {
    if (request.contains("gpu_memory_utilization"))
      throw Error("give gpu_memory_utilization or kv_cache_free_gpu_mem_fraction, not both", "",
                  "kv_cache_free_gpu_mem_fraction");
    o.free_memory_fraction =
        read_bounded(request, "kv_cache_free_gpu_mem_fraction", "kv_cache_free_gpu_mem_fraction", 0.01, 1);
  }
  if (request.contains("cuda_graphs")) o.cuda_graphs = read_bool(request, "cuda_graphs", "");
  if (request.contains("mixed_steps")) o.mixed_steps = read_bool(request, "mixed_steps", "");
  if (request.contains("runtime"))
    o.inference.kernel_issue = parse_runtime(read_string(request, "runtime", ""), "runtime");
  if (request.contains("moe_routing_skew"))
    o.inference.moe_routing_skew = read_bounded(request, "moe_routing_skew", "moe_routing_skew", 0, 8);
  if (request.contains("decode_attention"))
    o.inference.decode_attention =
        parse_decode_attention(read_string(request, "decode_attention", ""), "decode_attention");
  if (request.contains("block_size")) o.block_size = read_whole(request, "block_size", "block_size", 1, 1 << 16);
  if (request.contains("max_num_batched_tokens"))
    o.prefill_chunk_tokens = read_whole(request, "max_num_batched_tokens", "max_num_batched_tokens", 1, 1 << 24);
  if (request.contains("prefix_cache_hit_rate"))
    o.prefix_hit_rate = read_bounded(request, "prefix_cache_hit_rate", "prefix_cache_hit_rate", 0, 0.999);
  if (request.contains("tpot_target_ms"))
    o.tpot_target_ms = read_bounded(request, "tpot_target_ms", "tpot_target_ms", 1e-6, 1e9);
  if (request.contains("ttft_target_ms"))
    o.ttft_target_ms = read_bounded(request, "ttft_target_ms", "ttft_target_ms", 1e-6, 1e9);
  if (request.contains("speculative")) {
    const Json& s = request["speculative"];
    if (!s.is_object())
      throw Error("must be an object {\"draft_tokens\", \"acceptance_rate\", \"draft_net\"}", "", "speculative");
    for (auto it = s.begin(); it != s.end(); ++it)
      if (it.key() != "draft_tokens" && it.key() != "acceptance_rate" && it.key() != "draft_net")
        throw Error("unknown field '" + it.key() + "' (known: draft_tokens, acceptance_rate, draft_net)", "",
                    "speculative");
    if (!s.contains("draft_tokens") || !s.contains("acceptance_rate"))
      throw Error("needs draft_tokens and acceptance_rate", "", "speculative");
    o.speculative.draft_tokens = read_whole(s, "draft_tokens", "speculative.draft_tokens", 1, 64);
    o.speculative.acceptance_rate = read_bounded(s, "acceptance_rate", "speculative.acceptance_rate", 0, 1);
    if (s.contains("draft_net")) o.draft = transformer_net(s["draft_net"], "speculative.draft_net").config;
  }
}

namespace {

Json point_json(const ServingPoint& p, const ServingEstimate& e) {
  return {{"concurrency", p.concurrency}, {"ttft_ms", p.ttft_ms}, {"tpot_ms", p.tpot_ms},
          {"e2e_latency_ms", p.e2e_latency_ms}, {"requests_per_s", p.requests_per_s},
          {"total_requests_per_s", p.requests_per_s * static_cast<double>(e.replicas)},
          {"total_output_tokens_per_s", p.output_tokens_per_s * static_cast<double>(e.replicas)}};
}

}  // namespace

Json serving_json(const ServingEstimate& e, double price_per_gpu_hour) {
  // The load's figures as at a latency target, then the replica's and the cache's.
  Json out = point_json(e.point, e);
  out["output_tokens_per_s"] = e.point.output_tokens_per_s;
  out["replicas"] = e.replicas;
  out["devices_per_replica"] = e.devices_per_replica;
  out["output_tokens_per_s_per_gpu"] = e.output_tokens_per_s_per_gpu;
  out["saturated"] = e.point.saturated;
  out["tokens_per_target_step"] = e.tokens_per_target_step;
  out["weights_bytes"] = e.weights_bytes;
  out["kv_cache"] = {{"capacity_bytes", e.kv.cache_bytes}, {"block_bytes", e.kv.block_bytes}, {"blocks", e.kv.blocks},
                     {"tokens", e.kv.tokens}, {"blocks_per_request", e.kv.blocks_per_request}};
  out["max_concurrency"] = e.kv.max_concurrency;
  if (e.has_target) out["at_latency_target"] = e.at_target ? point_json(*e.at_target, e) : Json(nullptr);
  if (price_per_gpu_hour > 0 && e.total_output_tokens_per_s > 0) {
    // Every device of every replica, for the hour it takes to make the tokens.
    const double devices = static_cast<double>(e.replicas * e.devices_per_replica);
    out["usd_per_million_output_tokens"] = price_per_gpu_hour * devices / 3600 / e.total_output_tokens_per_s * 1e6;
  }
  return out;
}

}  // namespace paleo
