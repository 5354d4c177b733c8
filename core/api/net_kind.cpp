#include "core/api/net_kind.h"

#include "core/spec/presets.h"
#include "core/transformer/transformer_net.h"

namespace paleo {

bool names_transformer_net(const Json& net) { return is_transformer_net(net); }

bool is_preset_net_key(const std::string& key) {
  const Presets& presets = Presets::instance();
  for (const std::string& k : presets.net_keys())
    if (k == key) return true;
  return presets.find_transformer(key) != nullptr;
}

}  // namespace paleo
