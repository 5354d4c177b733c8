#include "core/cluster/gradient_sync.h"

#include <algorithm>

namespace paleo {

GradientSync gradient_sync(const std::vector<double>& backward_ms, const std::vector<double>& gradient_bytes,
                           double bucket_bytes, const std::function<CollectiveCost(double)>& all_reduce) {
  GradientSync s;
  double ready_ms = 0;     // when the current bucket's last gradient is ready
  double channel_ms = 0;   // when the communication channel is free again
  double pending = 0;      // bytes in the open bucket
  auto flush = [&] {
    if (pending <= 0) return;
    CollectiveCost c = all_reduce(pending);
    s.parts.alpha_ms += c.alpha_ms;
    s.parts.beta_ms += c.beta_ms;
    s.parts.reduction_ms += c.reduction_ms;
    s.parts.algorithm = c.algorithm;
    s.comm_ms += c.time_ms();
    channel_ms = std::max(ready_ms, channel_ms) + c.time_ms();
    ++s.buckets;
    pending = 0;
  };
  for (std::size_t i = 0; i < backward_ms.size(); ++i) {
    ready_ms += backward_ms[i];
    pending += gradient_bytes[i];
    if (pending > 0 && pending >= bucket_bytes) flush();
  }
  flush();
  s.backward_ms = ready_ms;
  s.backward_and_sync_ms = std::max(ready_ms, channel_ms);
  return s;
}

}  // namespace paleo
