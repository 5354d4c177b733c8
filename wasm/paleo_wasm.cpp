// The WebAssembly binding: the core's one JSON entry point, exposed to JavaScript with embind.
// handle_request_json never throws; the catch here is the last guard against an abort.
#include <emscripten/bind.h>

#include <exception>
#include <string>

#include "core/api.h"
#include "core/base/version.h"

namespace {

std::string handle(const std::string& request_json) {
  try {
    return paleo::handle_request_json(request_json);
  } catch (const std::exception&) {
    return std::string(R"({"ok":false,"error":{"message":"internal error","layer":"","field":""}})");
  } catch (...) {
    return std::string(R"({"ok":false,"error":{"message":"internal error","layer":"","field":""}})");
  }
}

std::string add_preset_file(const std::string& path, const std::string& text) {
  try {
    return paleo::add_preset_file_json(path, text);
  } catch (...) {
    return std::string(R"({"ok":false,"error":{"message":"internal error","layer":"","field":"path"}})");
  }
}

std::string version() { return paleo::kVersion; }

}  // namespace

EMSCRIPTEN_BINDINGS(paleo) {
  emscripten::function("handle", &handle);
  emscripten::function("version", &version);
  emscripten::function("addPresetFile", &add_preset_file);
}
