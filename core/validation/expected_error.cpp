#include "core/validation/expected_error.h"

#include <cstdio>
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

// "12.3 %": one decimal, as the page prints percentages.
std::string percent_text(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f %%", fraction * 100);
  return buffer;
}

// How the family's residuals were obtained, in words.
std::string cross_validation_words(const std::string& kind) {
  if (kind == "leave_one_source_out") return ", each predicted without its own source";
  if (kind == "leave_one_case_out") return ", each predicted without itself";
  if (kind == "out_of_sample") return ", nothing fitted to them";
  return "";
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
  const std::string kind = f.at("cross_validation").get<std::string>();
  // Whether each case was predicted without itself or its source (the file's "cross_validated"
  // says the same; the page's module leaves it out, cmake/compact_presets.mjs).
  const bool cross_validated = kind == "leave_one_source_out" || kind == "leave_one_case_out";
  // The one sentence the CLI, the page and the embed print beside an estimate.
  const std::string summary = "typically within \u00b1" + percent_text(f.at("median_abs_error").get<double>()) +
                              " on measured cases of this kind (median), up to \u00b1" +
                              percent_text(f.at("max_abs_error").get<double>()) + " (" +
                              std::to_string(f.at("cases").get<long long>()) + " " + family + " cases" +
                              cross_validation_words(kind) + ")";
  return {{"family", family},
          {"median_abs_error", f.at("median_abs_error")},
          {"max_abs_error", f.at("max_abs_error")},
          {"cases", f.at("cases")},
          {"cross_validated", cross_validated},
          {"cross_validation", kind},
          {"summary", summary},
          {"source", "docs/validation.md"}};
}

}  // namespace paleo
