#include "core/base/checked_math.h"

#include "core/base/error.h"

namespace paleo {
namespace {

std::string limit_text(std::int64_t limit) {
  return limit == kMaxInt64 ? "the 64-bit integer range" : "the limit of " + std::to_string(limit) + " (docs/api.md)";
}

void require_non_negative(std::int64_t a, std::int64_t b, const std::string& field, const std::string& layer) {
  if (a < 0 || b < 0)
    throw Error("counts must not be negative, got " + std::to_string(a) + " and " + std::to_string(b), layer, field);
}

}  // namespace

std::int64_t checked_multiply(std::int64_t a, std::int64_t b, const std::string& field, std::int64_t limit,
                              const std::string& layer) {
  require_non_negative(a, b, field, layer);
  // Division instead of the product: the product itself may not be representable.
  if (a != 0 && b > limit / a)
    throw Error(std::to_string(a) + " x " + std::to_string(b) + " is more than " + limit_text(limit), layer, field);
  return a * b;
}

std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string& field, std::int64_t limit,
                         const std::string& layer) {
  require_non_negative(a, b, field, layer);
  if (a > limit - b)
    throw Error(std::to_string(a) + " + " + std::to_string(b) + " is more than " + limit_text(limit), layer, field);
  return a + b;
}

}  // namespace paleo
