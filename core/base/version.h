#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.2.0";

}  // namespace paleo
