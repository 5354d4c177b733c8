#include "core/transformer/masked_attention_rate.h"

namespace paleo {

double masked_attention_sm_ms(const Device& device, double elements) {
  if (device.sm_count <= 0 || device.clock_mhz <= 0) return 0;
  const double elements_per_ms = device.sm_count * device.clock_mhz * 1e3 * kMaskedAttentionElementsPerSmCycle;
  return elements / elements_per_ms;
}

}  // namespace paleo
