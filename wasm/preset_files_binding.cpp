// The binding's addPresetFile: the presets/ files a module leaves out (the validation cases),
// handed to it by the page and the npm package when a section needs them. A binding of its own so
// that the estimate-only module, which runs no validation, links none of it (wasm/CMakeLists.txt).
#include <emscripten/bind.h>

#include <string>

#include "core/api.h"

namespace {

std::string add_preset_file(const std::string& path, const std::string& text) {
  try {
    return paleo::add_preset_file_json(path, text);
  } catch (...) {
    return std::string(R"({"ok":false,"error":{"message":"internal error","layer":"","field":"path"}})");
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(paleo_preset_files) { emscripten::function("addPresetFile", &add_preset_file); }
