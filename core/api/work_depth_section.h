#pragma once
// The `work_depth` section of `layers` and `estimate` (docs/api.md; core/cost/work_depth.h).
#include "core/base/json.h"
#include "core/hardware/device.h"
#include "core/spec/network.h"

namespace paleo {

Json work_depth_json(const Device& device, const Network& net);

}  // namespace paleo
