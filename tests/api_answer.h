#pragma once
// The API's answer to a request the test expects to succeed: it stops the test there, naming the
// request and the start of the answer, when the answer is an error.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/api.h"

inline nlohmann::ordered_json ok_answer(const nlohmann::ordered_json& request) {
  const nlohmann::ordered_json out = paleo::handle_request(request);
  INFO("request: " << request.dump().substr(0, 1000));
  INFO("response: " << out.dump().substr(0, 2000));
  REQUIRE(out.value("ok", false));
  return out;
}

// The row of layer `name` in a `layers` or `estimate` answer; fails the test when there is none.
inline const nlohmann::ordered_json& layer_row(const nlohmann::ordered_json& out, const std::string& name) {
  for (const nlohmann::ordered_json& l : out["layers"])
    if (l["name"] == name) return l;
  FAIL("no layer " << name);
  return out;
}
