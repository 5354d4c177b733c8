#include "core/validation/validation_suite.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/validation/validation_stats.h"

namespace paleo {
namespace {

struct CaseResult {
  const ValidationCase* c = nullptr;
  bool ok = false;
  double predicted = 0;
  bool predicted_flag = false;  // a statement case's answer
  std::string message;  // why it did not run
};

// An estimate request that names no sections is asked only for the members its case compares: the
// rest (a CNN's layer table, above all) is most of the suite's run time.
Json compared_sections_only(const ValidationCase& c) {
  const Json& q = c.request;
  const bool estimate = q.is_object() && q.value("command", Json()) == "estimate";
  if (!estimate || q.contains("sections") || q.contains("omit_sections")) return q;
  Json members = Json::array();
  for (const std::string& pointer : c.compare) {
    const std::string top = pointer.substr(1, pointer.find('/', 1) - 1);
    if (std::find(members.begin(), members.end(), top) == members.end()) members.push_back(top);
  }
  Json lean = q;
  lean["sections"] = std::move(members);
  return lean;
}

CaseResult run_case(const ValidationCase& c, const RequestRunner& run) {
  CaseResult r;
  r.c = &c;
  const Json response = run(compared_sections_only(c));
  if (!response.value("ok", false)) {
    r.message = response.contains("error") ? response["error"].value("message", "") : "the request failed";
    return r;
  }
  if (c.statement) {
    const Json::json_pointer p(c.compare[0]);
    if (!response.contains(p) || !response[p].is_boolean()) {
      r.message = "the response has no true/false at " + c.compare[0];
      return r;
    }
    r.ok = true;
    r.predicted_flag = response[p].get<bool>();
    return r;
  }
  double sum = 0;
  for (const std::string& pointer : c.compare) {
    const Json::json_pointer p(pointer);
    if (!response.contains(p) || !response[p].is_number()) {
      r.message = "the response has no number at " + pointer;
      return r;
    }
    sum += response[p].get<double>();
  }
  r.ok = true;
  r.predicted = sum;
  return r;
}

Json compare_json(const ValidationCase& c) {
  if (c.compare.size() == 1) return c.compare[0];
  return Json(c.compare);
}

Json case_json(const CaseResult& r) {
  const ValidationCase& c = *r.c;
  if (c.statement) {
    // A statement has no error: it agrees or not.
    Json row = {{"id", c.id}, {"family", c.family}, {"compare", compare_json(c)}, {"ok", r.ok},
                {"predicted", r.ok ? Json(r.predicted_flag) : Json()}, {"measured", c.stated}, {"error", Json()},
                {"agrees", r.ok ? Json(r.predicted_flag == c.stated) : Json()}, {"expressible", c.expressible}};
    if (!c.expressible) row["why"] = c.why;
    if (!r.ok) row["message"] = r.message;
    row["source_url"] = c.source_url;
    return row;
  }
  Json row = {{"id", c.id}, {"family", c.family}, {"compare", compare_json(c)}, {"ok", r.ok},
              {"predicted", r.ok ? Json(r.predicted) : Json()}, {"measured", c.measured},
              {"error", r.ok ? Json(r.predicted / c.measured - 1) : Json()}, {"expressible", c.expressible}};
  if (!c.expressible) row["why"] = c.why;
  if (!r.ok) row["message"] = r.message;
  row["source_url"] = c.source_url;
  return row;
}

Json number_or_null(double v, bool present) { return present ? Json(v) : Json(); }

// Statistics over the expressible cases that ran: a case the model cannot express measures the
// missing feature, not the model's accuracy (its error is still listed). Statements are counted
// apart (how many the model agrees with); they have no error to summarise.
Json summary_json(const std::vector<const CaseResult*>& results) {
  std::int64_t run = 0, failed = 0, expressible = 0, statements = 0, agreed = 0;
  std::vector<double> errors;
  for (const CaseResult* r : results) {
    if (r->ok) {
      ++run;
    } else {
      ++failed;
    }
    if (r->c->expressible) ++expressible;
    if (!r->ok || !r->c->expressible) continue;
    if (r->c->statement) {
      ++statements;
      if (r->predicted_flag == r->c->stated) ++agreed;
    } else {
      errors.push_back(r->predicted / r->c->measured - 1);
    }
  }
  const ErrorStats s = error_stats(errors);
  const bool any = s.count > 0;
  return {{"cases", static_cast<std::int64_t>(results.size())}, {"run", run}, {"failed", failed}, {"expressible", expressible},
          {"not_expressible", static_cast<std::int64_t>(results.size()) - expressible},
          {"scored", static_cast<std::int64_t>(s.count)},
          {"median_abs_error", number_or_null(s.median_abs, any)}, {"max_abs_error", number_or_null(s.max_abs, any)},
          {"mean_error", number_or_null(s.mean, any)}, {"statements", statements}, {"statements_agreed", agreed}};
}

}  // namespace

Json validation_response(const Json& request, const RequestRunner& run) {
  return validation_response(request, load_validation_cases(), run);
}

Json validation_response(const Json& request, const std::vector<ValidationCase>& all, const RequestRunner& run) {
  if (!request.is_object()) throw Error("a request must be a JSON object", "", "");
  for (auto it = request.begin(); it != request.end(); ++it)
    if (it.key() != "command" && it.key() != "family")
      throw Error("unknown field for 'validate' (known: command, family)", "", it.key());
  std::vector<std::string> families;  // in order of first appearance
  for (const ValidationCase& c : all)
    if (std::find(families.begin(), families.end(), c.family) == families.end()) families.push_back(c.family);
  std::string only;
  if (request.contains("family")) {
    only = read_string(request, "family", "");
    if (std::find(families.begin(), families.end(), only) == families.end()) {
      std::string known;
      for (const std::string& f : families) known += (known.empty() ? "" : ", ") + f;
      throw Error("unknown family '" + only + "' (known: " + known + ")", "", "family");
    }
    families = {only};
  }
  std::vector<CaseResult> results;
  for (const ValidationCase& c : all)
    if (only.empty() || c.family == only) results.push_back(run_case(c, run));

  Json cases = Json::array(), family_rows = Json::array();
  std::vector<const CaseResult*> everything;
  for (const CaseResult& r : results) {
    cases.push_back(case_json(r));
    everything.push_back(&r);
  }
  for (const std::string& f : families) {
    std::vector<const CaseResult*> members;
    for (const CaseResult& r : results)
      if (r.c->family == f) members.push_back(&r);
    Json row = {{"family", f}};
    row.update(summary_json(members));
    family_rows.push_back(std::move(row));
  }
  return {{"ok", true}, {"command", "validate"}, {"family", only.empty() ? Json() : Json(only)}, {"cases", cases},
          {"families", family_rows}, {"overall", summary_json(everything)}};
}

}  // namespace paleo
