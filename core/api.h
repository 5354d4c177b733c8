#pragma once
// The one entry point shared by the CLI, the WASM module and the tests: a JSON request document
// in, a JSON response document out (docs/api.md). Neither function throws; errors come back as
// {"ok": false, "error": {"message", "layer", "field"}}.
#include <string>

#include <nlohmann/json.hpp>

// ordered_json keeps the key order of a network spec: the original's layer order (and so the
// topological order and branch order) follows the order of the layers in the file.

namespace paleo {

nlohmann::ordered_json handle_request(const nlohmann::ordered_json& request);
std::string handle_request_json(const std::string& request_json);

}  // namespace paleo
