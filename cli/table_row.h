#pragma once
// One row of a tab-separated table or of a CSV file (cells holding commas or quotes quoted).
#include <ostream>
#include <string>
#include <vector>

namespace paleo::cli {

// A CSV cell holding commas, quotes or newlines is quoted, its quotes doubled.
std::string table_cell(const std::string& text, bool csv);
void table_row(std::ostream& out, const std::vector<std::string>& cells, bool csv);

}  // namespace paleo::cli
