#pragma once
// The integer of a tensor dimension and a shape as a list of them: the JSON readers of base/
// read them, spec/shape.h computes with them.
#include <cstdint>
#include <vector>

namespace paleo {

using Dim = std::int64_t;
using Shape = std::vector<Dim>;

}  // namespace paleo
