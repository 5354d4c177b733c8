#pragma once
// Printing the `validate` response: one line per case, then the summary per family and overall.
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/output.h"

namespace paleo::cli {

void print_validation(std::ostream& out, const nlohmann::ordered_json& response, Format format);

}  // namespace paleo::cli
