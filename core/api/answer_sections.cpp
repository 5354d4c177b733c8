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

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

void read_sections(const Json& value, const std::string& field, AnswerSections& into) {
  if (!value.is_array()) throw Error("must be a list of the answer's member names", "", field);
  if (value.size() > kMaxSections)
    throw Error("lists " + std::to_string(value.size()) + " entries; the limit is " + std::to_string(kMaxSections), "",
                field);
  std::vector<std::string> names;
  for (const Json& v : value) {
    if (!v.is_string()) throw Error("must be a list of the answer's member names (strings)", "", field);
    names.push_back(v.get<std::string>());
  }
  const bool omit = field == "omit_sections";
  if (omit ? into.keep_given : into.omit_given)
    throw Error("give the members wanted (sections) or those not (omit_sections), not both", "", field);
  (omit ? into.omit_given : into.keep_given) = true;
  (omit ? into.omit : into.keep) = std::move(names);
}

bool AnswerSections::wanted(const std::string& name) const {
  if (keep_given) return listed(keep, name);
  return !omit_given || !listed(omit, name);
}

Json AnswerSections::apply(Json answer) const {
  if (!keep_given && !omit_given) return answer;
  Json kept = Json::object();
  for (auto it = answer.begin(); it != answer.end(); ++it)
    if (always_kept(it.key()) || wanted(it.key())) kept[it.key()] = std::move(it.value());
  return kept;
}

}  // namespace paleo
