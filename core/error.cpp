#include "core/error.h"

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

Error::Error(const std::string& message, std::string layer, std::string field)
    : std::runtime_error(compose(message, layer, field)),
      layer_(std::move(layer)),
      field_(std::move(field)),
      detail_(message) {}

}  // namespace paleo
