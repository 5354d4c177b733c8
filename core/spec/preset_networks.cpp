#include "core/spec/preset_networks.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "core/spec/presets.h"

namespace paleo {

const PresetNetwork& preset_network(const std::string& key, const ModelProfile& profile) {
  // Never freed, like the presets they are read from.
  static std::mutex* lock = new std::mutex;
  static auto* read = new std::map<std::pair<std::string, const ModelProfile*>, std::unique_ptr<PresetNetwork>>;
  const std::lock_guard<std::mutex> guard(*lock);
  auto found = read->find({key, &profile});
  if (found != read->end()) return *found->second;
  auto preset = std::make_unique<PresetNetwork>();
  preset->spec = expand_net_spec(Presets::instance().net_document(key));
  preset->graph = build_layer_graph(preset->spec);
  preset->network = build_network(preset->spec, preset->graph, spec_batch_size(preset->spec), profile);
  return *read->emplace(std::make_pair(key, &profile), std::move(preset)).first->second;
}

}  // namespace paleo
