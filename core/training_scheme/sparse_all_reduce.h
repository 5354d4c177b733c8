#pragma once
// Sparse all-reduce of sparsified gradients (Ben-Nun & Hoefler's survey, section 6.3.2; feature C12
// of docs/training-schemes.md; Kylix, Zhao & Canny 2014; SparCML, Renggli et al. 2018): recursive
// doubling over (index, value) pairs whose sum fills in round by round, switching to dense values
// once the sparse form is the larger one (density >= value_bytes / (value_bytes + index_bytes)).
#include <cstdint>

#include "core/cluster/collectives.h"
#include "core/hardware/cluster.h"

namespace paleo {

// `nonzeros` of `values` per worker, every worker's set disjoint from the others' (the worst
// case: the sum fills in fastest). Round j (j = 0 .. ceil(log2 p) - 1) sends
// min(nonzeros 2^j (vb + ib), values vb) bytes: alpha + bytes beta, plus merging them (g per byte).
CollectiveCost sparse_all_reduce(double nonzeros, double values, std::int64_t workers, const Link& link,
                                 const CollectiveSettings& settings, double value_bytes = 4, double index_bytes = 4);

// The bytes one worker sends in it (the sum of the rounds' messages).
double sparse_all_reduce_bytes_sent(double nonzeros, double values, std::int64_t workers, double value_bytes = 4,
                                    double index_bytes = 4);

// The link recursive doubling sees across a cluster: the inter-node link with the node's
// devices sharing its NICs once there is more than one node, else the intra-node link.
Link pairwise_link(const Cluster& cluster);

}  // namespace paleo
