#pragma once
// api/: the `device` of every response, CNN or transformer: the device as priced, every field a
// request's device object takes (docs/api.md, "device"), so that it can be sent back as one.
#include "core/base/json.h"
#include "core/hardware/device.h"

namespace paleo {

Json device_json(const Device& d);

}  // namespace paleo
