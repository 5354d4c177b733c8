#pragma once
// api/: what a request's "net" names, for the clients that build requests (the CLI chooses its
// transformer or CNN options by it) without reaching below the API.
#include <string>

#include "core/base/json.h"

namespace paleo {

// A transformer: a transformer preset's key, an object with "transformer", or a Hugging Face config.
bool names_transformer_net(const Json& net);

// A key of a built-in net, CNN or transformer.
bool is_preset_net_key(const std::string& key);

}  // namespace paleo
