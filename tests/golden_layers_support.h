#pragma once
// Shared by the golden per-layer tests: grouping of CSV rows into one request each, and the
// comparison of one CSV layer row with one layer of a `layers` response.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "csv_table.h"
#include "golden_compare.h"

namespace paleo_test {

// "128x54x54x64" -> [128, 54, 54, 64]; "a|b" lists several shapes.
inline Json shape_from_text(const std::string& text) {
  Json shape = Json::array();
  for (const std::string& d : split(text, 'x')) shape.push_back(std::stoll(d));
  return shape;
}

inline Json shapes_from_text(const std::string& text) {
  Json shapes = Json::array();
  for (const std::string& s : split(text, '|')) shapes.push_back(shape_from_text(s));
  return shapes;
}

inline std::string shape_text(const Json& shape) {
  if (!shape.is_array()) return shape.dump();
  std::string out;
  for (const Json& d : shape) out += (out.empty() ? "" : "x") + d.dump();
  return out;
}

// True when the response shape (array of integers, possibly as floats) equals the text shape.
inline bool same_shape(const Json& got, const std::string& expected_text) {
  const Json expected = shape_from_text(expected_text);
  if (!got.is_array() || got.size() != expected.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!got[i].is_number() || got[i].get<double>() != expected[i].get<double>()) return false;
  return true;
}

// Rows of one (net, device, mode) run, in the order of the CSV's `order` column.
struct LayerGroup {
  std::string net, device, mode;
  std::vector<const CsvRow*> rows;
};

inline std::vector<LayerGroup> group_layer_rows(const CsvTable& table) {
  std::vector<LayerGroup> groups;
  std::map<std::string, std::size_t> index;
  for (const CsvRow& row : table.rows) {
    const std::string key = cell(row, "net") + "|" + cell(row, "device") + "|" + cell(row, "mode") + "|" +
                            cell(row, "batch") + "|" + cell(row, "ppp_comp") + "|" + cell(row, "ppp_comm");
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, groups.size()).first;
      groups.push_back({cell(row, "net"), cell(row, "device"), cell(row, "mode"), {}});
    }
    groups[it->second].rows.push_back(&row);
  }
  for (LayerGroup& g : groups) {
    std::vector<const CsvRow*> ordered(g.rows.size(), nullptr);
    for (const CsvRow* r : g.rows) {
      const auto pos = static_cast<std::size_t>(number(*r, "order"));
      if (pos < ordered.size() && ordered[pos] == nullptr) ordered[pos] = r;
    }
    bool complete = true;
    for (const CsvRow* r : ordered) complete = complete && r != nullptr;
    if (complete) g.rows = ordered;  // otherwise keep file order and let the name check report it
  }
  return groups;
}

// The CSV column -> response path pairs of the per-layer files.
inline const std::vector<std::pair<std::string, std::string>>& layer_time_columns() {
  static const std::vector<std::pair<std::string, std::string>> columns = {
      {"fwd_comp_ms", "forward.comp_ms"},
      {"fwd_comm_ms", "forward.mem_ms"},
      {"fwd_total_ms", "forward.total_ms"},
      {"bwd_data_comp_ms", "backward_data.comp_ms"},
      {"bwd_data_comm_ms", "backward_data.mem_ms"},
      {"bwd_data_total_ms", "backward_data.total_ms"},
      {"bwd_filter_comp_ms", "backward_filter.comp_ms"},
      {"bwd_filter_comm_ms", "backward_filter.mem_ms"},
      {"bwd_filter_total_ms", "backward_filter.total_ms"},
      {"bwd_comp_ms", "backward.comp_ms"},
      {"bwd_comm_ms", "backward.mem_ms"},
      {"bwd_total_ms", "backward.total_ms"}};
  return columns;
}

inline const std::vector<std::pair<std::string, std::string>>& layer_work_columns() {
  static const std::vector<std::pair<std::string, std::string>> columns = {
      {"fwd_flops", "forward.flops"},
      {"fwd_bytes", "forward.bytes"},
      {"bwd_data_flops", "backward_data.flops"},
      {"bwd_data_bytes", "backward_data.bytes"},
      {"bwd_filter_flops", "backward_filter.flops"},
      {"bwd_filter_bytes", "backward_filter.bytes"}};
  return columns;
}

struct LayerCheckOptions {
  bool times = true;
  bool work = true;        // FLOP and byte counts
  bool device_id = false;  // model-parallel file
};

// Compares a CSV layer row with the response's layer; returns false when the layer does not even
// match by name (then nothing else is compared).
inline bool check_layer_row(GoldenTally& tally, const std::string& where, const CsvRow& row, const Json& layer,
                            const LayerCheckOptions& options) {
  const std::string& name = cell(row, "layer");
  const std::string got_name =
      layer.contains("name") && layer["name"].is_string() ? layer["name"].get<std::string>() : layer.dump();
  if (got_name != name) {
    ++tally.mismatches;
    FAIL_CHECK("golden mismatch: " << where << ", position " << cell(row, "order") << ": expected layer '" << name
                                   << "', got '" << got_name << "'");
    return false;
  }
  const std::string got_type =
      layer.contains("type") && layer["type"].is_string() ? layer["type"].get<std::string>() : "";
  if (got_type != cell(row, "type"))
    FAIL_CHECK("golden mismatch: " << where << ", layer '" << name << "': type expected " << cell(row, "type")
                                   << ", got '" << got_type << "'");
  ++tally.values;
  if (!layer.contains("output") || !same_shape(layer["output"], cell(row, "outputs"))) {
    ++tally.mismatches;
    FAIL_CHECK("golden mismatch: " << where << ", layer '" << name << "', column 'outputs': expected "
                                   << cell(row, "outputs") << ", got "
                                   << (layer.contains("output") ? shape_text(layer["output"]) : std::string("none")));
  }
  if (cell(row, "type") != "Input") {
    ++tally.values;
    const Json expected_inputs = shapes_from_text(cell(row, "inputs"));
    bool same =
        layer.contains("inputs") && layer["inputs"].is_array() && layer["inputs"].size() == expected_inputs.size();
    for (std::size_t i = 0; same && i < expected_inputs.size(); ++i)
      same = same_shape(layer["inputs"][i], shape_text(expected_inputs[i]));
    if (!same) {
      ++tally.mismatches;
      FAIL_CHECK("golden mismatch: " << where << ", layer '" << name << "', column 'inputs': expected "
                                     << cell(row, "inputs") << ", got "
                                     << (layer.contains("inputs") ? layer["inputs"].dump() : std::string("none")));
    }
  }
  if (options.device_id) {
    ++tally.values;
    std::string got = "none";
    if (layer.contains("device_id"))
      got = layer["device_id"].is_string() ? layer["device_id"].get<std::string>() : layer["device_id"].dump();
    if (got != cell(row, "device_id")) {
      ++tally.mismatches;
      FAIL_CHECK("golden mismatch: " << where << ", layer '" << name << "', column 'device_id': expected "
                                     << cell(row, "device_id") << ", got " << got);
    }
  }
  check_golden(tally, where, name, "params", number(row, "params"), layer, "params");
  check_golden(tally, where, name, "weights_bytes", number(row, "weights_bytes"), layer, "weights_bytes");
  if (options.times)
    for (const auto& [column, path] : layer_time_columns())
      check_golden(tally, where, name, column, number(row, column), layer, path);
  if (options.work)
    for (const auto& [column, path] : layer_work_columns())
      check_golden(tally, where, name, column, number(row, column), layer, path);
  return true;
}

}  // namespace paleo_test
