#include "cli/calibrate_output.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/bounded_input.h"
#include "cli/request_builder.h"
#include "cli/table_row.h"
#include "core/base/json.h"

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string g(const Json& v) {
  if (!v.is_number()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
  return buf;
}

std::string percent(const Json& v, bool sign) {
  if (!v.is_number()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f" : "%.1f", v.get<double>() * 100);
  return buf;
}

std::vector<std::string> stats_cells(const std::string& set, const std::string& when, const Json& s) {
  return {set, when, std::to_string(s["count"].get<long long>()), percent(s["median_abs_error"], false),
          percent(s["max_abs_error"], false), percent(s["mean_error"], true)};
}

void measurement_rows(std::ostream& out, const std::string& set, const Json& before, const Json& after, bool csv) {
  for (std::size_t i = 0; i < before["rows"].size(); ++i) {
    const Json& b = before["rows"][i];
    const Json& a = after["rows"][i];
    table_row(out, {std::to_string(b["index"].get<long long>()), set, text_cell(b["label"].get<std::string>()), g(b["measured"]),
              g(b["predicted"]), g(a["predicted"]), percent(b["error"], true), percent(a["error"], true)}, csv);
  }
}

}  // namespace

Json build_calibrate_request(const Arguments& args) {
  if (args.positional.size() != 1)
    throw std::invalid_argument("'calibrate' needs one measurement file (JSON or CSV, docs/calibration.md)");
  const std::string& path = args.positional[0];
  const std::string text = read_bounded_file(path);
  Json request = {{"command", "calibrate"}};
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const bool json = !ends_with(path, ".csv") && first != std::string::npos && (text[first] == '{' || text[first] == '[');
  if (json) {
    const Json doc = json_file_document(text, path);
    if (doc.is_array()) {
      request["measurements"] = doc;
    } else {
      for (auto it = doc.begin(); it != doc.end(); ++it) request[it.key()] = it.value();
      request["command"] = "calibrate";
    }
  } else {
    request["measurements"] = text;  // CSV text; the core reads it
  }
  if (args.has("request")) {
    request["request"] = json_file_document(read_bounded_file(args.get("request", "")), args.get("request", ""));
  }
  if (args.has("holdout")) {
    const std::string h = args.get("holdout", "");
    request["holdout"] = h == "alternate" ? Json(h) : number_or_text(h);
  }
  if (args.has("parameters")) {
    Json names = Json::array();
    std::stringstream list(args.get("parameters", ""));
    std::string name;
    while (std::getline(list, name, ',')) names.push_back(name);
    request["parameters"] = names;
  }
  if (args.has("loss")) request["loss"] = args.get("loss", "");
  if (args.has("loss_scale")) request["loss_scale"] = number_or_text(args.get("loss_scale", ""));
  if (args.has("software_era")) request["software_era"] = args.get("software_era", "");
  if (args.has("max_evaluations")) request["max_evaluations"] = number_or_text(args.get("max_evaluations", ""));
  return request;
}

void print_calibration(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  const bool csv = format == Format::kCsv;
  const Json& m = r["measurements"];
  const Json& s = r["search"];
  if (!csv)
    out << "calibrate: " << m["count"].get<long long>() << " measurements (" << m["fitted"].get<long long>()
        << " fitted, " << m["held_out"].get<long long>() << " held out) over " << m["requests"].get<long long>()
        << " distinct requests; " << r["loss"]["kind"].get<std::string>() << " loss on log(predicted/measured), scale "
        << g(r["loss"]["scale"]) << "; " << s["evaluations"].get<long long>() << " evaluations"
        << (s["converged"].get<bool>() ? ", converged" : ", NOT converged") << "; start: software era "
        << r["start"]["software_era"].get<std::string>() << "\n\n";
  table_row(out, {"parameter", "start", "fitted", "low", "high", "at_bound"}, csv);
  for (auto it = r["fitted"].begin(); it != r["fitted"].end(); ++it)
    table_row(out, {it.key(), g(it.value()["start"]), g(it.value()["fitted"]), g(it.value()["low"]), g(it.value()["high"]),
              it.value()["at_bound"].get<bool>() ? "yes" : "no"}, csv);
  out << "\n";
  table_row(out, {"set", "when", "count", "median_abs_error_percent", "max_abs_error_percent", "mean_error_percent"}, csv);
  table_row(out, stats_cells("fit", "before", r["before"]), csv);
  table_row(out, stats_cells("fit", "after", r["after"]), csv);
  if (r.contains("holdout")) {
    table_row(out, stats_cells("holdout", "before", r["holdout"]["before"]), csv);
    table_row(out, stats_cells("holdout", "after", r["holdout"]["after"]), csv);
  }
  out << "\n";
  table_row(out, {"index", "set", "label", "measured", "predicted_before", "predicted_after", "error_before_percent",
            "error_after_percent"}, csv);
  measurement_rows(out, "fit", r["before"], r["after"], csv);
  if (r.contains("holdout")) measurement_rows(out, "holdout", r["holdout"]["before"], r["holdout"]["after"], csv);
  if (csv) return;
  for (const Json& w : r["warnings"]) out << "\nwarning: " << w.get<std::string>();
  if (!r["warnings"].empty()) out << "\n";
  out << "\nprofile (request fields for any command: add them to a request, or save them to a file and pass --calibration FILE):\n"
      << paleo::dump_json(r["profile"]) << "\n";
}

}  // namespace paleo::cli
