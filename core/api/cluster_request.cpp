#include "core/api/cluster_request.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/base/utf8.h"
#include "core/spec/presets.h"

namespace paleo {
namespace {

constexpr const char* kClusterMembers[] = {"preset", "key",           "name",  "nodes",
                                           "devices_per_node", "nics_per_node", "intra", "inter"};

std::string quoted_name(const std::string& name) { return shortened_utf8(name, kMaxEchoedNameBytes); }

std::int64_t read_cluster_count(const Json& obj, const char* name) {
  const Dim n = read_dim(obj[name], std::string("cluster.") + name, "");
  if (n < 1 || n > kMaxDevices)
    throw Error("must be an integer from 1 to " + std::to_string(kMaxDevices) + ", got " + echo(obj[name]), "",
                std::string("cluster.") + name);
  return n;
}

void check_members(const Json& obj) {
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (std::find(std::begin(kClusterMembers), std::end(kClusterMembers), it.key()) == std::end(kClusterMembers)) {
      std::string known;
      for (const char* m : kClusterMembers) known += (known.empty() ? "" : ", ") + std::string(m);
      throw Error("unknown member " + echo(Json(it.key())) + " (known: " + known + ")", "", "cluster");
    }
}

bool is_assumed(const Cluster& c, const char* what) {
  return std::find(c.assumed.begin(), c.assumed.end(), what) != c.assumed.end();
}

// As a stream of precision 4 writes it, without the streams (their locale machinery is a tenth
// of the estimate-only module's code, docs/performance.md).
std::string gb_per_s(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.4g GB/s", v);
  return text;
}

// An object of the request's own: what it names replaces the base's.
void apply_fields(const Json& obj, Cluster& c) {
  if (obj.contains("key")) c.key = read_string(obj, "key", "");
  if (obj.contains("name")) c.name = read_string(obj, "name", "");
  if (obj.contains("nodes")) c.nodes = read_cluster_count(obj, "nodes");
  if (obj.contains("devices_per_node")) c.devices_per_node = read_cluster_count(obj, "devices_per_node");
  if (obj.contains("nics_per_node")) c.nics_per_node = read_cluster_count(obj, "nics_per_node");
  if (obj.contains("intra")) c.intra = link_from_json(obj["intra"], "cluster.intra");
  if (obj.contains("inter")) c.inter = link_from_json(obj["inter"], "cluster.inter");
}

}  // namespace

Cluster device_node_cluster(const Device& device, const std::string& field) {
  if (device.node.empty())
    throw Error("the device '" + quoted_name(device.name) +
                    "' names no node preset to take links from: state the cluster's links "
                    "({\"intra\": ..., \"inter\": ..., \"nics_per_node\": ...}), a cluster preset, or the device's \"node\" "
                    "(docs/cluster.md)",
                "", field);
  Cluster c = Presets::instance().cluster(device.node, nullptr);
  c.assumed = {"intra", "inter", "nics_per_node"};
  c.assumed_from = device.node;
  return c;
}

Cluster read_request_cluster(const Json& request, const Device& device, std::string* device_key) {
  if (!request.contains("cluster")) return device_node_cluster(device, "cluster");
  const Json& v = request["cluster"];
  if (v.is_string()) return Presets::instance().cluster(v.get<std::string>(), device_key);
  if (!v.is_object()) throw Error("must be a cluster preset name or an object", "", "cluster");
  check_members(v);
  if (v.contains("preset")) {
    // A preset with overrides: each field named replaces only its own.
    if (!v["preset"].is_string()) throw Error("must be a cluster preset name, got " + echo(v["preset"]), "", "cluster.preset");
    Cluster c = Presets::instance().cluster(v["preset"].get<std::string>(), device_key);
    apply_fields(v, c);
    return c;
  }
  if (v.contains("intra") && v.contains("inter")) {
    Cluster c;
    c.key = "custom";
    apply_fields(v, c);
    if (!v.contains("name")) c.name = c.key;
    if (!v.contains("nics_per_node")) c.assumed.push_back("nics_per_node");  // one NIC, the documented default
    return c;
  }
  // A link left out is the device's node's, not the other link's (NVLink does not join nodes):
  // the node preset with what the object states on top, its counts included.
  Cluster c = device_node_cluster(device, v.contains("intra") ? "cluster.inter" : "cluster.intra");
  const std::string node_name = c.name;
  c.key = "custom";
  apply_fields(v, c);
  if (!v.contains("name")) c.name = node_name + ", with links of the request's own";
  if (v.contains("inter") && !v.contains("nics_per_node")) c.nics_per_node = 1;  // beside a network of its own
  auto stated = [&](const std::string& what) { return v.contains(what); };
  c.assumed.erase(std::remove_if(c.assumed.begin(), c.assumed.end(), stated), c.assumed.end());
  return c;
}

void check_request_cluster(const Json& request, const Cluster& c, const Device& device,
                           std::vector<std::string>& warnings) {
  const Json* obj = request.contains("cluster") && request["cluster"].is_object() ? &request["cluster"] : nullptr;
  if (obj && obj->contains("nics_per_node") && c.nics_per_node > c.devices_per_node)
    throw Error(std::to_string(c.nics_per_node) + " NICs for " + std::to_string(c.devices_per_node) +
                    " devices per node: the model gives each device at most one NIC (its share of the node's "
                    "NICs); for more, give the inter-node link of one device's NICs together",
                "", "cluster.nics_per_node");
  // Only what the step uses: the intra link with more than one device per node, the network and
  // its NICs with more than one node.
  std::vector<std::string> parts;
  if (is_assumed(c, "intra") && c.devices_per_node > 1)
    parts.push_back("the intra-node link '" + c.intra.key + "' (" + quoted_name(c.intra.name) + ", " +
                    gb_per_s(c.intra.bandwidth_gb_per_s) + ")");
  if (c.nodes > 1 && (is_assumed(c, "inter") || is_assumed(c, "nics_per_node"))) {
    std::string net = std::to_string(c.nics_per_node) + (c.nics_per_node == 1 ? " NIC" : " NICs") + " per node";
    if (is_assumed(c, "inter"))
      net += " of '" + c.inter.key + "' (" + quoted_name(c.inter.name) + ", " + gb_per_s(c.inter.bandwidth_gb_per_s) +
             " each)";
    else
      net += " (the default, on the request's own network)";
    parts.push_back(net);
  }
  if (parts.empty()) return;
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  const std::string from = c.assumed_from.empty() ? std::string("")
                                                  : " from the node preset '" + c.assumed_from + "' of the device '" +
                                                        quoted_name(device.name) + "'";
  warnings.push_back("cluster: assumed " + text + from +
                     ", which the request does not state (state \"cluster\", or --cluster, --intra, --inter, "
                     "--nics_per_node, to price others)");
}

}  // namespace paleo
