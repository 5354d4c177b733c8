#pragma once

namespace paleo {

inline constexpr const char* kVersion = "0.3.17";

}  // namespace paleo
