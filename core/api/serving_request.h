#pragma once
// api/: the serving fields of an `inference` request (docs/api.md, "Serving"): load (concurrency
// or request_rate), the paged KV cache (kv_cache_dtype, gpu_memory_utilization, block_size),
// chunked prefill (max_num_batched_tokens), speculative decoding and the prefix cache.
#include <vector>
#include <string>

#include "core/base/json.h"
#include "core/precision/dtype.h"
#include "core/serving/serving_estimate.h"

namespace paleo {

// The fields below, for the list of fields a transformer request takes: the registry's serving rows
// (core/api/command_registry.cpp).
const std::vector<std::string>& serving_request_fields();

// Lays the request's serving fields over `o` (its inference options already read). Throws
// paleo::Error naming the field.
void read_serving_request(const Json& request, ServingOptions& o);

// The engine's settings the request left to their defaults, with the values the estimate used
// (the answer's `assumed`): today's engines' CUDA graphs and packed steps, the runtime, the decode
// attention, the cache's format and memory rule, its block size, and a MoE's routing.
Json serving_assumed(const Json& request, const ServingOptions& o, Dtype activations, bool moe);

// The response's "serving" object; with a price per device-hour (0: none), the cost of a million
// output tokens.
Json serving_json(const ServingEstimate& e, double price_per_gpu_hour);

}  // namespace paleo
