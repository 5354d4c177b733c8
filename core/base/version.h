#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.3.24";

}  // namespace paleo
