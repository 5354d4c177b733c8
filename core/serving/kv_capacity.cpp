#include "core/serving/kv_capacity.h"

#include <algorithm>
#include <cmath>

namespace paleo {

namespace {

PagedKvCapacity blocks_in(double cache_bytes, const KvCacheRequirement& r) {
  PagedKvCapacity c;
  c.cache_bytes = std::max(0.0, cache_bytes);
  c.block_bytes = r.bytes_per_token * static_cast<double>(r.block_size);
  if (c.block_bytes <= 0 || r.block_size <= 0) return c;
  c.blocks = static_cast<std::int64_t>(std::floor(c.cache_bytes / c.block_bytes));
  c.tokens = c.blocks * r.block_size;
  c.blocks_per_request = (std::max<std::int64_t>(r.tokens_per_request, 1) + r.block_size - 1) / r.block_size;
  c.max_concurrency = c.blocks / c.blocks_per_request;
  return c;
}

}  // namespace

PagedKvCapacity paged_kv_capacity(double capacity_bytes, double memory_fraction, double weights_bytes,
                                  double activation_peak_bytes, const KvCacheRequirement& r) {
  return blocks_in(capacity_bytes * memory_fraction - weights_bytes - activation_peak_bytes, r);
}

PagedKvCapacity paged_kv_capacity_of_free(double capacity_bytes, double free_fraction, double weights_bytes,
                                          double activation_peak_bytes, const KvCacheRequirement& r) {
  return blocks_in((capacity_bytes - weights_bytes - activation_peak_bytes) * free_fraction, r);
}

}  // namespace paleo
