#include "core/validation/validation_case.h"

#include "core/base/error.h"
#include "core/spec/presets.h"

namespace paleo {
namespace {

std::string as_pointer(const std::string& name, const std::string& where) {
  const std::string pointer = !name.empty() && name[0] == '/' ? name : "/" + name;
  try {
    (void)Json::json_pointer(pointer);  // reject a malformed pointer when loading, not per run
  } catch (const Json::exception&) {
    throw Error(where + ": 'compare' has a malformed JSON pointer '" + name + "'", "", "compare");
  }
  return pointer;
}

}  // namespace

ValidationCase parse_validation_case(const Json& entry, const std::string& file) {
  if (!entry.is_object()) throw Error("validation/" + file + ".json: every case must be an object", "", "cases");
  ValidationCase c;
  c.id = read_string(entry, "id", "");
  const std::string where = "validation case '" + c.id + "'";
  try {
    c.family = read_string(entry, "family", "");
    const Json& compare = require_field(entry, "compare", "");
    if (compare.is_string()) {
      c.compare.push_back(as_pointer(compare.get<std::string>(), where));
    } else {
      for (const std::string& name : read_strings(entry, "compare", "")) c.compare.push_back(as_pointer(name, where));
    }
    if (entry.contains("measured") && entry["measured"].is_boolean()) {
      // A published yes/no statement, compared with one boolean of the response.
      c.statement = true;
      c.stated = entry["measured"].get<bool>();
      if (c.compare.size() != 1) throw Error("a true/false 'measured' compares one field", "", "compare");
    } else {
      c.measured = read_number(entry, "measured", "");
      // The error divides by the measurement.
      if (!(c.measured > 0)) throw Error("'measured' must be positive (or true/false for a statement)", "", "measured");
    }
    if (entry.contains("expressible")) {
      if (!entry["expressible"].is_boolean()) throw Error("'expressible' must be true or false", "", "expressible");
      c.expressible = entry["expressible"].get<bool>();
    }
    if (entry.contains("why")) c.why = read_string(entry, "why", "");
    if (!c.expressible && c.why.empty()) throw Error("a case that is not expressible needs a 'why'", "", "why");
    c.source_url = read_string(require_field(entry, "source", ""), "url", "");
    c.request = require_field(entry, "request", "");
    if (!c.request.is_object()) throw Error("'request' must be an object", "", "request");
    // A case that asks for the suite would run the suite again.
    if (c.request.value("command", "") == "validate") throw Error("a case cannot run 'validate'", "", "request");
  } catch (const Error& e) {
    throw Error("validation/" + file + ".json: " + where + ": " + e.detail(), "", e.field());
  }
  return c;
}

std::vector<ValidationCase> load_validation_cases() {
  std::vector<ValidationCase> cases;
  const auto files = Presets::instance().validation_files();
  // A build that leaves the cases out (the WebAssembly module) has none until its host adds them.
  if (files.empty())
    throw Error("no validation cases: this build leaves presets/validation/ out and none were added", "", "");
  for (const auto& [file, doc] : files) {
    const Json& list = require_field(*doc, "cases", "");
    if (!list.is_array()) throw Error("validation/" + file + ".json: 'cases' must be a list", "", "cases");
    for (const Json& entry : list) cases.push_back(parse_validation_case(entry, file));
  }
  return cases;
}

}  // namespace paleo
