#include "core/training_scheme/batch_norm_sync.h"

namespace paleo {

BatchNormSync batch_norm_sync(const Network& net, const std::function<CollectiveCost(double)>& all_reduce) {
  BatchNormSync out;
  for (const Layer& l : net.layers) {
    // Layer norm normalises each sample on its own device: nothing to synchronise.
    const bool bn = l.type == "BatchNorm" || l.fused_batch_norm;
    if (!bn || l.output.empty()) continue;
    const double channels = static_cast<double>(l.output.back());  // NHWC
    const double bytes = 2 * channels * 4;
    ++out.layers;
    out.bytes_per_step += 2 * bytes;
    out.time_ms += 2 * all_reduce(bytes).time_ms();
  }
  return out;
}

}  // namespace paleo
