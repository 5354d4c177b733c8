#pragma once
// A point-to-point link of the alpha-beta model (presets/links.json, docs/links.md).
#include <string>

namespace paleo {

struct Link {
  std::string key;
  std::string name;
  double latency_us = 0;            // alpha: one-way small-message latency
  double bandwidth_gb_per_s = 0;    // per direction, 1e9 bytes/s: achievable unless told otherwise
  double peak_gb_per_s = 0;         // per direction, for reference

  double alpha_ms() const { return latency_us / 1e3; }
  double ms_per_byte() const { return 1e3 / (bandwidth_gb_per_s * 1e9); }
};

}  // namespace paleo
