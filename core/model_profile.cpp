#include "core/model_profile.h"

#include "core/error.h"

namespace paleo {

const ModelProfile& paleo2017_profile() {
  static const ModelProfile profile = [] {
    ModelProfile p;
    p.name = "paleo2017";
    return p;
  }();
  return profile;
}

const ModelProfile& find_profile(const std::string& name) {
  if (name == "paleo2017") return paleo2017_profile();
  throw Error("unknown model profile '" + name + "' (known: paleo2017)", "", "profile");
}

std::vector<std::string> profile_names() { return {"paleo2017"}; }

}  // namespace paleo
