#pragma once
// Turns the original CLI's options into a request document of the JSON API (docs/api.md).
#include <string>

#include <nlohmann/json.hpp>

#include "cli/options.h"

namespace paleo::cli {

// Numbers stay numbers when they parse; anything else goes through as text so that the core
// reports the bad field.
nlohmann::ordered_json number_or_text(const std::string& text);

// A JSON file's text as a document; the core's limits on size and nesting apply (docs/api.md).
// Throws std::invalid_argument naming `path`.
nlohmann::ordered_json json_file_document(const std::string& text, const std::string& path);

// The net argument: a readable file holds a spec; otherwise a preset key, or a path whose file
// stem is a preset key (e.g. nets/vgg16.json). Throws std::invalid_argument for neither.
nlohmann::ordered_json net_argument(const std::string& arg);

// --input_shape N,C,H,W: the graph input's shape of an ONNX net (docs/import.md) set beside its
// graph. Throws std::invalid_argument when the net is not an ONNX graph.
void apply_input_shape(const Arguments& args, nlohmann::ordered_json& net);

// --device_name: a preset key, or a .json file holding a device object (docs/api.md, "device";
// a response's `device` is one). Throws std::invalid_argument for a file it cannot read.
nlohmann::ordered_json device_argument(const std::string& arg);

// The cluster options (--cluster, --nodes, --per_node, --intra, --inter, --nics_per_node),
// added to `request` when given.
void add_cluster_options(const Arguments& args, nlohmann::ordered_json& request);

// `paleo collective`: --op --algorithm --workers --bytes and a link (--link, or
// --bandwidth_gbps with --latency_us) or a cluster.
nlohmann::ordered_json build_collective_request(const Arguments& args);

// Options shared by layers / summary / simulate / estimate. The net (a whole spec, often) moves
// into the request.
nlohmann::ordered_json build_request(const std::string& command, const Arguments& args, nlohmann::ordered_json net);

}  // namespace paleo::cli
