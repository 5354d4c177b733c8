// Network totals of the original implementation (tests/data/network_totals_head_gemm.csv): every
// row (net x device x PPP set), through `estimate` requests.
#include <catch2/catch.hpp>

#include <sstream>
#include <utility>
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

const std::vector<std::pair<std::string, std::string>>& total_columns() {
  static const std::vector<std::pair<std::string, std::string>> columns = {
      {"params_bytes", "params_bytes"},
      {"fwd_ms", "forward_ms"},
      {"bwd_ms", "backward_ms"},
      {"apply_ms", "update_ms"},
      {"comp_ms", "step_ms"},
      {"fwd_comp_ms", "forward_comp_ms"},
      {"fwd_comm_ms", "forward_mem_ms"},
      {"bwd_comp_ms", "backward_comp_ms"},
      {"bwd_comm_ms", "backward_mem_ms"},
      {"apply_comp_ms", "update_comp_ms"},
      {"apply_comm_ms", "update_mem_ms"},
      {"fwd_pipelined_ms", "forward_pipelined_ms"},
      {"bwd_pipelined_ms", "backward_pipelined_ms"},
      {"apply_pipelined_ms", "update_pipelined_ms"},
      {"fwd_branch_parallel_ms", "forward_branch_parallel_ms"},
      {"bwd_branch_parallel_ms", "backward_branch_parallel_ms"}};
  return columns;
}

Json base_request(const CsvRow& row) {
  return {{"command", "estimate"},    {"profile", "paleo2017"},
          {"net", cell(row, "net")},  {"device", cell(row, "device")},
          {"conv_algorithm", "gemm"}, {"batch_size", static_cast<long long>(number(row, "batch"))}};
}

// Runs a request; returns its totals, or fails the test case and returns null.
Json totals_of(const std::string& where, const Json& request) {
  const Json response = paleo::handle_request(request);
  if (!response.value("ok", false) || !response.contains("totals")) {
    FAIL_CHECK(where << ": request " << request.dump() << " failed: " << response.dump());
    return nullptr;
  }
  return response["totals"];
}

}  // namespace

TEST_CASE("golden network totals, GEMM only, four PPP sets (network_totals_head_gemm.csv)", "[golden][totals]") {
  const std::string file = "network_totals_head_gemm.csv";
  const paleo_test::CsvTable table = paleo_test::golden_table(file);
  GoldenTally tally;
  long rows_checked = 0;
  for (const CsvRow& row : table.rows) {
    const std::string where = file + " " + cell(row, "net") + "/" + cell(row, "device") + "/" + cell(row, "ppp_set");
    Json request = base_request(row);
    request["ppp_comp"] = number(row, "ppp_comp");
    request["ppp_comm"] = number(row, "ppp_comm");
    const Json totals = totals_of(where, request);
    if (totals.is_null()) continue;
    for (const auto& [column, path] : total_columns()) check_golden(tally, where, "", column, number(row, column), totals, path);
    ++rows_checked;

    // The software presets set the same PPP pair.
    if (cell(row, "ppp_set") != "raw") {
      Json by_software = base_request(row);
      by_software["software"] = cell(row, "ppp_set");
      const Json t = totals_of(where + " (software preset)", by_software);
      if (!t.is_null())
        for (const char* column : {"fwd_ms", "bwd_ms", "apply_ms", "comp_ms"})
          for (const auto& [c, path] : total_columns())
            if (c == column) check_golden(tally, where + " (software preset)", "", c, number(row, c), t, path);
    }

    // With use_pipeline each pass is its pipelined sum and the step their sum (docs/api.md).
    Json pipelined = request;
    pipelined["use_pipeline"] = true;
    const Json p = totals_of(where + " (use_pipeline)", pipelined);
    if (!p.is_null()) {
      const std::string w = where + " (use_pipeline)";
      check_golden(tally, w, "", "fwd_pipelined_ms", number(row, "fwd_pipelined_ms"), p, "forward_ms");
      check_golden(tally, w, "", "bwd_pipelined_ms", number(row, "bwd_pipelined_ms"), p, "backward_ms");
      check_golden(tally, w, "", "apply_pipelined_ms", number(row, "apply_pipelined_ms"), p, "update_ms");
      paleo_test::check_golden_value(
          tally, w, "", "fwd+bwd+apply pipelined",
          number(row, "fwd_pipelined_ms") + number(row, "bwd_pipelined_ms") + number(row, "apply_pipelined_ms"),
          paleo_test::json_at(p, "step_ms"));
    }
  }
  std::ostringstream line;
  line << "golden: " << file << ": " << rows_checked << " rows checked (" << tally.values << " values, "
       << tally.mismatches << " mismatches)";
  WARN(line.str());
  REQUIRE(rows_checked == static_cast<long>(table.rows.size()));
}
