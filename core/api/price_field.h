#pragma once
// api/: the request field "price_per_gpu_hour", shared by CNN and transformer requests: US
// dollars per device-hour, or the key of a price preset (presets/prices.json).
#include <string>

#include "core/base/json.h"

namespace paleo {

struct DevicePrice {
  double usd_per_device_hour = 0;  // 0 = unknown
  std::string key;                 // the price preset it came from, if any
};

// Reads request["price_per_gpu_hour"] (absent: unknown). Throws paleo::Error naming the field.
DevicePrice read_price_per_gpu_hour(const Json& request);

}  // namespace paleo
