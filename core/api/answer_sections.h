#pragma once
// api/: a request's "sections", the top-level members of the answer it wants (docs/api.md, "Lean
// answers"): a caller that shows a few numbers (the embed element, the page's sweeps) is spared
// writing, sending and parsing the rest (a CNN's per-layer table is most of its answer). The
// answer's header (ok, command, kind) and its warnings always come.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

// The request's "sections" (a list of names, possibly empty); throws paleo::Error naming the field.
std::vector<std::string> read_sections(const Json& value);

// `answer` with only the header, the warnings and the members `sections` names. A name the answer
// has no member of is absent from it, as from the full answer (no `cluster` without a cluster):
// a caller lists what it shows, whichever of those this request has.
Json keep_sections(Json answer, const std::vector<std::string>& sections);

// Whether an answer should build its member `name`: always without "sections" (`given` false),
// else when listed. An answer may then skip building what keep_sections would drop (a CNN's
// per-layer table in a cluster sweep).
bool section_wanted(bool given, const std::vector<std::string>& sections, const std::string& name);

}  // namespace paleo
