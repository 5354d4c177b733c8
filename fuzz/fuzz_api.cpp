// libFuzzer target: any bytes as a request to the JSON entry point, the very function the
// WebAssembly binding (wasm/paleo_wasm.cpp) and `paleo api` call. Crashes, leaks, hangs, escaped
// exceptions, invalid JSON out and non-finite numbers out are findings (fuzz/fuzz_checks.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string request(reinterpret_cast<const char*>(data), size);
  paleo_fuzz::require_good_response(paleo_fuzz::api_input_problem(request));
  return 0;
}
