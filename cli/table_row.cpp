#include "cli/table_row.h"

namespace paleo::cli {

std::string text_cell(const std::string& text) {
  if (!text.empty() && std::string("=+-@\t\r").find(text.front()) != std::string::npos) return "'" + text;
  return text;
}

std::string table_cell(const std::string& text, bool csv) {
  if (csv) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
  }
  if (text.find_first_of("\t\n\r") == std::string::npos) return text;
  std::string out;
  for (char ch : text) out += ch == '\t' ? std::string("\\t") : ch == '\n' ? std::string("\\n")
                            : ch == '\r' ? std::string("\\r") : std::string(1, ch);
  return out;
}

void table_row(std::ostream& out, const std::vector<std::string>& cells, bool csv) {
  out << joined_cells(cells, csv ? "," : "\t") << "\n";
}

std::string joined_cells(const std::vector<std::string>& cells, const std::string& separator) {
  const bool csv = separator == ",";
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? separator : "") + table_cell(cells[i], csv);
  return out;
}

}  // namespace paleo::cli
