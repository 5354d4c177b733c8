#include "core/api/work_depth_section.h"

#include "core/cost/work_depth.h"

namespace paleo {

Json work_depth_json(const Device& device, const Network& net) {
  const double lanes = device_lanes(device);
  Json layers = Json::array();
  std::int64_t too_small = 0;
  for (const LayerWorkDepth& w : work_depth(net, lanes)) {
    if (!w.fills_device) ++too_small;
    layers.push_back({{"name", w.name}, {"type", w.type}, {"work", w.work}, {"depth", w.depth},
                      {"parallelism", w.parallelism()}, {"fills_device", w.fills_device}});
  }
  return {{"device_lanes", lanes}, {"layers_too_small", too_small}, {"layers", layers}};
}

}  // namespace paleo
