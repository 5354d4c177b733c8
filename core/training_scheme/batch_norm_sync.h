#pragma once
// Batch normalisation under data parallelism (Ben-Nun & Hoefler's survey, section 5.1.1; feature P2
// of docs/training-schemes.md): global BN makes every BN layer a synchronisation point, a small
// all-reduce of its 2 C statistics (sum and sum of squares) forward and of its 2 C gradient sums
// backward; local BN (over each device's own batch) needs none.
#include <cstdint>
#include <functional>

#include "core/cluster/collectives.h"
#include "core/spec/network.h"

namespace paleo {

struct BatchNormSync {
  std::int64_t layers = 0;      // BatchNorm layers and convolutions with a fused BN
  double bytes_per_step = 0;    // all-reduced per step, forward and backward
  double time_ms = 0;           // on the critical path: each waits for its all-reduce
};

// `all_reduce(bytes)` prices one all-reduce. BN statistics are fp32 (4 bytes per value).
BatchNormSync batch_norm_sync(const Network& net, const std::function<CollectiveCost(double)>& all_reduce);

}  // namespace paleo
