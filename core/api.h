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
// Hands the core a presets/ file its build left out (CMake's PALEO_PRESETS_LEFT_OUT: the
// WebAssembly module leaves out the validation cases, which the page loads when needed):
// `path` relative to presets/ ("validation/<name>.json"), `text` the file. Answers
// {"ok": true, "path", "added"} (added false: the file was already there) or an error response.
std::string add_preset_file_json(const std::string& path, const std::string& text);

}  // namespace paleo
