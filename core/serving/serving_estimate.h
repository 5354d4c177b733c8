#pragma once
// A transformer served by replicas of tp x pp devices under continuous batching
// (continuous_batching.h), with the KV cache a paged engine allocates (kv_capacity.h), fp8
// weights and cache, speculative decoding (speculative_decoding.h) and a prefix cache. Each
// replica's steps are priced by the inference model (core/transformer/inference_step.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hardware/cluster.h"
#include "core/hardware/device.h"
#include "core/serving/continuous_batching.h"
#include "core/serving/kv_capacity.h"
#include "core/serving/speculative_decoding.h"
#include "core/transformer/inference_step.h"

namespace paleo {

struct ServingOptions {
  InferenceOptions inference;           // tp, lengths, precision, cache format, efficiency
  std::int64_t pp = 1;                  // pipeline stages of a replica (pp batches in flight)
  double concurrency = 0;               // requests in flight per replica (0: inference.batch)
  double request_rate = 0;              // requests/s over all replicas (0: by concurrency)
  double memory_fraction = 0.9;         // vLLM's gpu_memory_utilization default
  // TensorRT-LLM's kv_cache_free_gpu_mem_fraction: the cache takes this share of the memory left
  // after the weights and activations, in place of memory_fraction of the whole (0: unset).
  double free_memory_fraction = 0;
  // Both on, as today's engines run (docs/serving.md; continuous_batching.h):
  bool cuda_graphs = true;              // decode-only steps replay CUDA graphs
  bool mixed_steps = true;              // new prompts packed into the decode step's pass
  std::int64_t block_size = 16;         // tokens per KV block (vLLM's default)
  std::int64_t prefill_chunk_tokens = 0;  // chunked prefill's chunk (0: whole prompts)
  SpeculativeDecoding speculative;
  std::optional<TransformerConfig> draft;  // the draft model; none: drafts cost nothing (n-gram)
  double prefix_hit_rate = 0;           // share of each prompt found in the prefix cache
  double tpot_target_ms = 0;            // latency targets (0: none) for the load that meets them
  double ttft_target_ms = 0;
};

struct ServingEstimate {
  ServingPoint point;                   // one replica
  PagedKvCapacity kv;                   // one device of a replica
  std::int64_t replicas = 1;
  std::int64_t devices_per_replica = 1;
  double total_output_tokens_per_s = 0;  // every replica
  double output_tokens_per_s_per_gpu = 0;
  double tokens_per_target_step = 1;    // speculative decoding's expected yield
  double weights_bytes = 0;             // per device
  // With a latency target: the most load per replica that meets it (nullopt: one request alone
  // misses it).
  bool has_target = false;
  std::optional<ServingPoint> at_target;
  std::vector<std::string> warnings;
};

// Throws paleo::Error naming the field (tp, pp, concurrency, ...) for a layout the cluster cannot
// hold or values out of range.
ServingEstimate estimate_serving(const TransformerConfig& c, const ServingOptions& o, const Device& device,
                                 const Cluster& cluster);

}  // namespace paleo
