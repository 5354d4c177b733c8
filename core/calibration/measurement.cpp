#include "core/calibration/measurement.h"

#include <cmath>

#include "core/base/error.h"
#include "core/base/request_limits.h"

namespace paleo {
namespace {

const char* const kPasses[] = {"forward", "backward", "backward_data", "backward_filter", "forward_backward"};

double positive(const Json& obj, const std::string& key, const std::string& field) {
  const Json& v = obj[key];
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw Error("must be a number, got " + echo(v), "", field + "." + key);
  const double d = v.get<double>();
  if (!(d > 0)) throw Error("must be positive, got " + echo(v), "", field + "." + key);
  return d;
}

std::string read_pointer(const Json& c, const std::string& field) {
  std::string p = c.get<std::string>();
  if (p.empty() || p[0] != '/') p = "/" + p;
  try {
    (void)Json::json_pointer(p);
  } catch (const Json::exception&) {
    throw Error("is not a JSON pointer: " + echo(c), "", field);
  }
  return p;
}

std::string join_pointers(const std::vector<std::string>& pointers) {
  std::string out;
  for (const std::string& p : pointers) out += (out.empty() ? "" : "+") + p;
  return out;
}

void read_compare(const Json& c, Measurement& m) {
  const std::string field = m.field + ".compare";
  if (c.is_string()) {
    m.pointers = {read_pointer(c, field)};
    return;
  }
  // Several pointers, summed: a figure a source reports as one number, such as forward plus
  // backward time.
  if (c.is_array()) {
    if (c.empty()) throw Error("must list at least one JSON pointer", "", field);
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::string at = field + "[" + std::to_string(i) + "]";
      if (!c[i].is_string()) throw Error("must be a JSON pointer string, got " + echo(c[i]), "", at);
      m.pointers.push_back(read_pointer(c[i], at));
    }
    return;
  }
  if (!c.is_object())
    throw Error("must be a JSON pointer (\"/step_ms\"), a list of them (summed) or a layer selector "
                "{\"layer\", \"pass\"}, got " + echo(c), "",
                field);
  for (auto it = c.begin(); it != c.end(); ++it)
    if (it.key() != "layer" && it.key() != "pass")
      throw Error("unknown field of a layer selector (known: layer, pass)", "", field + "." + it.key());
  if (!c.contains("layer") || !c["layer"].is_string() || c["layer"].get<std::string>().empty())
    throw Error("must be a layer name of the response's \"layers\" rows", "", field + ".layer");
  m.layer = c["layer"].get<std::string>();
  m.pass = "forward";
  if (c.contains("pass")) {
    const Json& pass = c["pass"];
    bool known = false;
    for (const char* name : kPasses) known = known || (pass.is_string() && pass.get<std::string>() == name);
    if (!known)
      throw Error("must be \"forward\", \"backward\", \"backward_data\", \"backward_filter\" or \"forward_backward\", got " +
                      echo(pass), "", field + ".pass");
    m.pass = pass.get<std::string>();
  }
}

Measurement parse_one(const Json& entry, const Json& base, std::size_t index, const std::string& list_field) {
  Measurement m;
  m.index = index;
  m.field = list_field + "[" + std::to_string(index) + "]";
  if (!entry.is_object()) throw Error("must be an object {\"request\", \"measured_ms\", \"compare\"?}", "", m.field);
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    const std::string& k = it.key();
    if (k != "request" && k != "measured_ms" && k != "measured" && k != "compare" && k != "weight" && k != "label")
      throw Error("unknown field of a measurement (known: request, measured_ms, measured, compare, weight, label)", "",
                  m.field + "." + k);
  }
  // The request: the shared one, its fields replaced by the measurement's own.
  m.request = base.is_object() ? base : Json::object();
  if (entry.contains("request")) {
    if (!entry["request"].is_object()) throw Error("must be a request object (docs/api.md)", "", m.field + ".request");
    for (auto it = entry["request"].begin(); it != entry["request"].end(); ++it) m.request[it.key()] = it.value();
  } else if (!base.is_object()) {
    throw Error("is required (or give a shared \"request\" beside \"measurements\"; with the CLI, --request FILE)",
                "", m.field + ".request");
  }
  if (!m.request.contains("command")) m.request["command"] = "estimate";
  const Json& command = m.request["command"];
  if (command != "estimate" && command != "layers" && command != "search")
    throw Error("must be \"estimate\", \"layers\" or \"search\", got " + echo(command), "", m.field + ".request.command");
  if (!m.request.contains("net")) throw Error("is required", "", m.field + ".request.net");

  const bool has_ms = entry.contains("measured_ms"), has_other = entry.contains("measured");
  if (has_ms == has_other)
    throw Error(has_ms ? "give either \"measured_ms\" or \"measured\", not both"
                       : "is required: the measured time in milliseconds (or \"measured\" for another figure)",
                "", m.field + ".measured_ms");
  m.measured_ms = has_ms;
  m.measured = positive(entry, has_ms ? "measured_ms" : "measured", m.field);
  if (entry.contains("weight")) m.weight = positive(entry, "weight", m.field);
  if (entry.contains("compare")) read_compare(entry["compare"], m);
  if (command == "search" && m.pointers.empty())
    throw Error("a \"search\" measurement needs a \"compare\" pointer (\"/step_ms\", \"/data_parallel_step_ms\")", "",
                m.field + ".compare");
  if (!has_ms && m.pointers.empty())
    throw Error("\"measured\" (a figure other than a time) needs a \"compare\" pointer to the response field", "",
                m.field + ".compare");
  if (entry.contains("label")) {
    if (!entry["label"].is_string()) throw Error("must be a string", "", m.field + ".label");
    m.label = entry["label"].get<std::string>();
  } else {
    m.label = !m.layer.empty() ? m.layer + " " + m.pass : !m.pointers.empty() ? join_pointers(m.pointers) : "step_ms";
  }
  return m;
}

// The number at a pointer, or not found: an array index past the end or too large for any index
// ("/layers/99999999999999999999999") is a missing field like any other, never the JSON library's
// own exception.
double number_at(const Json& response, const std::string& pointer, bool& found) {
  found = false;
  try {
    const Json::json_pointer p(pointer);
    if (!response.contains(p)) return 0;
    const Json& v = response.at(p);
    found = v.is_number();
    return found ? v.get<double>() : 0;
  } catch (const Json::exception&) {
    return 0;
  }
}

double pass_total(const Json& row, const std::string& pass, const Measurement& m) {
  if (pass == "forward_backward") return pass_total(row, "forward", m) + pass_total(row, "backward", m);
  if (!row.contains(pass) || !row[pass].is_object() || !row[pass].contains("total_ms"))
    throw Error("layer '" + m.layer + "' has no \"" + pass + "\" pass in this response", "", m.field + ".compare.pass");
  return row[pass]["total_ms"].get<double>();
}

}  // namespace

Json Measurement::compare_json() const {
  if (!layer.empty()) return {{"layer", layer}, {"pass", pass}};
  if (pointers.size() == 1) return pointers.front();
  if (!pointers.empty()) return pointers;
  return "step";
}

std::vector<Measurement> parse_measurements(const Json& list, const Json& base, const std::string& field) {
  if (!list.is_array()) throw Error("must be a list of measurements (or CSV text)", "", field);
  if (list.empty()) throw Error("is empty: give at least one measurement", "", field);
  if (list.size() > kMaxMeasurements)
    throw Error("lists " + std::to_string(list.size()) + " measurements; the limit is " + std::to_string(kMaxMeasurements) +
                    " (docs/api.md)", "", field);
  if (!base.is_null() && !base.is_object()) throw Error("must be a request object (docs/api.md)", "", "request");
  std::vector<Measurement> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(parse_one(list[i], base, i, field));
  return out;
}

ResponseLayers::ResponseLayers(const Json& response) {
  const auto rows = response.find("layers");
  if (rows == response.end() || !rows->is_array()) return;
  for (const Json& row : *rows) {
    if (!row.is_object()) continue;
    const auto name = row.find("name");
    const std::string key = name != row.end() && name->is_string() ? name->get<std::string>() : "";
    if (names_.size() < 12) names_.push_back(key);
    ++count_;
    by_name_.emplace(key, &row);  // the first row of a name, as a scan from the top finds
  }
}

const Json* ResponseLayers::find(const std::string& name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::string ResponseLayers::listed_names() const {
  std::string names;
  for (const std::string& n : names_) names += (names.empty() ? "" : ", ") + n;
  if (count_ > names_.size()) names += ", ...";
  return names.empty() ? "none" : names;
}

double predicted_value(const Measurement& m, const Json& response) {
  return predicted_value(m, response, ResponseLayers(response));
}

double predicted_value(const Measurement& m, const Json& response, const ResponseLayers& layers) {
  bool found = false;
  if (!m.layer.empty()) {
    if (const Json* row = layers.find(m.layer)) return pass_total(*row, m.pass, m);
    throw Error("no layer '" + m.layer + "' in the response's layers (" + layers.listed_names() + ")", "",
                m.field + ".compare.layer");
  }
  if (!m.pointers.empty()) {
    double sum = 0;
    for (const std::string& p : m.pointers) {
      sum += number_at(response, p, found);
      if (!found) throw Error("the response has no number at " + p, "", m.field + ".compare");
    }
    return sum;
  }
  double v = number_at(response, "/step_ms", found);
  if (!found) v = number_at(response, "/totals/step_ms", found);
  if (!found) throw Error("the response has no step time (/step_ms or /totals/step_ms)", "", m.field + ".compare");
  return v;
}

}  // namespace paleo
