#pragma once
// The validation suite's cases held out of every fit, by id prefix: what the tests of a source's
// cases (tests/test_mlperf_*_cases.cpp) walk over.
#include <catch2/catch.hpp>

#include <string>

#include "core/spec/presets.h"

namespace paleo_test {

// Each validation case whose id starts with `prefix` (and holds `infix`, when one is given),
// checked to be held out of every fit ("fit": false) and handed to `check` with its id and
// request; the number of them.
template <typename Check>
std::size_t check_unfitted_cases(const std::string& prefix, const std::string& infix, Check check) {
  std::size_t count = 0;
  for (const auto& [file, doc] : paleo::Presets::instance().validation_files())
    for (const nlohmann::ordered_json& c : (*doc)["cases"]) {
      const std::string id = c["id"].get<std::string>();
      if (id.rfind(prefix, 0) != 0 || id.find(infix) == std::string::npos) continue;
      ++count;
      INFO(id);
      CHECK(c["fit"] == false);
      check(c, id, c["request"]);
    }
  return count;
}

// The number that follows `key` in `text` (0 when absent).
inline double number_after(const std::string& text, const std::string& key) {
  const auto at = text.find(key);
  if (at == std::string::npos) return 0;
  return std::stod(text.substr(at + key.size()));
}

}  // namespace paleo_test
