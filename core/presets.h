#pragma once
// The built-in presets: presets/*.json compiled into the core (core/embedded_presets.h).
#include <string>
#include <vector>

#include "core/hardware.h"
#include "core/json.h"

namespace paleo {

class Presets {
 public:
  static const Presets& instance();  // parsed once, on first use

  // Each throws paleo::Error (field = the request field) for an unknown key.
  const Json& net(const std::string& key) const;
  Device device(const std::string& key) const;
  Interconnect interconnect(const std::string& key) const;
  Software software(const std::string& key) const;

  std::vector<std::string> net_keys() const;
  const Json& devices() const { return devices_; }
  const Json& interconnects() const { return networks_; }
  const Json& software_list() const { return software_; }
  const Json& scenarios() const { return scenarios_; }
  const Json& prices() const { return prices_; }

 private:
  Presets();
  std::vector<std::pair<std::string, Json>> nets_;  // key = file stem of nets/<key>.json
  Json devices_ = Json::array();
  Json networks_ = Json::array();
  Json software_ = Json::array();
  Json scenarios_ = Json::array();
  Json prices_ = Json::array();
};

// Device and interconnect from a request object ({"name", "peak_gflops", ...}); throws with the
// request field named.
Device device_from_json(const Json& obj, const std::string& field);
Interconnect interconnect_from_json(const Json& obj, const std::string& field);

}  // namespace paleo
