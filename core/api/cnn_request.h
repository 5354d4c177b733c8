#pragma once
// The fields of a CNN request that choose how its kernels are priced: "precision",
// "software_era" and "efficiency" (paleo2026 only; docs/api.md, docs/model.md).
#include "core/base/json.h"
#include "core/cost/scenario.h"

namespace paleo {

// Sets s.precision and s.era from the request, after the profile, device and PPP are read.
// Without "software", "ppp_comp" and "ppp_comm", a paleo2026 request gets the CNN era of its
// device's generation; with one of them, the PPP formula. Throws paleo::Error naming the field.
void read_cnn_kernel_model(const Json& request, Scenario& s);

}  // namespace paleo
