#include "core/calibration/measurement_csv.h"

#include <vector>

#include "core/base/error.h"

namespace paleo {
namespace {

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// One record (RFC 4180 quoting; a quoted cell may not span lines here).
std::vector<std::string> split_record(const std::string& line, const std::string& where) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"' && trim(cell).empty()) {
      quoted = was_quoted = true;
      cell.clear();
    } else if (c == ',') {
      cells.push_back(was_quoted ? cell : trim(cell));
      cell.clear();
      was_quoted = false;
    } else {
      cell += c;
    }
  }
  if (quoted) throw Error("unterminated quoted cell on " + where, "", "");
  cells.push_back(was_quoted ? cell : trim(cell));
  return cells;
}

Json cell_value(const std::string& cell, const std::string& field) {
  check_json_text(cell, field);  // a cell nested too deep is an error, not text
  Json v = Json::parse(cell, nullptr, false);
  if (v.is_number() || v.is_boolean() || v.is_array() || v.is_object()) return v;
  return cell;
}

}  // namespace

Json measurements_from_csv(const std::string& text, const std::string& field) {
  std::vector<std::string> header;
  Json out = Json::array();
  std::size_t start = 0, line_number = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#') continue;
    const std::string where = "line " + std::to_string(line_number);
    std::vector<std::string> cells;
    try {
      cells = split_record(line, where);
    } catch (const Error& e) {
      throw Error(e.detail(), "", field);
    }
    if (header.empty()) {
      header = cells;
      bool measured = false;
      for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i].empty()) throw Error("the header (" + where + ") has an empty column name", "", field);
        for (std::size_t j = 0; j < i; ++j)
          if (header[j] == header[i]) throw Error("the header names column '" + header[i] + "' twice", "", field);
        measured = measured || header[i] == "measured_ms" || header[i] == "measured";
      }
      if (!measured) throw Error("the CSV header needs a measured_ms (or measured) column", "", field);
      continue;
    }
    if (cells.size() != header.size())
      throw Error(where + " has " + std::to_string(cells.size()) + " cells, the header " +
                      std::to_string(header.size()), "", field);
    Json m = Json::object(), request = Json::object(), compare = Json::object();
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (cells[i].empty()) continue;
      const std::string& name = header[i];
      if (name == "layer" || name == "pass") {
        compare[name] = cells[i];
      } else if (name == "compare" || name == "label") {
        m[name] = cells[i];
      } else if (name == "measured_ms" || name == "measured" || name == "weight") {
        m[name] = cell_value(cells[i], field);
      } else {
        request[name] = cell_value(cells[i], field);
      }
    }
    if (!compare.empty()) {
      if (m.contains("compare")) throw Error(where + " gives both a layer and a compare pointer", "", field);
      m["compare"] = compare;
    }
    if (!request.empty()) m["request"] = request;
    out.push_back(std::move(m));
  }
  if (header.empty()) throw Error("the CSV text has no header line", "", field);
  return out;
}

}  // namespace paleo
