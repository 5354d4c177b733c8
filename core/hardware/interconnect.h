#pragma once
// The interconnect of the original PALEO model: one bandwidth between workers, no latency
// (presets/interconnects.json, or a request's "interconnect"). The alpha-beta links are core/hardware/link.h.
#include <string>

namespace paleo {

struct Interconnect {
  std::string key;
  std::string name;
  double bandwidth_gbit_per_s = 0;  // 1e9 bit/s
};

}  // namespace paleo
