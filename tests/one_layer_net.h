#pragma once
// A net of one layer "x" for tests: data -> pre (a free Generic layer, so that x does not read
// "data" and keeps its data gradient) -> x.
#include <nlohmann/json.hpp>

inline nlohmann::ordered_json one_layer_net(const nlohmann::ordered_json& layer, const nlohmann::ordered_json& tensor) {
  nlohmann::ordered_json x = layer;
  x["parents"] = {"pre"};
  return {{"name", "one"},
          {"layers", {{"data", {{"parents", nlohmann::ordered_json::array()}, {"type", "Input"}, {"tensor", tensor}}},
                      {"pre", {{"parents", {"data"}}, {"type", "Generic"}}},
                      {"x", x}}}};
}
