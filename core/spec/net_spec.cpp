#include "core/spec/net_spec.h"

#include "core/base/error.h"
#include "core/base/request_limits.h"

namespace paleo {
namespace {

struct Expander {
  std::unordered_map<std::string, std::string> block_endpoints;  // block -> "block/endpoint"
  std::unordered_map<std::string, int> splits_of;                // "block/sub" -> splits
  double expanded_layers = 0;  // what expanding the blocks will make, counted before it is done
  NetSpec out;

  std::string endpoint_of(const std::string& name) const {
    auto it = block_endpoints.find(name);
    return it == block_endpoints.end() ? name : it->second;
  }

  static bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  // Resolves block names to their endpoints and the @all / @self suffixes (original _parents()).
  std::vector<std::string> resolve(const std::vector<std::string>& parents, int current_split,
                                   const std::string& layer) const {
    std::vector<std::string> resolved;
    for (const std::string& p : parents) {
      if (ends_with(p, "@all") || ends_with(p, "@self")) {
        bool all = ends_with(p, "@all");
        std::string base = p.substr(0, p.size() - (all ? 4 : 5));
        auto it = splits_of.find(base);
        if (it == splits_of.end()) {
          throw Error("parent '" + p + "' uses @" + (all ? "all" : "self") + " but '" + base +
                          "' is not a layer of a ModelParallel block",
                      layer, "parents");
        }
        if (all) {
          // Distinct parents cannot outnumber the layers: stop a list of repeated @all early.
          if (resolved.size() + static_cast<std::size_t>(it->second) > kMaxLayers)
            throw Error("names more than " + std::to_string(kMaxLayers) + " parents", layer, "parents");
          for (int s = 0; s < it->second; ++s) resolved.push_back(endpoint_of(base) + "@" + std::to_string(s));
        } else {
          if (current_split < 0) throw Error("parent '" + p + "': @self outside a ModelParallel block", layer, "parents");
          resolved.push_back(endpoint_of(base) + "@" + std::to_string(current_split));
        }
      } else {
        resolved.push_back(endpoint_of(p));
      }
    }
    return resolved;
  }

  void add(LayerSpec spec) {
    if (out.index_of.count(spec.name)) throw Error("duplicate layer name", spec.name, "name");
    out.index_of[spec.name] = static_cast<int>(out.layers.size());
    out.layers.push_back(std::move(spec));
  }

  static std::vector<std::string> parents_of(const Json& params, const std::string& layer) {
    if (!params.contains("parents")) return {};
    if (params["parents"].is_array() && params["parents"].size() > kMaxLayers)
      throw Error("names more than " + std::to_string(kMaxLayers) + " parents", layer, "parents");
    return read_strings(params, "parents", layer);
  }

  void collect_blocks(const Json& layers) {
    for (auto it = layers.begin(); it != layers.end(); ++it) {
      const Json& params = it.value();
      if (!params.is_object()) throw Error("must be an object", it.key(), "");
      const std::string type = read_string(params, "type", it.key());
      if (type != "Block" && type != "ModelParallel") {
        ++expanded_layers;
        continue;
      }
      const Json& sub = require_field(params, "layers", it.key());
      if (!sub.is_object() || sub.empty()) throw Error("must be a non-empty object of layers", it.key(), "layers");
      if (params.contains("endpoint")) {
        std::string endpoint = read_string(params, "endpoint", it.key());
        if (!sub.contains(endpoint)) throw Error("names no layer of the block", it.key(), "endpoint");
        block_endpoints[it.key()] = it.key() + "/" + endpoint;
      }
      if (type == "ModelParallel") {
        int splits = 1;
        if (params.contains("splits")) {
          Dim s = read_dim(params["splits"], "splits", it.key());
          if (s < 1 || s > kMaxModelParallelSplits)
            throw Error("must be between 1 and " + std::to_string(kMaxModelParallelSplits), it.key(), "splits");
          splits = static_cast<int>(s);
        }
        for (auto s = sub.begin(); s != sub.end(); ++s) splits_of[it.key() + "/" + s.key()] = splits;
        expanded_layers += static_cast<double>(sub.size()) * splits;
      } else {
        expanded_layers += static_cast<double>(sub.size());
      }
    }
  }

  void expand_block(const std::string& block, const Json& params, bool model_parallel) {
    const std::vector<std::string> block_parents = resolve(parents_of(params, block), -1, block);
    const Json& sub = params["layers"];
    int splits = 1;
    if (model_parallel) splits = splits_of[block + "/" + sub.begin().key()];
    for (int s = 0; s < splits; ++s) {
      for (auto it = sub.begin(); it != sub.end(); ++it) {
        LayerSpec spec;
        spec.name = block + "/" + it.key();
        if (!it.value().is_object()) throw Error("must be an object", spec.name, "");
        if (model_parallel) {
          spec.name += "@" + std::to_string(s);
          spec.splits = splits;
          spec.on_split_device = true;
          spec.split_device = std::to_string(s);
          spec.split_index = s;
        }
        spec.type = read_string(it.value(), "type", spec.name);
        if (spec.type == "Block" || spec.type == "ModelParallel")
          throw Error("blocks cannot be nested", spec.name, "type");
        spec.params = &it.value();
        std::vector<std::string> own = parents_of(it.value(), spec.name);
        if (own.empty()) {
          spec.parents = block_parents;
        } else {
          for (std::string& p : own) p = block + "/" + p;
          spec.parents = resolve(own, model_parallel ? s : -1, spec.name);
        }
        add(std::move(spec));
      }
    }
  }
};

}  // namespace

NetSpec expand_net_spec(const Json& net) {
  if (!net.is_object()) throw Error("a network spec must be a JSON object", "", "net");
  return expand_net_spec(std::make_shared<const Json>(net));
}

NetSpec expand_net_spec(std::shared_ptr<const Json> document) {
  const Json& net = *document;
  if (!net.is_object()) throw Error("a network spec must be a JSON object", "", "net");
  Expander ex;
  ex.out.document = std::move(document);
  if (net.contains("name")) {
    if (!net["name"].is_string()) throw Error("must be a string", "", "name");
    ex.out.name = net["name"].get<std::string>();
  }
  const Json& layers = require_field(net, "layers", "");
  if (!layers.is_object() || layers.empty()) throw Error("must be a non-empty object of layers", "", "layers");
  ex.collect_blocks(layers);
  if (ex.expanded_layers > static_cast<double>(kMaxLayers))
    throw Error("the net has " + std::to_string(static_cast<std::int64_t>(ex.expanded_layers)) +
                    " layers (blocks expanded); the limit is " + std::to_string(kMaxLayers) + " (docs/api.md)",
                "", "layers");
  for (auto it = layers.begin(); it != layers.end(); ++it) {
    const std::string type = it.value()["type"].get<std::string>();
    if (type == "Block" || type == "ModelParallel") {
      ex.expand_block(it.key(), it.value(), type == "ModelParallel");
      continue;
    }
    if (it.key().find('@') != std::string::npos)
      throw Error("'@' is reserved for model-parallel splits", it.key(), "name");
    LayerSpec spec;
    spec.name = it.key();
    spec.type = type;
    spec.params = &it.value();
    spec.parents = ex.resolve(Expander::parents_of(it.value(), it.key()), -1, it.key());
    ex.add(std::move(spec));
  }
  return std::move(ex.out);
}

}  // namespace paleo
