#include "core/validation/expected_error.h"

#include <cstring>

#include "core/spec/embedded_presets.h"
#include "core/base/error.h"

namespace paleo {
namespace {

constexpr const char* kBandsFile = "error_bands.json";

Json load_bands() {
  for (std::size_t i = 0; i < kEmbeddedPresetCount; ++i)
    if (std::strcmp(kEmbeddedPresets[i].path, kBandsFile) == 0) return Json::parse(kEmbeddedPresets[i].text());
  throw Error(std::string("presets/") + kBandsFile + " is not compiled in", "", "");
}

}  // namespace

const Json& error_bands() {
  static const Json bands = load_bands();
  return bands;
}

Json expected_error_json(const std::string& family) {
  const Json& families = error_bands().at("families");
  if (!families.contains(family)) throw Error("no expected error recorded for family '" + family + "'", "", "");
  const Json& f = families[family];
  return {{"family", family}, {"median_abs_error", f.at("median_abs_error")}, {"max_abs_error", f.at("max_abs_error")},
          {"cases", f.at("cases")}, {"cross_validated", f.at("cross_validated")},
          {"cross_validation", f.at("cross_validation")},
          {"source", error_bands().value("source", "docs/validation.md")}};
}

}  // namespace paleo
