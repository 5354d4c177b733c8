#pragma once
// Alpha-beta costs of collective operations (Ben-Nun & Hoefler, section 2.5; Thakur, Rabenseifner
// & Gropp 2005 for the MPICH forms), with the reduction's compute term where data is reduced.
// `bytes` is the size of the full vector held by each process (all-gather: the gathered
// result; all-to-all: what each process sends in total).
#include <cstdint>
#include <string>
#include <vector>

#include "core/hardware/cluster.h"

namespace paleo {

enum class CollectiveOp { kAllReduce, kReduceScatter, kAllGather, kBroadcast, kAllToAll };

enum class CollectiveAlgorithm {
  kRing, kRecursiveDoubling, kRabenseifner, kBinomialTree, kDoubleBinaryTree,
  kParameterServer, kShardedParameterServer, kPairwise, kHierarchical, kAuto
};

struct CollectiveCost {
  std::string algorithm;
  double alpha_ms = 0;      // latency terms
  double beta_ms = 0;       // bandwidth terms
  double reduction_ms = 0;  // local reduction compute
  double time_ms() const { return alpha_ms + beta_ms + reduction_ms; }
};

// Adds b's latency, bandwidth and reduction terms to a's (a keeps its algorithm name).
CollectiveCost& operator+=(CollectiveCost& a, const CollectiveCost& b);

// The collective library of the software stack, which decides which all-reduce algorithms `auto`
// chooses among and how a ring or tree is priced (core/cluster/nccl_model.h): any algorithm at its
// alpha-beta cost (kAny); NCCL before 2.4, rings only (kNcclRing); NCCL 2.4 and later, rings and
// double binary trees (kNccl), each priced by NCCL's own cost model of the Simple protocol.
enum class CollectiveLibrary { kAny, kNcclRing, kNccl };

// "any", "nccl_ring" or "nccl"; throws paleo::Error naming `field`.
CollectiveLibrary parse_collective_library(const std::string& name, const std::string& field);
const char* collective_library_name(CollectiveLibrary library);
// Whether `library` runs `algorithm` (kAny runs every one; NCCL rings, and trees from 2.4 on).
bool offered_by(CollectiveLibrary library, CollectiveAlgorithm algorithm);

struct CollectiveSettings {
  // Milliseconds per byte reduced (the reduction reads two operands and writes one).
  double reduction_ms_per_byte = 0;
  std::int64_t servers = 1;  // sharded parameter server
  // The software's time to issue one message, added to the link's latency at every step.
  double message_overhead_ms = 0;
  CollectiveLibrary library = CollectiveLibrary::kAny;
  // NCCL's factor on a ring's latency across nodes ("plateau effect of ring"): 1.9 before
  // Ampere, 1.4 from Ampere on (nccl_ring_plateau).
  double ring_plateau = 1.9;
};

// Rounds of a recursive doubling over p workers: the smallest h with 2^h >= p (0 for p <= 1).
int ceil_log2(std::int64_t p);

CollectiveOp parse_collective_op(const std::string& name);                // throws (field "op")
CollectiveAlgorithm parse_collective_algorithm(const std::string& name);  // throws (field "algorithm")
const char* collective_op_name(CollectiveOp op);
const char* collective_algorithm_name(CollectiveAlgorithm a);
// The flat (single-link) algorithms that implement `op`.
const std::vector<CollectiveAlgorithm>& flat_algorithms(CollectiveOp op);

// One flat algorithm over `workers` processes on one kind of link. Throws paleo::Error when
// the algorithm does not implement the operation.
CollectiveCost collective_cost(CollectiveOp op, CollectiveAlgorithm algorithm, std::int64_t workers, double bytes,
                               const Link& link, const CollectiveSettings& settings);

// The fastest flat algorithm for `op`.
CollectiveCost best_collective(CollectiveOp op, std::int64_t workers, double bytes, const Link& link,
                               const CollectiveSettings& settings);

// Hierarchical all-reduce on a cluster: reduce-scatter inside each node, all-reduce of each
// device's 1/G share across nodes (sharing the node's NICs), all-gather inside the node. Each
// phase uses its fastest flat algorithm unless `inter_algorithm` pins the middle one.
CollectiveCost hierarchical_all_reduce(const Cluster& cluster, double bytes, const CollectiveSettings& settings,
                                       CollectiveAlgorithm inter_algorithm = CollectiveAlgorithm::kAuto);

// Hierarchical reduce-scatter (inside the node, then of each device's 1/G share across nodes)
// and all-gather (across nodes of each device's 1/G share, then inside the node): the halves of
// the hierarchical all-reduce, as NCCL runs them on multi-NIC nodes.
CollectiveCost hierarchical_collective(CollectiveOp op, const Cluster& cluster, double bytes,
                                       const CollectiveSettings& settings);

// The link a ring over the whole cluster moves at: its slowest hop. On one node the intra link;
// across nodes with one device each the inter link (one NIC's bandwidth); across nodes of G > 1
// devices, where the ring runs through every node's intra hops as well as one NIC per node
// boundary, the slower of the two bandwidths with the larger of the two latencies.
Link ring_link(const Cluster& cluster);

// A collective over a whole cluster: flat algorithms run over the inter-node link once there is
// more than one node (a ring at its slowest hop, ring_link; the others with the node's devices
// sharing its NICs); kHierarchical as above (all-reduce, reduce-scatter, all-gather); kAuto the
// fastest of all. With an NCCL library (settings.library) an all-reduce's ring and double binary
// tree are NCCL's (nccl_model.h), and kAuto chooses among the algorithms that library offers;
// an all-gather's or reduce-scatter's kAuto and kRing are NCCL's ring, the only one it runs.
CollectiveCost cluster_collective(CollectiveOp op, CollectiveAlgorithm algorithm, const Cluster& cluster,
                                  double bytes, const CollectiveSettings& settings);

}  // namespace paleo
