#pragma once
// Products and sums of user-supplied counts (devices, nodes, batches, elements, bytes), checked
// before they are formed: an overflow is a paleo::Error naming the field, never a wrapped number.
// Counts are 64-bit everywhere (`long` is 32 bits in WebAssembly).
#include <cstdint>
#include <limits>
#include <string>

namespace paleo {

constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();

// a x b for non-negative a and b; throws paleo::Error(layer, field) when it would exceed `limit`
// (or a factor is negative).
std::int64_t checked_multiply(std::int64_t a, std::int64_t b, const std::string& field,
                              std::int64_t limit = kMaxInt64, const std::string& layer = "");

// a + b for non-negative a and b, checked the same way.
std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string& field,
                         std::int64_t limit = kMaxInt64, const std::string& layer = "");

}  // namespace paleo
