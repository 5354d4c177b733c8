#include "core/training_scheme/sparse_all_reduce.h"

#include <algorithm>
#include <cmath>

namespace paleo {
namespace {

std::int64_t rounds(std::int64_t workers) {
  std::int64_t r = 0;
  while ((std::int64_t{1} << r) < workers) ++r;
  return r;
}

}  // namespace

double sparse_all_reduce_bytes_sent(double nonzeros, double values, std::int64_t workers, double value_bytes,
                                    double index_bytes) {
  double sent = 0, held = nonzeros;
  for (std::int64_t j = 0; j < rounds(workers); ++j) {
    sent += std::min(held * (value_bytes + index_bytes), values * value_bytes);
    held = std::min(2 * held, values);
  }
  return sent;
}

CollectiveCost sparse_all_reduce(double nonzeros, double values, std::int64_t workers, const Link& link,
                                 const CollectiveSettings& settings, double value_bytes, double index_bytes) {
  CollectiveCost c;
  c.algorithm = "sparse_recursive_doubling";
  const double sent = sparse_all_reduce_bytes_sent(nonzeros, values, workers, value_bytes, index_bytes);
  c.alpha_ms = static_cast<double>(rounds(workers)) * link.alpha_ms();
  c.beta_ms = sent * link.ms_per_byte();
  c.reduction_ms = sent * settings.reduction_ms_per_byte;
  return c;
}

Link pairwise_link(const Cluster& cluster) {
  if (cluster.nodes <= 1) return cluster.intra;
  Link link = cluster.inter;
  const std::int64_t g = cluster.devices_per_node;
  const double nics = static_cast<double>(std::min(cluster.nics_per_node, g));
  link.bandwidth_gb_per_s *= nics / static_cast<double>(g);
  return link;
}

}  // namespace paleo
