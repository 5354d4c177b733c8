#pragma once
// Printing API responses as the original's tables, as CSV, or as JSON.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace paleo::cli {

enum class Format { kTable, kCsv, kJson };

Format parse_format(const std::string& name);  // throws std::invalid_argument

// The JSON format prints the response as it is, indented: true when `format` is JSON (and it did).
bool printed_as_json(std::ostream& out, const nlohmann::ordered_json& response, Format format);

struct SimulateContext {
  std::string net_argument;  // printed first, as the original printed the spec path
  bool use_only_gemm = false;
  std::string separator = "\t";
};

void print_simulation(std::ostream& out, const nlohmann::ordered_json& response, Format format,
                      const SimulateContext& context);
void print_layers(std::ostream& out, const nlohmann::ordered_json& response, Format format);
void print_summary(std::ostream& out, const nlohmann::ordered_json& response, Format format);
void print_collective(std::ostream& out, const nlohmann::ordered_json& response, Format format);
// The `search` command: the chosen configuration of every layer and the speed-ups.
void print_search(std::ostream& out, const nlohmann::ordered_json& response, Format format);
// A CNN estimate's one-device totals (forward, backward, update, step, samples per second; not
// for a cluster, whose section has its step) and the expected error of estimates of its kind,
// after its tables (table format only: the CSV stays one table).
void print_estimate_totals(std::ostream& out, const nlohmann::ordered_json& response, Format format);
// The `cluster` section of an estimate: step per all-reduce algorithm, memory, pipeline.
void print_cluster(std::ostream& out, const nlohmann::ordered_json& cluster, Format format);

}  // namespace paleo::cli
