#pragma once
// Printing transformer responses: the estimate's headline, breakdown, memory and operator
// table; the planner's ranked layouts; the inference figures.
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/output.h"

namespace paleo::cli {

void print_transformer(std::ostream& out, const nlohmann::ordered_json& response, Format format);

}  // namespace paleo::cli
