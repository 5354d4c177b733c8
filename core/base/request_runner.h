#pragma once
// A function that answers a whole JSON request. The API layer hands `handle_request` to the
// commands that run other requests (validate, calibrate), so those layers never include the API.
#include <functional>

#include "core/base/json.h"

namespace paleo {

using RequestRunner = std::function<Json(const Json&)>;

}  // namespace paleo
