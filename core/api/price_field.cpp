#include "core/api/price_field.h"

#include "core/base/error.h"
#include "core/spec/presets.h"

namespace paleo {

DevicePrice read_price_per_gpu_hour(const Json& request) {
  DevicePrice price;
  if (!request.contains("price_per_gpu_hour")) return price;
  const Json& v = request["price_per_gpu_hour"];
  if (v.is_string()) {
    for (const Json& p : Presets::instance().prices())
      if (p.value("key", "") == v.get<std::string>()) {
        price.usd_per_device_hour = p["usd_per_device_hour"].get<double>();
        price.key = v.get<std::string>();
        return price;
      }
    throw Error("unknown price preset '" + v.get<std::string>() + "'", "", "price_per_gpu_hour");
  }
  price.usd_per_device_hour = read_number(request, "price_per_gpu_hour", "");
  if (!(price.usd_per_device_hour >= 0 && price.usd_per_device_hour < 1e6))
    throw Error("must be from 0 to 1e6 US dollars, or a price preset key", "", "price_per_gpu_hour");
  return price;
}

}  // namespace paleo
