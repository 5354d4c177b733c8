#pragma once
// Reading and validating a request document (docs/api.md) into a Scenario and its options.
#include <string>
#include <vector>

#include "core/json.h"
#include "core/scenario.h"

namespace paleo {

struct Request {
  std::string command;
  bool has_net = false;
  Scenario scenario;  // complete when has_net
  std::string parallel = "data";
  std::vector<long> workers = {1, 2, 4, 8, 16, 32, 64, 128};
  bool workers_given = false;
  std::vector<std::string> scalings = {"weak", "strong"};
  long hybrid_workers = 1;
};

// Throws paleo::Error naming the request field (or the layer and field of the spec).
Request parse_request(const Json& request);

}  // namespace paleo
