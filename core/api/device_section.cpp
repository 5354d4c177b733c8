#include "core/api/device_section.h"

namespace paleo {

Json device_json(const Device& d) {
  Json j = {{"key", d.key},
            {"name", d.name},
            {"generation", d.generation},
            {"clock_mhz", d.clock_mhz},
            {"peak_gflops", d.peak_gflops},
            {"peak_tensor_gflops", Json::object()},
            {"mem_bandwidth_gb_per_s", d.mem_bandwidth_gb_per_s},
            {"memory_bytes", d.memory_bytes},
            {"sm_count", d.sm_count},
            {"is_gpu", d.is_gpu}};
  for (const auto& [format, gflops] : d.peak_tensor_gflops) j["peak_tensor_gflops"][format] = gflops;
  if (d.stream_bandwidth_gb_per_s > 0) j["stream_bandwidth_gb_per_s"] = d.stream_bandwidth_gb_per_s;
  if (!d.node.empty()) j["node"] = d.node;  // so that the device sent back keeps its node's links
  return j;
}

}  // namespace paleo
