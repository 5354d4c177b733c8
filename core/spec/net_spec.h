#pragma once
// A PALEO network spec with its Blocks and ModelParallel blocks expanded into a flat list of
// layers with resolved parent names (docs/spec-format.md).
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/json.h"

namespace paleo {

struct LayerSpec {
  std::string name;  // expanded: "block/sub", "block/sub@3"
  std::string type;
  const Json* params = nullptr;  // the layer's own fields, inside NetSpec::document
  std::vector<std::string> parents;
  int splits = 0;    // > 0 inside a ModelParallel block: Convolution divides its Cout by it
  // The device a layer runs on: the text after '@' for a split layer, else device 0.
  bool on_split_device = false;
  std::string split_device;  // only meaningful when on_split_device
  std::int64_t split_index = 0;  // the same number, for arithmetic (never parsed back from the text)
};

struct NetSpec {
  std::string name;
  std::vector<LayerSpec> layers;  // in the order of the file, blocks expanded in place
  std::unordered_map<std::string, int> index_of;
  // The spec as written, which the layers' params point into: read, never copied per layer
  // (shared by copies of the NetSpec).
  std::shared_ptr<const Json> document;
};

// Throws paleo::Error naming the layer and field on malformed specs. The spec is copied once.
NetSpec expand_net_spec(const Json& net);
// The same for a document that outlives its uses or is shared (a preset): no copy.
NetSpec expand_net_spec(std::shared_ptr<const Json> net);

}  // namespace paleo
