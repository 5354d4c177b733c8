#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.3.16";

}  // namespace paleo
