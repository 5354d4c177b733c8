// Every table row the original CLI printed (tests/data/cli_tables.csv): each run's command is
// translated into a `simulate` request and every numeric column is compared.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/api.h"
#include "csv_table.h"
#include "golden_compare.h"

namespace {

using paleo_test::cell;
using paleo_test::check_golden;
using paleo_test::CsvRow;
using paleo_test::GoldenTally;
using paleo_test::Json;
using paleo_test::number;
using paleo_test::split;

// "nets/alex_v2.json" -> "alex_v2"
std::string file_stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const std::string ext = ".json";
  if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
    name.resize(name.size() - ext.size());
  return name;
}

Json number_list(const std::string& text) {
  Json list = Json::array();
  for (const std::string& item : split(text, ',')) list.push_back(std::stoll(item));
  return list;
}

Json string_list(const std::string& text) {
  Json list = Json::array();
  for (const std::string& item : split(text, ',')) list.push_back(item);
  return list;
}

// The original `python paleo/profiler.py simulate NET [options]` as a request (its defaults:
// TITAN_X, ethernet, batch 128, PPP 1/1, workers 1..128, weak then strong, data parallel).
Json request_for_command(const std::string& command) {
  std::vector<std::string> tokens;
  for (const std::string& t : split(command, ' '))
    if (!t.empty()) tokens.push_back(t);
  REQUIRE(tokens.size() >= 3);
  REQUIRE(tokens[1] == "simulate");
  Json r = {{"command", "simulate"},
            {"profile", "paleo2017"},
            {"net", file_stem(tokens[2])},
            {"device", "TITAN_X"},
            {"interconnect", "ethernet"},
            {"batch_size", 128},
            {"ppp_comp", 1.0},
            {"ppp_comm", 1.0},
            {"parallel", "data"},
            {"workers", Json::array({1, 2, 4, 8, 16, 32, 64, 128})},
            {"scaling", Json::array({"weak", "strong"})}};
  for (std::size_t i = 3; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    REQUIRE(t.rfind("--", 0) == 0);
    const std::size_t eq = t.find('=');
    const std::string name = t.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (name == "use_only_gemm") {
      r["conv_algorithm"] = "gemm";
      continue;
    }
    if (name == "use_pipeline") {
      r["use_pipeline"] = true;
      continue;
    }
    std::string value;
    if (eq != std::string::npos) {
      value = t.substr(eq + 1);
    } else {
      REQUIRE(i + 1 < tokens.size());
      value = tokens[++i];
    }
    if (name == "device_name")
      r["device"] = value;
    else if (name == "network_name")
      r["interconnect"] = value;
    else if (name == "batch_size")
      r["batch_size"] = std::stoll(value);
    else if (name == "ppp_comp")
      r["ppp_comp"] = std::stod(value);
    else if (name == "ppp_comm")
      r["ppp_comm"] = std::stod(value);
    else if (name == "num_workers")
      r["workers"] = number_list(value);
    else if (name == "scaling")
      r["scaling"] = string_list(value);
    else if (name == "parallel")
      r["parallel"] = value;
    else if (name == "hybrid_workers")
      r["hybrid_workers"] = std::stoll(value);
    else
      FAIL("option --" << name << " of '" << command << "' has no translation");
  }
  return r;
}

struct Run {
  std::string id, command;
  std::vector<const CsvRow*> rows;
};

std::vector<Run> runs_of(const paleo_test::CsvTable& table) {
  std::vector<Run> runs;
  std::map<std::string, std::size_t> index;
  for (const CsvRow& row : table.rows) {
    auto it = index.find(cell(row, "run_id"));
    if (it == index.end()) {
      it = index.emplace(cell(row, "run_id"), runs.size()).first;
      runs.push_back({cell(row, "run_id"), cell(row, "command"), {}});
    }
    runs[it->second].rows.push_back(&row);
  }
  return runs;
}

const char* const kSchemes[] = {"OneToAll", "TreeAllReduce", "ButterflyAllReduce", "ButterflyMixing"};

// Each CSV column of the row against its response path in `got`.
void check_columns(GoldenTally& tally, const std::string& where, const CsvRow& row, const Json& got,
                   std::initializer_list<std::pair<const char*, const char*>> column_paths) {
  for (const auto& [column, path] : column_paths)
    check_golden(tally, where, "", column, number(row, column), got, path);
}

// Returns whether the row was compared.
bool check_scaling_row(GoldenTally& tally, const std::string& where, const CsvRow& row, const Json& response,
                       std::map<std::string, std::size_t>& seen) {
  const std::string mode = cell(row, "mode");
  const std::string scaling = mode.substr(0, mode.find(' '));  // "weak" / "strong"
  const std::size_t k = seen[scaling]++;
  const Json* table = nullptr;
  if (response.contains("scaling") && response["scaling"].is_array())
    for (const Json& t : response["scaling"])
      if (t.value("scaling", "") == scaling) table = &t;
  if (table == nullptr || !(*table)["rows"].is_array() || k >= (*table)["rows"].size()) {
    FAIL_CHECK(where << ": no " << scaling << " scaling row " << k << " in the response");
    return false;
  }
  const Json& got = (*table)["rows"][k];
  const std::string w = where + " " + scaling + " n=" + cell(row, "workers");
  check_columns(tally, w, row, got,
                {{"workers", "workers"},
                 {"batch_size", "batch_size"},
                 {"iter", "iter"},
                 {"time_fwd", "time_fwd_ms"},
                 {"time_bwd", "time_bwd_ms"},
                 {"time_apply", "time_apply_ms"},
                 {"time_comp", "time_comp_ms"}});
  for (const char* s : kSchemes) check_golden(tally, w, "", s, number(row, s), got, std::string("comm_ms.") + s);
  return true;
}

bool check_hybrid_row(GoldenTally& tally, const std::string& where, const CsvRow& row, const Json& response) {
  const std::string part = cell(row, "hybrid_row");
  const std::size_t k = part == "data_parallel_part" ? 0 : part == "model_parallel_part" ? 1 : 2;
  REQUIRE(k < 2);
  if (!response.contains("rows") || !response["rows"].is_array() || response["rows"].size() != 2) {
    FAIL_CHECK(where << ": the hybrid response has no two rows: " << response.dump());
    return false;
  }
  const Json& got = response["rows"][k];
  const std::string w = where + " " + part;
  const std::string expected_part = k == 0 ? "data" : "model";
  if (got.value("part", "") != expected_part)
    FAIL_CHECK(w << ": part expected '" << expected_part << "', got " << got.value("part", "(none)"));
  check_columns(tally, w, row, got,
                {{"workers", "workers"},
                 {"batch_size", "batch_size"},
                 {"fwd_time", "fwd_time_ms"},
                 {"bwd_time", "bwd_time_ms"},
                 {"apply_time", "apply_time_ms"},
                 {"sync_time(tree)", "sync_time_ms"}});
  return true;
}

bool check_model_row(GoldenTally& tally, const std::string& where, const CsvRow& row, const Json& response) {
  const std::string pass = cell(row, "Pass");
  REQUIRE((pass == "Fwd" || pass == "Bwd"));
  const std::string key = pass == "Fwd" ? "forward" : "backward";
  const std::string w = where + " " + pass;
  check_golden(tally, w, "", "Lowerbound", number(row, "Lowerbound"), response, key + ".lower_ms");
  check_golden(tally, w, "", "Upperbound", number(row, "Upperbound"), response, key + ".upper_ms");
  return true;
}

}  // namespace

TEST_CASE("golden CLI tables of the original (cli_tables.csv) through simulate requests", "[golden][cli_tables]") {
  const std::string file = "cli_tables.csv";
  const paleo_test::CsvTable table = paleo_test::golden_table(file);
  GoldenTally tally;
  long rows_checked = 0;
  for (const Run& run : runs_of(table)) {
    const std::string where = file + " run " + run.id;
    const Json request = request_for_command(run.command);
    const Json response = paleo::handle_request(request);
    if (!response.value("ok", false)) {
      FAIL_CHECK(where << ": request " << request.dump() << " failed: " << response.dump());
      continue;
    }
    std::map<std::string, std::size_t> seen;
    for (const CsvRow* row : run.rows) {
      const std::string mode = cell(*row, "mode");
      bool checked = false;
      if (mode == "weak scaling" || mode == "strong scaling")
        checked = check_scaling_row(tally, where, *row, response, seen);
      else if (mode == "Hybrid parallel")
        checked = check_hybrid_row(tally, where, *row, response);
      else if (mode == "Model parallel")
        checked = check_model_row(tally, where, *row, response);
      else
        FAIL_CHECK(where << ": unknown mode '" << mode << "'");
      if (checked) ++rows_checked;
    }
    // Nothing beyond the original's rows: each scaling table has exactly the CSV's rows.
    if (response.contains("scaling") && response["scaling"].is_array())
      for (const Json& t : response["scaling"]) {
        const std::string s = t.value("scaling", "");
        INFO(where << " " << s << " scaling");
        CHECK(t["rows"].size() == seen[s]);
      }
  }
  std::ostringstream line;
  line << "golden: " << file << ": " << rows_checked << " rows checked (" << tally.values << " values, "
       << tally.mismatches << " mismatches)";
  WARN(line.str());
  REQUIRE(rows_checked == static_cast<long>(table.rows.size()));
}
