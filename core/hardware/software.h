#pragma once
// A software PPP pair: the original PALEO's single constant fraction of peak per framework
// (presets/software.json). The software eras of the efficiency model are core/efficiency/.
#include <string>

namespace paleo {

// Platform percent of peak: the fraction of peak a framework reaches.
struct Software {
  std::string key;
  std::string name;
  double ppp_comp = 1.0;  // compute and local memory
  double ppp_comm = 1.0;  // network and cross-device fetches
};

}  // namespace paleo
