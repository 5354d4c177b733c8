#include "core/base/utf8.h"

namespace paleo {
namespace {

const char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD
const char kEllipsis[] = "\xE2\x80\xA6";     // U+2026

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence starting at text[i], or 0 (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF).
std::size_t sequence_length(const std::string& text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = at(i);
  const std::size_t left = text.size() - i;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return left >= 2 && continuation(at(i + 1)) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (left < 3 || !continuation(at(i + 1)) || !continuation(at(i + 2))) return 0;
    if (c == 0xE0 && at(i + 1) < 0xA0) return 0;  // overlong
    if (c == 0xED && at(i + 1) > 0x9F) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (left < 4 || !continuation(at(i + 1)) || !continuation(at(i + 2)) || !continuation(at(i + 3))) return 0;
    if (c == 0xF0 && at(i + 1) < 0x90) return 0;  // overlong
    if (c == 0xF4 && at(i + 1) > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::string shortened_utf8(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) {
    std::string whole = valid_utf8(text);
    if (whole.size() <= max_bytes) return whole;
  }
  // Only the head is looked at (a 10 MB name costs no more than a short one); 3 bytes more so that
  // every character starting inside the limit is whole.
  const std::string head = valid_utf8(text.substr(0, max_bytes + 3));
  std::size_t cut = 0;
  while (cut < head.size()) {
    const std::size_t n = sequence_length(head, cut);
    if (cut + n > max_bytes) break;
    cut += n;
  }
  return head.substr(0, cut) + kEllipsis;
}

}  // namespace paleo
