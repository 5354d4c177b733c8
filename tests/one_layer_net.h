#pragma once
// A net of one layer "x" for tests: data -> pre (a free Generic layer, so that x does not read
// "data" and keeps its data gradient) -> x.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/api.h"

inline nlohmann::ordered_json one_layer_net(const nlohmann::ordered_json& layer, const nlohmann::ordered_json& tensor) {
  nlohmann::ordered_json x = layer;
  x["parents"] = {"pre"};
  return {{"name", "one"},
          {"layers", {{"data", {{"parents", nlohmann::ordered_json::array()}, {"type", "Input"}, {"tensor", tensor}}},
                      {"pre", {{"parents", {"data"}}, {"type", "Generic"}}},
                      {"x", x}}}};
}

// The response row of layer "x" (the request must succeed).
inline nlohmann::ordered_json x_row(const nlohmann::ordered_json& request) {
  const nlohmann::ordered_json out = paleo::handle_request(request);
  INFO(out.dump().substr(0, 400));
  REQUIRE(out["ok"].get<bool>());
  for (const nlohmann::ordered_json& row : out["layers"])
    if (row["name"] == "x") return row;
  FAIL("no layer x");
  return nlohmann::ordered_json();
}

// A kh x kw convolution of cin to cout channels in `groups` groups, no bias or activation.
inline nlohmann::ordered_json convolution(int kh, int kw, int cin, int cout, int stride, const char* padding,
                                          int groups = 1) {
  nlohmann::ordered_json c = {{"type", "Convolution"}, {"filter", {kh, kw, cin, cout}},
                              {"strides", {1, stride, stride, 1}}, {"padding", padding},
                              {"activation_fn", nullptr}, {"bias", false}};
  if (groups > 1) c["group"] = groups;
  return c;
}

// A k x k stride-1 SAME convolution of cin to cout channels, no bias or activation.
inline nlohmann::ordered_json square_conv(int k, int cin, int cout) { return convolution(k, k, cin, cout, 1, "SAME"); }
