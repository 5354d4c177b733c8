#include "core/api/answer_sections.h"

#include <algorithm>

#include "core/base/error.h"

namespace paleo {
namespace {

// More names than any answer has members: a longer list is a mistake, not a need.
constexpr std::size_t kMaxSections = 64;

bool always_kept(const std::string& key) {
  return key == "ok" || key == "command" || key == "kind" || key == "warnings";
}

}  // namespace

std::vector<std::string> read_sections(const Json& value) {
  if (!value.is_array()) throw Error("must be a list of the answer's member names", "", "sections");
  if (value.size() > kMaxSections)
    throw Error("lists " + std::to_string(value.size()) + " entries; the limit is " + std::to_string(kMaxSections), "",
                "sections");
  std::vector<std::string> names;
  for (const Json& v : value) {
    if (!v.is_string()) throw Error("must be a list of the answer's member names (strings)", "", "sections");
    names.push_back(v.get<std::string>());
  }
  return names;
}

bool section_wanted(bool given, const std::vector<std::string>& sections, const std::string& name) {
  return !given || std::find(sections.begin(), sections.end(), name) != sections.end();
}

Json keep_sections(Json answer, const std::vector<std::string>& sections) {
  const auto wanted = [&](const std::string& key) {
    return std::find(sections.begin(), sections.end(), key) != sections.end();
  };
  Json kept = Json::object();
  for (auto it = answer.begin(); it != answer.end(); ++it)
    if (always_kept(it.key()) || wanted(it.key())) kept[it.key()] = std::move(it.value());
  return kept;
}

}  // namespace paleo
