#pragma once
// Comparison of a response value with a golden value of the original implementation: relative
// tolerance 1e-9 (the original's outputs are Python floats printed in full); a reference value
// that is exactly 0 must come back as 0 or below 1e-12 in magnitude. A mismatch fails the
// current test case (without stopping it) with the file/run, the layer, the column and both
// values, so one run reports every bad value.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "csv_table.h"

namespace paleo_test {

using Json = nlohmann::ordered_json;

constexpr double kGoldenRelativeTolerance = 1e-9;
constexpr double kGoldenZeroTolerance = 1e-12;

inline bool golden_close(double expected, double got) {
  if (!std::isfinite(got)) return false;
  if (expected == 0) return std::fabs(got) < kGoldenZeroTolerance;
  return std::fabs(got - expected) <= kGoldenRelativeTolerance * std::fabs(expected);
}

inline std::string full_precision(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The number at a dotted path ("forward.comp_ms", "comm_ms.TreeAllReduce") of a JSON object, or
// NaN when a step is missing or the value is not a number (which then never compares equal).
inline double json_at(const Json& obj, const std::string& path) {
  const Json* node = &obj;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(key)) return std::numeric_limits<double>::quiet_NaN();
    node = &(*node)[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node->is_number() ? node->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

// Counts every golden value compared and every mismatch (for the summary line of a test).
struct GoldenTally {
  long values = 0;
  long mismatches = 0;
};

// Compares one value; on a mismatch fails the running test case with a message naming `where`
// (file and run or net/device), the layer (may be empty), the CSV column and the response path.
inline bool check_golden(GoldenTally& tally, const std::string& where, const std::string& layer,
                         const std::string& column, double expected, const Json& response_obj,
                         const std::string& response_path) {
  ++tally.values;
  const double got = json_at(response_obj, response_path);
  if (golden_close(expected, got)) return true;
  ++tally.mismatches;
  std::string message = "golden mismatch: " + where;
  if (!layer.empty()) message += ", layer '" + layer + "'";
  message +=
      ", column '" + column + "' (response " + response_path + "): expected " + full_precision(expected) + ", got ";
  if (std::isnan(got)) {
    message += "no number";
  } else {
    message += full_precision(got);
    if (expected != 0)
      message += " (relative error " + full_precision(std::fabs(got - expected) / std::fabs(expected)) + ")";
  }
  FAIL_CHECK(message);
  return false;
}

// The same for a value already extracted (computed from several response numbers).
inline bool check_golden_value(GoldenTally& tally, const std::string& where, const std::string& layer,
                               const std::string& column, double expected, double got) {
  Json holder = Json::object();
  if (std::isfinite(got)) holder["value"] = got;
  return check_golden(tally, where, layer, column, expected, holder, "value");
}

// A golden file of tests/data, read; the test stops there when it has no rows.
inline CsvTable golden_table(const std::string& file) {
  CsvTable table = read_csv(data_path(file));
  REQUIRE(table.rows.size() > 0);
  return table;
}

}  // namespace paleo_test
