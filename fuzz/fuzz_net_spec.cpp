// libFuzzer target: any bytes as a CNN network spec file (docs/spec-format.md), through the spec
// reader (parse, expand blocks, layer graph, shapes under both profiles) and, when it accepts the
// spec, priced as a `layers` request. The reader may only fail with paleo::Error; any other
// exception escapes and is a crash (fuzz/fuzz_checks.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  paleo_fuzz::require_good_response(paleo_fuzz::net_spec_input_problem(spec));
  return 0;
}
