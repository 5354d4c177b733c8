#pragma once
// The preset nets read once per process: each preset's expanded spec, layer graph and network
// (at the spec's batch size, per profile), which every request naming the preset copies and
// re-batches instead of reading the spec again. Presets never change, so neither do these.
#include <string>

#include "core/spec/layer_graph.h"
#include "core/spec/model_profile.h"
#include "core/spec/net_spec.h"
#include "core/spec/network.h"

namespace paleo {

struct PresetNetwork {
  NetSpec spec;
  LayerGraph graph;
  Network network;  // at the spec's batch size
};

// Throws paleo::Error (field "net") for an unknown preset, as Presets::net does.
const PresetNetwork& preset_network(const std::string& key, const ModelProfile& profile);

}  // namespace paleo
