#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace paleo
