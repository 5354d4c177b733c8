#pragma once
// Devices, interconnects and software PPP pairs. Values come from presets/*.json or a request.
#include <map>
#include <string>

namespace paleo {

struct Device {
  std::string key;
  std::string name;
  double clock_mhz = 0;               // only sets the one-cycle floor of each term (paleo2017)
  double peak_gflops = 0;             // 1e9 FLOP/s
  double mem_bandwidth_gb_per_s = 0;  // paleo2017 divides by 2^30 (see ModelProfile)
  double memory_bytes = 0;            // 0 = unknown
  bool is_gpu = true;
  std::string generation;             // architecture ("volta", "ampere", "hopper", ...): picks the software era
  // Dense matrix-unit (tensor core) peaks per number format, 1e9 FLOP/s: "tf32", "fp16", "bf16",
  // "fp8" (core/precision/device_peak.h). Empty for devices without matrix units.
  std::map<std::string, double> peak_tensor_gflops;
};

struct Interconnect {
  std::string key;
  std::string name;
  double bandwidth_gbit_per_s = 0;  // 1e9 bit/s
};

// Platform percent of peak: the fraction of peak a framework reaches.
struct Software {
  std::string key;
  std::string name;
  double ppp_comp = 1.0;  // compute and local memory
  double ppp_comm = 1.0;  // network and cross-device fetches
};

}  // namespace paleo
