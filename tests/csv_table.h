#pragma once
// A small reader for the golden CSV files in tests/data (RFC 4180: fields may be quoted, a quoted
// field may hold commas, newlines and doubled quotes). Rows come back as header -> text maps.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace paleo_test {

using CsvRow = std::map<std::string, std::string>;

struct CsvTable {
  std::vector<std::string> header;
  std::vector<CsvRow> rows;
};

// Parses CSV text; throws std::runtime_error on an unterminated quote or a row whose field count
// differs from the header's.
CsvTable parse_csv(const std::string& text);

// Reads and parses a file; throws std::runtime_error when it cannot be read.
CsvTable read_csv(const std::string& path);

// The path of a file in tests/data (the build passes its directory as PALEO_TEST_DATA_DIR).
std::string data_path(const std::string& file_name);

// The value of a column; throws std::runtime_error naming the column when the row has none.
const std::string& cell(const CsvRow& row, const std::string& column);

// A number in the text Python printed ("17342595072.0", "3e-06", "128"); throws
// std::runtime_error naming the column on anything else (an empty cell included).
double number(const CsvRow& row, const std::string& column);

// Splits "a,b,c" on a separator; empty pieces are kept.
std::vector<std::string> split(const std::string& text, char separator);

}  // namespace paleo_test
