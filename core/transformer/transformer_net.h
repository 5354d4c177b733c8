#pragma once
// A request's `net` as a transformer: a transformer preset key, an object {"transformer": {...}}
// (a compact config, optionally with "name"), or a Hugging Face config.json object.
#include <string>

#include "core/base/json.h"
#include "core/transformer/transformer_config.h"

namespace paleo {

bool is_transformer_net(const Json& net);

struct TransformerNet {
  TransformerConfig config;
  std::string key;        // the preset key, or "custom"
  std::string name;       // human name
  std::string source;     // "preset", "config" or "huggingface"
  Json meta = Json::object();  // the preset's year, published_params and sources
};

// Throws paleo::Error naming `field` (e.g. "net.transformer.hidden").
TransformerNet transformer_net(const Json& net, const std::string& field);

}  // namespace paleo
