#pragma once
// One row of a tab-separated table or of a CSV file. A CSV cell holding a comma, quote or line
// break is quoted, its quotes doubled (RFC 4180); a table cell's tabs and line breaks are written
// as \t, \n and \r, so that no name from a request splits a row.
#include <ostream>
#include <string>
#include <vector>

namespace paleo::cli {

// A cell of text from a request or a preset (a layer's name or type, a label, a warning), not a
// number: text a spreadsheet would run as a formula (leading = + - @, tab or carriage return) gets
// a leading ', as the page's CSV export does (web/src/dom.js, csv). Numbers keep their sign.
std::string text_cell(const std::string& text);

// The cell as written in a CSV file (`csv`) or a table.
std::string table_cell(const std::string& text, bool csv);
void table_row(std::ostream& out, const std::vector<std::string>& cells, bool csv);

// The cells written with `separator` between them, each as table_cell writes it (CSV when the
// separator is a comma).
std::string joined_cells(const std::vector<std::string>& cells, const std::string& separator);

}  // namespace paleo::cli
