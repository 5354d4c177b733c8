#include "csv_table.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace paleo_test {

CsvTable parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, field_started = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
      field_started = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
      field_started = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (field_started || !field.empty() || !record.empty()) {
        record.push_back(field);
        records.push_back(record);
      }
      record.clear();
      field.clear();
      field_started = false;
    } else {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw std::runtime_error("CSV: unterminated quoted field");
  if (field_started || !field.empty() || !record.empty()) {
    record.push_back(field);
    records.push_back(record);
  }
  CsvTable table;
  if (records.empty()) return table;
  table.header = records[0];
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != table.header.size())
      throw std::runtime_error("CSV: record " + std::to_string(r) + " has " + std::to_string(records[r].size()) +
                               " fields, the header " + std::to_string(table.header.size()));
    CsvRow row;
    for (std::size_t k = 0; k < table.header.size(); ++k) row[table.header[k]] = records[r][k];
    table.rows.push_back(std::move(row));
  }
  return table;
}

CsvTable read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return parse_csv(text.str());
}

std::string data_path(const std::string& file_name) { return std::string(PALEO_TEST_DATA_DIR) + "/" + file_name; }

const std::string& cell(const CsvRow& row, const std::string& column) {
  auto it = row.find(column);
  if (it == row.end()) throw std::runtime_error("CSV: no column '" + column + "'");
  return it->second;
}

double number(const CsvRow& row, const std::string& column) {
  const std::string& text = cell(row, column);
  if (text.empty()) throw std::runtime_error("CSV: column '" + column + "' is empty");
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE)
    throw std::runtime_error("CSV: column '" + column + "' is not a number: '" + text + "'");
  return v;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : text) {
    if (c == separator) {
      parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back(part);
  return parts;
}

}  // namespace paleo_test
