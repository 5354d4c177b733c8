#include "core/serving/serving_estimate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/base/error.h"

namespace paleo {
namespace {

void check_options(const ServingOptions& o) {
  if (o.pp < 1) throw Error("pp must be at least 1", "", "pp");
  if (!(o.concurrency >= 0) || !std::isfinite(o.concurrency))
    throw Error("concurrency must be a finite number >= 0", "", "concurrency");
  if (!(o.request_rate >= 0) || !std::isfinite(o.request_rate))
    throw Error("request_rate must be a finite number >= 0", "", "request_rate");
  if (!(o.memory_fraction > 0 && o.memory_fraction <= 1))
    throw Error("gpu_memory_utilization must be in (0, 1]", "", "gpu_memory_utilization");
  if (!(o.free_memory_fraction >= 0 && o.free_memory_fraction <= 1))
    throw Error("kv_cache_free_gpu_mem_fraction must be in (0, 1]", "", "kv_cache_free_gpu_mem_fraction");
  if (o.block_size < 1) throw Error("block_size must be at least 1", "", "block_size");
  if (o.prefill_chunk_tokens < 0) throw Error("max_num_batched_tokens must be >= 0", "", "max_num_batched_tokens");
  if (!(o.tpot_target_ms >= 0) || !std::isfinite(o.tpot_target_ms))
    throw Error("tpot_target_ms must be a finite number >= 0", "", "tpot_target_ms");
  if (!(o.ttft_target_ms >= 0) || !std::isfinite(o.ttft_target_ms))
    throw Error("ttft_target_ms must be a finite number >= 0", "", "ttft_target_ms");
  if (!(o.prefix_hit_rate >= 0 && o.prefix_hit_rate < 1))
    throw Error("prefix_cache_hit_rate must be in [0, 1)", "", "prefix_cache_hit_rate");
  if (o.speculative.draft_tokens < 0) throw Error("draft_tokens must be >= 0", "", "speculative.draft_tokens");
  if (!(o.speculative.acceptance_rate >= 0 && o.speculative.acceptance_rate <= 1))
    throw Error("acceptance_rate must be in [0, 1]", "", "speculative.acceptance_rate");
}

// A decode step or a prefill pass of a whole number of sequences, remembered: the bisection of a
// request rate asks for the same batches again.
class Steps {
 public:
  enum class Kind { kDecode, kPrefill };
  Steps(const TransformerConfig& c, InferenceOptions o, const Device& d, const Cluster& cl, Kind kind)
      : config_(c), options_(std::move(o)), device_(d), cluster_(cl), kind_(kind) {}
  double at(std::int64_t batch) {
    if (batch <= 0) return 0;
    auto it = memo_.find(batch);
    if (it != memo_.end()) return it->second;
    InferenceOptions o = options_;
    o.batch = batch;
    const InferenceEstimate e = estimate_inference(config_, o, device_, cluster_);
    return memo_[batch] = kind_ == Kind::kDecode ? e.decode_ms_per_token : e.prefill_ms;
  }
  // Between whole batches, linearly.
  double at(double batch) {
    const double low = std::floor(batch);
    const double lo = at(static_cast<std::int64_t>(low));
    if (batch == low) return lo;
    return lo + (batch - low) * (at(static_cast<std::int64_t>(low) + 1) - lo);
  }

 private:
  const TransformerConfig& config_;
  InferenceOptions options_;
  const Device& device_;
  const Cluster& cluster_;
  Kind kind_;
  std::map<std::int64_t, double> memo_;
};

}  // namespace

ServingEstimate estimate_serving(const TransformerConfig& c, const ServingOptions& o, const Device& device,
                                 const Cluster& cluster) {
  check_options(o);
  ServingEstimate e;
  const InferenceOptions& in = o.inference;
  e.devices_per_replica = in.tp * o.pp;
  if (static_cast<double>(cluster.devices()) < static_cast<double>(e.devices_per_replica))
    throw Error("tp x pp = " + std::to_string(e.devices_per_replica) + " is more than the cluster's " +
                    std::to_string(cluster.devices()) + " devices",
                "", "pp");
  e.replicas = cluster.devices() / e.devices_per_replica;
  const double pp = static_cast<double>(o.pp);

  // Prompts, batched as the engine admits them; their cached prefix is not recomputed.
  InferenceOptions prompts = in;
  const double kept = std::ceil(static_cast<double>(in.prompt_len) * (1 - o.prefix_hit_rate));
  prompts.prompt_len = std::max<std::int64_t>(1, static_cast<std::int64_t>(kept));
  Steps prefill(c, prompts, device, cluster, Steps::Kind::kPrefill);
  // Packed into a decode step's pass, the prompts' kernels are the step's own: no launches of theirs.
  InferenceOptions packed = prompts;
  packed.efficiency.kernel_overhead_ms = 0;
  packed.kernel_issue = KernelIssue::kFramework;
  Steps prefill_packed(c, packed, device, cluster, Steps::Kind::kPrefill);

  // The memory of one device: its stage's share of the weights and of each token's cache.
  InferenceOptions full = in;
  full.batch = 1;
  const InferenceEstimate shape = estimate_inference(c, full, device, cluster);
  e.weights_bytes = shape.weights_bytes / pp;
  const KvCacheRequirement need{shape.kv_bytes_per_token / pp, o.block_size, in.prompt_len + in.generate_len};
  e.kv = o.free_memory_fraction > 0 ? paged_kv_capacity_of_free(device.memory_bytes, o.free_memory_fraction,
                                                                e.weights_bytes, shape.activation_peak_bytes, need)
                                    : paged_kv_capacity(device.memory_bytes, o.memory_fraction, e.weights_bytes,
                                                        shape.activation_peak_bytes, need);
  if (e.kv.max_concurrency == 0)
    e.warnings.push_back("does not fit: after the weights and activations, the KV cache cannot hold one request of " +
                         std::to_string(in.prompt_len + in.generate_len) + " tokens");

  // Per generated token of each sequence: the pp stages carry pp batches in flight, each of C / pp
  // sequences; speculative decoding checks gamma + 1 positions per target step.
  // With CUDA graphs, the steps without a prompt replay the graph (continuous_batching.h); the
  // steps that admit one run eagerly.
  InferenceOptions eager = in;
  eager.cuda_graph_decode = false;
  InferenceOptions graphed = in;
  graphed.cuda_graph_decode = true;
  Steps target(c, eager, device, cluster, Steps::Kind::kDecode);
  Steps target_graph(c, graphed, device, cluster, Steps::Kind::kDecode);
  std::optional<Steps> draft;
  std::optional<Steps> draft_graph;
  if (o.draft) {
    draft.emplace(*o.draft, eager, device, cluster, Steps::Kind::kDecode);
    draft_graph.emplace(*o.draft, graphed, device, cluster, Steps::Kind::kDecode);
  }
  e.tokens_per_target_step = expected_tokens_per_target_step(o.speculative);
  const double positions = static_cast<double>(o.speculative.draft_tokens) + 1;
  auto decode_step = [&](Steps& t, std::optional<Steps>& d, double batch) {
    const double per_stage = batch / pp;
    if (!o.speculative.enabled()) return t.at(per_stage);
    return speculative_ms_per_token(o.speculative, t.at(per_stage * positions), d ? d->at(per_stage) : 0.0);
  };
  ServingCosts costs;
  costs.decode_step_ms = [&](double batch) { return decode_step(target, draft, batch); };
  if (o.cuda_graphs)
    costs.decode_only_step_ms = [&](double batch) { return decode_step(target_graph, draft_graph, batch); };
  costs.prefill_ms = [&](double count) { return prefill.at(count); };
  if (o.mixed_steps) costs.prefill_in_step_ms = [&](double count) { return prefill_packed.at(count); };
  costs.prompt_len = in.prompt_len;
  costs.generate_len = in.generate_len;
  costs.prefill_chunk_tokens = o.prefill_chunk_tokens;
  costs.max_concurrency = static_cast<double>(e.kv.max_concurrency);

  if (o.request_rate > 0) {
    e.point = serve_at_request_rate(costs, o.request_rate / static_cast<double>(e.replicas));
    if (e.point.saturated)
      e.warnings.push_back("saturated: the request rate is past what the replicas serve with the KV cache full; "
                           "requests queue and their time to first token grows without bound");
  } else {
    double concurrency = o.concurrency > 0 ? o.concurrency : static_cast<double>(in.batch);
    if (e.kv.max_concurrency > 0 && concurrency > costs.max_concurrency) {
      e.warnings.push_back("concurrency " + std::to_string(static_cast<long long>(concurrency)) +
                           " is more than the KV cache holds (" + std::to_string(e.kv.max_concurrency) +
                           " requests per replica): priced at that, the rest wait");
      concurrency = costs.max_concurrency;
    }
    e.point = serve_at_concurrency(costs, concurrency);
  }
  e.has_target = o.tpot_target_ms > 0 || o.ttft_target_ms > 0;
  if (e.has_target) {
    e.at_target = serve_at_latency_target(costs, o.tpot_target_ms, o.ttft_target_ms);
    if (!e.at_target) e.warnings.push_back("one request alone misses the latency target");
  }
  e.total_output_tokens_per_s = e.point.output_tokens_per_s * static_cast<double>(e.replicas);
  e.output_tokens_per_s_per_gpu =
      e.total_output_tokens_per_s / static_cast<double>(e.replicas * e.devices_per_replica);
  return e;
}

}  // namespace paleo
