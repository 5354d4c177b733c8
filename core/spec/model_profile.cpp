#include "core/spec/model_profile.h"

#include "core/base/error.h"

namespace paleo {

const ModelProfile& paleo2017_profile() {
  static const ModelProfile profile = [] {
    ModelProfile p;
    p.name = "paleo2017";
    return p;
  }();
  return profile;
}

const ModelProfile& paleo2026_profile() {
  static const ModelProfile profile = [] {
    ModelProfile p;
    p.name = "paleo2026";
    p.memory_bytes_per_gb = 1e9;
    p.one_cycle_floor_per_term = false;
    p.update_at_unit_ppp = false;
    p.original_fetch_rules = false;
    p.dense_strided_data_gradient = false;
    p.cost_memory_bound_layers = true;
    p.batch_norm_parameters = true;
    p.precision_and_eras = true;
    return p;
  }();
  return profile;
}

const ModelProfile& default_profile() { return paleo2026_profile(); }

const ModelProfile& find_profile(const std::string& name) {
  if (name == "paleo2017") return paleo2017_profile();
  if (name == "paleo2026") return paleo2026_profile();
  throw Error("unknown model profile '" + name + "' (known: paleo2017, paleo2026)", "", "profile");
}

std::vector<std::string> profile_names() { return {"paleo2017", "paleo2026"}; }

}  // namespace paleo
