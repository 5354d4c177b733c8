#pragma once
// One device: its peaks, memory and generation. Values come from presets/devices.json or a
// request (docs/api.md, "device").
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
  // The rate a large streaming kernel reaches, read and write together (a measured element-wise
  // kernel over a tensor far larger than the caches). 0 = not measured. A serving step, which
  // streams its weights and KV cache, runs its memory-bound work at it where its era is a
  // training stack's (core/efficiency/software_era.h).
  double stream_bandwidth_gb_per_s = 0;
  bool is_gpu = true;
  // Streaming multiprocessors (compute units): how many tiles of a matrix product run at once,
  // for wave quantization (core/efficiency/kernel_efficiency.h). 0 = unknown: no wave effect.
  double sm_count = 0;
  std::string generation;             // architecture ("volta", "ampere", "hopper", ...): picks the software era
  // The cluster preset of the node this device is built into (its NVLink generation or PCIe, its
  // NICs): the links a request that states none is priced over (docs/cluster.md). Empty = none.
  std::string node;
  // Dense matrix-unit (tensor core) peaks per number format, 1e9 FLOP/s: "tf32", "fp16", "bf16",
  // "fp8" (core/precision/device_peak.h). Empty for devices without matrix units.
  std::map<std::string, double> peak_tensor_gflops;
};

}  // namespace paleo
