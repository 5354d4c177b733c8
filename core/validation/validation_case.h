#pragma once
// validation/: Paleo's predictions against published measurements (docs/validation.md). This
// file: one case of presets/validation/*.json as the suite runs it — its request, the response
// fields it compares, the measured figure (or a published true/false statement, such as "this
// layout runs out of memory"), and whether the model can express what the source states.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

struct ValidationCase {
  std::string id;
  std::string family;
  // JSON pointers into the response; the prediction is their sum (e.g. forward + backward).
  std::vector<std::string> compare;
  double measured = 0;
  // A statement case: the source states a yes/no fact (a layout fits, or runs out of memory), and
  // the response's boolean at the one compare pointer either agrees or not. No error is computed.
  bool statement = false;
  bool stated = false;  // the statement's value, when `statement`
  bool expressible = true;
  std::string why;  // what the source states that the model cannot set (when not expressible)
  std::string source_url;
  Json request;
};

// Every case of the embedded case files, files in name order and cases in file order. Throws
// paleo::Error naming the file and case for a malformed entry.
std::vector<ValidationCase> load_validation_cases();

// One entry of a case file. A compare name without a leading '/' means "/name".
ValidationCase parse_validation_case(const Json& entry, const std::string& file);

}  // namespace paleo
