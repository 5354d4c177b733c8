#pragma once
// How many tokens of keys and values a serving engine can hold, computed the way paged engines
// compute it (vLLM, vllm/worker/worker.py determine_num_available_blocks and
// vllm/worker/cache_engine.py get_cache_block_size): the memory left for the cache is the device's
// memory times the engine's memory fraction (gpu_memory_utilization, 0.9 by default) less what a
// profiling forward pass peaks at (the weights and the largest activations); the cache is cut
// into blocks of `block_size` tokens, each holding every layer's keys and values of those tokens;
// a request holds whole blocks.
#include <cstdint>

namespace paleo {

struct KvCacheRequirement {
  double bytes_per_token = 0;      // keys and values of one token, every layer, on one device
  std::int64_t block_size = 16;    // tokens per block (vLLM's default)
  std::int64_t tokens_per_request = 0;  // prompt + generated tokens of one request
};

struct PagedKvCapacity {
  double cache_bytes = 0;           // memory left for the cache (0 when none is left)
  double block_bytes = 0;
  std::int64_t blocks = 0;          // whole blocks that fit
  std::int64_t tokens = 0;          // blocks x block_size
  std::int64_t blocks_per_request = 0;
  std::int64_t max_concurrency = 0; // requests whose blocks fit at once
};

// Throws nothing; a non-positive requirement gives zero blocks.
PagedKvCapacity paged_kv_capacity(double capacity_bytes, double memory_fraction, double weights_bytes,
                                  double activation_peak_bytes, const KvCacheRequirement& r);

// The same with TensorRT-LLM's rule (KvCacheConfig.free_gpu_memory_fraction, "Default is 90%",
// tensorrt_llm/llmapi/llm_args.py; trtllm-bench's --kv_cache_free_gpu_mem_fraction, "Fraction of
// free memory to allocate for KV cache", tensorrt_llm/bench/build/tuning.py, whose estimate is
// cache_memory = (total_gpu_memory - engine_size) * kv_cache_gpu_mem_fraction): the cache takes
// `free_fraction` of the memory still free once the weights and the activations are in place,
// (capacity - weights - activations) x free_fraction, not a share of the whole device.
PagedKvCapacity paged_kv_capacity_of_free(double capacity_bytes, double free_fraction, double weights_bytes,
                                          double activation_peak_bytes, const KvCacheRequirement& r);

}  // namespace paleo
