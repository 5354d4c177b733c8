#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.3.23";

}  // namespace paleo
