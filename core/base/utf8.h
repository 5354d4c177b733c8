#pragma once
// Text from outside quoted back in a response: always valid UTF-8 (JSON text must be), and short.
#include <cstddef>
#include <string>

namespace paleo {

// `text` with each byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(const std::string& text);

// valid_utf8(text), cut at a character boundary to at most `max_bytes` bytes plus an ellipsis
// when it was longer.
std::string shortened_utf8(const std::string& text, std::size_t max_bytes);

}  // namespace paleo
