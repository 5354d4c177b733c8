#include "cli/validate_output.h"

#include <cstdio>
#include <string>
#include <vector>

#include "cli/table_row.h"
#include "core/base/json.h"

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string g(const Json& v) {
  if (v.is_null()) return "-";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";  // a statement case
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
  return buf;
}

// Errors as percentages ("+12.3" reads faster than 0.123); signed where the sign means something.
std::string percent(const Json& v, bool sign = true) {
  if (v.is_null()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f" : "%.1f", v.get<double>() * 100);
  return buf;
}

std::string compare_text(const Json& compare) {
  if (compare.is_string()) return compare.get<std::string>();
  std::string out;
  for (const Json& p : compare) out += (out.empty() ? "" : "+") + p.get<std::string>();
  return out;
}

std::vector<std::string> summary_cells(const std::string& name, const Json& s) {
  return {name, std::to_string(s["cases"].get<long long>()), std::to_string(s["run"].get<long long>()),
          std::to_string(s["failed"].get<long long>()), std::to_string(s["expressible"].get<long long>()),
          std::to_string(s["not_expressible"].get<long long>()), percent(s["median_abs_error"], false),
          percent(s["max_abs_error"], false), percent(s["mean_error"]),
          std::to_string(s["statements_agreed"].get<long long>()) + "/" + std::to_string(s["statements"].get<long long>())};
}

}  // namespace

void print_validation(std::ostream& out, const Json& r, Format format) {
  if (printed_as_json(out, r, format)) return;
  const bool csv = format == Format::kCsv;
  table_row(out, {"id", "family", "compare", "predicted", "measured", "error_percent", "expressible", "note"}, csv);
  for (const Json& c : r["cases"]) {
    std::string note = c.value("ok", false) ? "" : "FAILED: " + c.value("message", "");
    if (!c["expressible"].get<bool>()) note += (note.empty() ? "" : "; ") + c.value("why", "");
    table_row(out, {c["id"].get<std::string>(), c["family"].get<std::string>(), compare_text(c["compare"]), g(c["predicted"]),
              g(c["measured"]), percent(c["error"]), c["expressible"].get<bool>() ? "yes" : "no", note}, csv);
  }
  out << "\n";
  // Statistics over the expressible cases that ran (docs/validation.md).
  table_row(out, {"family", "cases", "run", "failed", "expressible", "not_expressible", "median_abs_error_percent",
            "max_abs_error_percent", "mean_error_percent", "statements_agreed"}, csv);
  for (const Json& f : r["families"]) table_row(out, summary_cells(f["family"].get<std::string>(), f), csv);
  table_row(out, summary_cells("overall", r["overall"]), csv);
}

}  // namespace paleo::cli
