#pragma once
// api/: a request's "sections" (the top-level members of the answer it wants) or "omit_sections"
// (those it does not), docs/api.md, "Lean answers": a caller that shows a few numbers (the embed
// element, the page's sweeps) is spared writing, sending and parsing the rest (a CNN's per-layer
// table is most of its answer). The answer's header (ok, command, kind) and its warnings always
// come.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

// The members a request asks for: every one (neither field given), those "sections" lists, or all
// but those "omit_sections" lists.
struct AnswerSections {
  bool keep_given = false;
  std::vector<std::string> keep;
  bool omit_given = false;
  std::vector<std::string> omit;

  // Whether an answer should build its member `name`. An answer may skip building what apply()
  // would drop (a CNN's per-layer table in a cluster sweep or a page's re-estimate).
  bool wanted(const std::string& name) const;
  // `answer` with the header, the warnings and the members wanted. A name the answer has no member
  // of is absent from it, as from the full answer (no `cluster` without a cluster): a caller
  // lists what it shows, whichever of those this request has.
  Json apply(Json answer) const;
};

// The list of member names a request gives as `field` ("sections" or "omit_sections"), into
// `into`; throws paleo::Error naming the field (not a list of strings, too long, or both given).
void read_sections(const Json& value, const std::string& field, AnswerSections& into);

}  // namespace paleo
