#pragma once
// The built-in presets: presets/*.json compiled into the core (core/embedded_presets.h).
#include <string>
#include <vector>

#include "core/hardware.h"
#include "core/json.h"
#include "core/link.h"

namespace paleo {

class Presets {
 public:
  static const Presets& instance();  // parsed once, on first use

  // Each throws paleo::Error (field = the request field) for an unknown key.
  const Json& net(const std::string& key) const;
  Device device(const std::string& key) const;
  Interconnect interconnect(const std::string& key) const;
  Software software(const std::string& key) const;
  Link link(const std::string& key, const std::string& field) const;
  // A cluster preset; its "device" (if any) is returned through `device_key`.
  Cluster cluster(const std::string& key, std::string* device_key) const;

  std::vector<std::string> net_keys() const;
  // Transformer presets (presets/transformers/<key>.json: {key, name, transformer: {...}, ...}).
  const Json* find_transformer(const std::string& key) const;  // nullptr when unknown
  std::vector<std::string> transformer_keys() const;
  // Validation case files (presets/validation/<name>.json: {"cases": [...]}, docs/validation.md),
  // as (file stem, document) in file-name order.
  const std::vector<std::pair<std::string, Json>>& validation_files() const { return validation_; }
  const Json& devices() const { return devices_; }
  const Json& interconnects() const { return networks_; }
  const Json& software_list() const { return software_; }
  const Json& scenarios() const { return scenarios_; }
  const Json& prices() const { return prices_; }
  const Json& links() const { return links_; }
  const Json& clusters() const { return clusters_; }
  const Json& software_eras() const { return software_eras_; }

 private:
  Presets();
  std::vector<std::pair<std::string, Json>> nets_;  // key = file stem of nets/<key>.json
  std::vector<std::pair<std::string, Json>> transformers_;  // key = file stem of transformers/<key>.json
  std::vector<std::pair<std::string, Json>> validation_;    // key = file stem of validation/<name>.json
  Json devices_ = Json::array();
  Json networks_ = Json::array();
  Json software_ = Json::array();
  Json scenarios_ = Json::array();
  Json prices_ = Json::array();
  Json links_ = Json::array();
  Json clusters_ = Json::array();
  Json software_eras_ = Json::array();
};

// Device and interconnect from a request object ({"name", "peak_gflops", ...}); throws with the
// request field named.
Device device_from_json(const Json& obj, const std::string& field);
Interconnect interconnect_from_json(const Json& obj, const std::string& field);
// A link: a preset key or {"latency_us", "bandwidth_gb_per_s"} (or "achievable_gb_per_s").
Link link_from_json(const Json& value, const std::string& field);
// A cluster: a preset key or {"nodes", "devices_per_node", "intra", "inter", "nics_per_node"}.
Cluster cluster_from_json(const Json& value, const std::string& field, std::string* device_key);

}  // namespace paleo
