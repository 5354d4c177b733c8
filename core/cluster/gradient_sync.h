#pragma once
// Gradient synchronisation of data parallelism: gradients are all-reduced in buckets, filled in
// backward order (PyTorch DDP), either after the backward pass (no overlap) or as soon as each
// bucket is complete, overlapping the rest of the backward pass on one communication channel (the
// overlap of the backward pass with communication, Ben-Nun & Hoefler's survey, section 5.3).
#include <cstdint>
#include <functional>
#include <vector>

#include "core/cluster/collectives.h"

namespace paleo {

struct GradientSync {
  std::int64_t buckets = 0;
  double comm_ms = 0;                // sum of the bucket all-reduces
  CollectiveCost parts;              // their alpha, beta and reduction parts, summed
  double backward_ms = 0;            // the backward pass alone
  double backward_and_sync_ms = 0;   // with overlap: until the last bucket is reduced
  double exposed_overlap_ms() const { return backward_and_sync_ms - backward_ms; }
};

// `backward_ms[i]` and `gradient_bytes[i]` per layer in BACKWARD order (last layer first);
// `all_reduce(bytes)` prices one bucket. `bucket_bytes` 0 = one bucket per layer with weights.
GradientSync gradient_sync(const std::vector<double>& backward_ms, const std::vector<double>& gradient_bytes,
                           double bucket_bytes, const std::function<CollectiveCost(double)>& all_reduce);

}  // namespace paleo
