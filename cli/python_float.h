#pragma once
// Floats printed as Python 3's repr() prints them (shortest round-trip digits; fixed notation
// for exponents -4..15, else scientific), so that tables match the original's output.
#include <string>

namespace paleo::cli {

std::string python_repr(double value);

}  // namespace paleo::cli
