// The WebAssembly binding: the core's one JSON entry point, exposed to JavaScript with embind.
// handle_request_json never throws; the catch here is the last guard against an abort.
// addPresetFile is wasm/preset_files_binding.cpp's.
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

std::string version() { return paleo::kVersion; }

}  // namespace

EMSCRIPTEN_BINDINGS(paleo) {
  emscripten::function("handle", &handle);
  emscripten::function("version", &version);
}
