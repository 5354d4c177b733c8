#pragma once
// A software era: the kernel efficiencies a generation of libraries and frameworks reaches
// (presets/software_eras.json: each era's parameters, the published cases they were fitted to,
// and the residuals). A request names one, or gets the era of its device's generation; an
// "efficiency" object overrides single parameters (a user's calibration).
#include <string>

#include "core/efficiency/kernel_efficiency.h"
#include "core/hardware.h"
#include "core/json.h"

namespace paleo {

struct SoftwareEra {
  std::string key = "untuned";
  std::string name = "untuned defaults";
  KernelEfficiency efficiency;
};

// Throws paleo::Error naming `field` for an unknown key.
SoftwareEra software_era(const std::string& key, const std::string& field);
// The era listing the device's generation; the untuned defaults when none does.
SoftwareEra default_software_era(const Device& device);

// `base` with the fields of `obj` ({"matmul_ceiling", "tile", "short_k", "vector_ceiling",
// "memory_fraction", "kernel_overhead_ms"}) replaced. Throws paleo::Error naming field.name.
KernelEfficiency efficiency_from_json(const Json& obj, KernelEfficiency base, const std::string& field);
Json efficiency_json(const KernelEfficiency& e);

}  // namespace paleo
