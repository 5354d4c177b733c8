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

}  // namespace

// Names and keys come from the request: quoted back valid and short, so that an error about a
// 10 MB key is not itself 20 MB, and never invalid JSON text.
Error::Error(const std::string& message, std::string layer, std::string field)
    : Error(shortened_utf8(message, kMaxErrorMessageBytes), shortened_utf8(layer, kMaxEchoedNameBytes),
            shortened_utf8(field, kMaxEchoedNameBytes), Checked{}) {}

Error::Error(std::string message, std::string layer, std::string field, Checked)
    : std::runtime_error(compose(message, layer, field)),
      layer_(std::move(layer)),
      field_(std::move(field)),
      detail_(std::move(message)) {}

}  // namespace paleo
