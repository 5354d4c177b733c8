#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.3.25";

}  // namespace paleo
