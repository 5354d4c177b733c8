#include "cli/table_row.h"

namespace paleo::cli {

std::string table_cell(const std::string& text, bool csv) {
  if (!csv || text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

void table_row(std::ostream& out, const std::vector<std::string>& cells, bool csv) {
  for (std::size_t i = 0; i < cells.size(); ++i) out << (i ? (csv ? "," : "\t") : "") << table_cell(cells[i], csv);
  out << "\n";
}

}  // namespace paleo::cli
