#include "core/base/error.h"

#include "core/base/request_limits.h"
#include "core/base/utf8.h"

namespace paleo {
namespace {

std::string compose(const std::string& message, const std::string& layer,
                    const std::string& field) {
  std::string out;
  if (!layer.empty()) out += "layer '" + layer + "': ";
  if (!field.empty()) out += "field '" + field + "': ";
  return out + message;
}

// Control characters written as JSON escapes: a NUL in a quoted key would otherwise end the
// message where what() is read as a C string ("unknown preset net 'ab"), and the others would
// act on the terminal the CLI prints to.
std::string escaped_controls(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7F) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

// Names and keys come from the request: quoted back valid and short, so that an error about a
// 10 MB key is not itself 20 MB, and never invalid JSON text.
Error::Error(const std::string& message, std::string layer, std::string field)
    : Error(shortened_utf8(escaped_controls(message), kMaxErrorMessageBytes),
            shortened_utf8(escaped_controls(layer), kMaxEchoedNameBytes),
            shortened_utf8(escaped_controls(field), kMaxEchoedNameBytes), Checked{}) {}

Error::Error(std::string message, std::string layer, std::string field, Checked)
    : std::runtime_error(compose(message, layer, field)),
      layer_(std::move(layer)),
      field_(std::move(field)),
      detail_(std::move(message)) {}

}  // namespace paleo
