#pragma once
// Small layer graphs for the search tests: an 8x8x8x8 input, 3x3 convolutions and poolings
// (stride 1, SAME), activations and sums; and random ones drawn from a seeded generator.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace small_graphs {

using Json = nlohmann::ordered_json;

inline Json layer(const std::string& type, std::vector<std::string> parents) {
  Json l = {{"type", type}, {"parents", parents}};
  if (type == "Convolution") {
    l["filter"] = {3, 3, 8, 8};
    l["strides"] = {1, 1, 1, 1};
    l["padding"] = "SAME";
  } else if (type == "Pooling") {
    l["ksize"] = {1, 3, 3, 1};
    l["strides"] = {1, 1, 1, 1};
    l["padding"] = "SAME";
  }
  return l;
}

inline Json net_of(const std::vector<std::pair<std::string, Json>>& layers) {
  Json all = {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 8, 8, 8}}}}};
  for (const auto& [name, l] : layers) all[name] = l;
  return {{"name", "test"}, {"layers", all}};
}

// 3 to 5 layers, each a pooling, an activation or a convolution of an earlier layer, or the sum
// of two different earlier layers.
inline Json random_net(std::mt19937& random) {
  std::vector<std::pair<std::string, Json>> layers;
  std::vector<std::string> names = {"data"};
  const int count = 3 + static_cast<int>(random() % 3);
  for (int i = 0; i < count; ++i) {
    const std::string name = "l" + std::to_string(i);
    auto pick = [&] { return names[random() % names.size()]; };
    const int kind = static_cast<int>(random() % 4);
    const std::string first = pick(), second = pick();
    if (kind == 3 && first != second) {
      layers.push_back({name, layer("Elementwise", {first, second})});
    } else {
      layers.push_back({name, layer(kind == 0 ? "Pooling" : kind == 1 ? "ReLU" : "Convolution", {first})});
    }
    names.push_back(name);
  }
  return net_of(layers);
}

}  // namespace small_graphs
