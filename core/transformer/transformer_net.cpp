#include "core/transformer/transformer_net.h"

#include "core/base/error.h"
#include "core/spec/presets.h"
#include "core/transformer/hf_config.h"

namespace paleo {

bool is_transformer_net(const Json& net) {
  if (net.is_string()) return Presets::instance().find_transformer(net.get<std::string>()) != nullptr;
  return net.is_object() && (net.contains("transformer") || looks_like_hf_config(net));
}

TransformerNet transformer_net(const Json& net, const std::string& field) {
  TransformerNet out;
  if (net.is_string()) {
    const Json* doc = Presets::instance().find_transformer(net.get<std::string>());
    if (!doc) throw Error("unknown transformer preset '" + net.get<std::string>() + "'", "", field);
    out = transformer_net(*doc, field);
    out.key = net.get<std::string>();
    out.source = "preset";
    for (const char* k : {"year", "published_params", "sources"})
      if (doc->contains(k)) out.meta[k] = (*doc)[k];
    return out;
  }
  if (!net.is_object()) throw Error("must be a preset name or an object", "", field);
  out.key = "custom";
  if (net.contains("transformer")) {
    out.config = transformer_config_from_json(net["transformer"], field + ".transformer");
    out.source = "config";
    out.name = net.contains("name") && net["name"].is_string() ? net["name"].get<std::string>() : out.config.name;
  } else {
    out.config = transformer_config_from_hf(net, field);
    out.source = "huggingface";
    out.name = out.config.name;
  }
  return out;
}

}  // namespace paleo
