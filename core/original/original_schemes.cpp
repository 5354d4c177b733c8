#include "core/original/original_schemes.h"

namespace paleo {

const char* scheme_name(OriginalScheme scheme) {
  switch (scheme) {
    case OriginalScheme::kOneToAll: return "OneToAll";
    case OriginalScheme::kTreeAllReduce: return "TreeAllReduce";
    case OriginalScheme::kButterflyAllReduce: return "ButterflyAllReduce";
    case OriginalScheme::kButterflyMixing: return "ButterflyMixing";
  }
  return "";
}

int tree_height(std::int64_t workers) {
  int h = 0;
  for (std::int64_t span = 1; span < workers; span *= 2) ++h;
  return h;
}

double all_reduce_ms(OriginalScheme scheme, std::int64_t workers, double bytes, const Interconnect& network,
                     double ppp_comm) {
  const double bytes_per_s = network.bandwidth_gbit_per_s / 8 * 1e9;
  auto link_ms = [&](double b) { return b / bytes_per_s * 1000 / ppp_comm; };
  const double h = tree_height(workers);
  switch (scheme) {
    case OriginalScheme::kOneToAll:  // the master's link carries every worker's gradients
      return 2 * link_ms(bytes * static_cast<double>(workers - 1));
    case OriginalScheme::kTreeAllReduce:  // reduce up a binary tree, broadcast down
      return 2 * h * link_ms(bytes);
    case OriginalScheme::kButterflyAllReduce:
      return h * link_ms(bytes);
    case OriginalScheme::kButterflyMixing:
      return link_ms(bytes);
  }
  return 0;
}

}  // namespace paleo
