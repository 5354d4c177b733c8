#include "core/cluster/collectives.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/base/error.h"
#include "core/cluster/nccl_model.h"

namespace paleo {

int ceil_log2(std::int64_t p) {
  int h = 0;
  for (std::int64_t span = 1; span < p; span *= 2) ++h;
  return h;
}

namespace {

struct Terms {
  double alpha_steps = 0;   // multiples of alpha
  double beta_bytes = 0;    // bytes through the slowest link, in sequence
  double reduced_bytes = 0; // bytes reduced locally
};

int floor_log2(std::int64_t p) {
  int h = 0;
  while ((std::int64_t{2} << h) <= p) ++h;
  return h;
}

bool power_of_two(std::int64_t p) { return p > 0 && (p & (p - 1)) == 0; }

// Returns false when the algorithm does not implement the operation.
bool flat_terms(CollectiveOp op, CollectiveAlgorithm a, std::int64_t p, double n, std::int64_t servers, Terms& t) {
  const double pd = static_cast<double>(p);
  const double frac = (pd - 1) / pd;
  const double lg = ceil_log2(p);
  const bool pow2 = power_of_two(p);
  // MPICH's non-power-of-two fold: one extra step in and one out, each moving the vector.
  const double fold_steps = pow2 ? 0 : 2;
  const double fold_bytes = pow2 ? 0 : n;
  using A = CollectiveAlgorithm;
  switch (op) {
    case CollectiveOp::kAllReduce:
      switch (a) {
        case A::kRing:
          t = {2 * (pd - 1), 2 * n * frac, n * frac};
          return true;
        case A::kRecursiveDoubling: {
          const double steps = pow2 ? lg : floor_log2(p) + 2;
          t = {steps, n * steps, n * (pow2 ? lg : floor_log2(p) + 1)};
          return true;
        }
        case A::kRabenseifner: {
          if (pow2) {
            t = {2 * lg, 2 * n * frac, n * frac};
          } else {
            const double q = std::ldexp(1.0, floor_log2(p));  // largest power of two <= p
            const double qfrac = (q - 1) / q;
            t = {2.0 * floor_log2(p) + 2, (2 * qfrac + 2) * n, n * (1 + qfrac)};
          }
          return true;
        }
        case A::kBinomialTree:  // reduce to a root, then broadcast
          t = {2 * lg, 2 * n * lg, n * lg};
          return true;
        case A::kDoubleBinaryTree:  // two pipelined trees, each carrying half the vector
          t = {2 * lg, 2 * n, n};
          return true;
        case A::kParameterServer:  // every worker pushes and pulls through the server's link
          t = {2, 2 * n * pd, n * pd};
          return true;
        case A::kShardedParameterServer: {
          const double s = static_cast<double>(servers);
          const double load = pd / s > 1 ? pd / s : 1;  // the busier of a server's and a worker's link
          t = {2, 2 * n * load, n * pd / s};
          return true;
        }
        default:
          return false;
      }
    case CollectiveOp::kReduceScatter:
      if (a == A::kRing) {
        t = {pd - 1, n * frac, n * frac};
        return true;
      }
      if (a == A::kRecursiveDoubling) {  // recursive halving
        t = {lg + fold_steps, n * frac + fold_bytes, n * frac + fold_bytes};
        return true;
      }
      return false;
    case CollectiveOp::kAllGather:
      if (a == A::kRing) {
        t = {pd - 1, n * frac, 0};
        return true;
      }
      if (a == A::kRecursiveDoubling) {
        t = {lg + fold_steps, n * frac + fold_bytes, 0};
        return true;
      }
      return false;
    case CollectiveOp::kBroadcast:
      if (a == A::kBinomialTree) {
        t = {lg, n * lg, 0};
        return true;
      }
      if (a == A::kRabenseifner) {  // scatter, then recursive-doubling all-gather (van de Geijn)
        t = {2 * lg + fold_steps, 2 * n * frac + fold_bytes, 0};
        return true;
      }
      if (a == A::kRing) {  // scatter, then ring all-gather
        t = {lg + pd - 1, 2 * n * frac, 0};
        return true;
      }
      return false;
    case CollectiveOp::kAllToAll:
      if (a == A::kPairwise) {
        t = {pd - 1, n * frac, 0};
        return true;
      }
      return false;
  }
  return false;
}

CollectiveCost from_terms(const Terms& t, const Link& link, const CollectiveSettings& s, const char* name) {
  CollectiveCost c;
  c.algorithm = name;
  c.alpha_ms = t.alpha_steps * (link.alpha_ms() + s.message_overhead_ms);
  c.beta_ms = t.beta_bytes * link.ms_per_byte();
  c.reduction_ms = t.reduced_bytes * s.reduction_ms_per_byte;
  return c;
}

}  // namespace

CollectiveCost& operator+=(CollectiveCost& a, const CollectiveCost& b) {
  a.alpha_ms += b.alpha_ms;
  a.beta_ms += b.beta_ms;
  a.reduction_ms += b.reduction_ms;
  return a;
}

CollectiveLibrary parse_collective_library(const std::string& name, const std::string& field) {
  if (name == "any") return CollectiveLibrary::kAny;
  if (name == "nccl_ring") return CollectiveLibrary::kNcclRing;
  if (name == "nccl") return CollectiveLibrary::kNccl;
  throw Error("unknown collective library '" + name + "' (known: any, nccl_ring, nccl)", "", field);
}

const char* collective_library_name(CollectiveLibrary library) {
  switch (library) {
    case CollectiveLibrary::kAny: return "any";
    case CollectiveLibrary::kNcclRing: return "nccl_ring";
    case CollectiveLibrary::kNccl: return "nccl";
  }
  return "";
}

bool offered_by(CollectiveLibrary library, CollectiveAlgorithm algorithm) {
  if (library == CollectiveLibrary::kAny) return true;
  if (algorithm == CollectiveAlgorithm::kRing) return true;
  return library == CollectiveLibrary::kNccl && algorithm == CollectiveAlgorithm::kDoubleBinaryTree;
}

CollectiveOp parse_collective_op(const std::string& name) {
  if (name == "allreduce" || name == "all_reduce") return CollectiveOp::kAllReduce;
  if (name == "reducescatter" || name == "reduce_scatter") return CollectiveOp::kReduceScatter;
  if (name == "allgather" || name == "all_gather") return CollectiveOp::kAllGather;
  if (name == "broadcast") return CollectiveOp::kBroadcast;
  if (name == "alltoall" || name == "all_to_all") return CollectiveOp::kAllToAll;
  throw Error("unknown collective '" + name + "' (known: allreduce, reducescatter, allgather, broadcast, alltoall)",
              "", "op");
}

CollectiveAlgorithm parse_collective_algorithm(const std::string& name) {
  using A = CollectiveAlgorithm;
  static const std::pair<const char*, A> table[] = {
      {"ring", A::kRing}, {"recursive_doubling", A::kRecursiveDoubling}, {"butterfly", A::kRecursiveDoubling},
      {"rabenseifner", A::kRabenseifner}, {"binomial_tree", A::kBinomialTree},
      {"double_binary_tree", A::kDoubleBinaryTree}, {"parameter_server", A::kParameterServer},
      {"sharded_parameter_server", A::kShardedParameterServer}, {"pairwise", A::kPairwise},
      {"hierarchical", A::kHierarchical}, {"auto", A::kAuto}};
  for (const auto& [n, a] : table)
    if (name == n) return a;
  throw Error("unknown collective algorithm '" + name +
                  "' (known: ring, recursive_doubling, rabenseifner, binomial_tree, double_binary_tree, "
                  "parameter_server, sharded_parameter_server, pairwise, hierarchical, auto)",
              "", "algorithm");
}

const char* collective_op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllReduce: return "allreduce";
    case CollectiveOp::kReduceScatter: return "reducescatter";
    case CollectiveOp::kAllGather: return "allgather";
    case CollectiveOp::kBroadcast: return "broadcast";
    case CollectiveOp::kAllToAll: return "alltoall";
  }
  return "";
}

const char* collective_algorithm_name(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::kRing: return "ring";
    case CollectiveAlgorithm::kRecursiveDoubling: return "recursive_doubling";
    case CollectiveAlgorithm::kRabenseifner: return "rabenseifner";
    case CollectiveAlgorithm::kBinomialTree: return "binomial_tree";
    case CollectiveAlgorithm::kDoubleBinaryTree: return "double_binary_tree";
    case CollectiveAlgorithm::kParameterServer: return "parameter_server";
    case CollectiveAlgorithm::kShardedParameterServer: return "sharded_parameter_server";
    case CollectiveAlgorithm::kPairwise: return "pairwise";
    case CollectiveAlgorithm::kHierarchical: return "hierarchical";
    case CollectiveAlgorithm::kAuto: return "auto";
  }
  return "";
}

const std::vector<CollectiveAlgorithm>& flat_algorithms(CollectiveOp op) {
  using A = CollectiveAlgorithm;
  // Listed once per operation: every collective priced asks.
  static const auto lists = [] {
    std::array<std::vector<A>, 5> out;
    for (CollectiveOp o : {CollectiveOp::kAllReduce, CollectiveOp::kReduceScatter, CollectiveOp::kAllGather,
                           CollectiveOp::kBroadcast, CollectiveOp::kAllToAll})
      for (A a : {A::kRing, A::kRecursiveDoubling, A::kRabenseifner, A::kBinomialTree, A::kDoubleBinaryTree,
                  A::kParameterServer, A::kShardedParameterServer, A::kPairwise}) {
        Terms t;
        if (flat_terms(o, a, 4, 1, 1, t)) out[static_cast<std::size_t>(o)].push_back(a);
      }
    return out;
  }();
  return lists[static_cast<std::size_t>(op)];
}

CollectiveCost collective_cost(CollectiveOp op, CollectiveAlgorithm algorithm, std::int64_t workers, double bytes,
                               const Link& link, const CollectiveSettings& settings) {
  if (algorithm == CollectiveAlgorithm::kAuto) return best_collective(op, workers, bytes, link, settings);
  Terms t;
  if (!flat_terms(op, algorithm, workers, bytes, settings.servers, t))
    throw Error(std::string("'") + collective_algorithm_name(algorithm) + "' does not implement " +
                    collective_op_name(op), "", "algorithm");
  if (workers <= 1) t = Terms{};
  return from_terms(t, link, settings, collective_algorithm_name(algorithm));
}

CollectiveCost best_collective(CollectiveOp op, std::int64_t workers, double bytes, const Link& link,
                               const CollectiveSettings& settings) {
  CollectiveCost best;
  double best_ms = std::numeric_limits<double>::infinity();
  for (CollectiveAlgorithm a : flat_algorithms(op)) {
    if (a == CollectiveAlgorithm::kParameterServer || a == CollectiveAlgorithm::kShardedParameterServer) continue;
    CollectiveCost c = collective_cost(op, a, workers, bytes, link, settings);
    if (c.time_ms() < best_ms) {
      best_ms = c.time_ms();
      best = c;
    }
  }
  return best;
}

CollectiveCost hierarchical_all_reduce(const Cluster& cluster, double bytes, const CollectiveSettings& settings,
                                       CollectiveAlgorithm inter_algorithm) {
  const std::int64_t g = cluster.devices_per_node;
  CollectiveCost total;
  total.algorithm = "hierarchical";
  if (g > 1) total += best_collective(CollectiveOp::kReduceScatter, g, bytes, cluster.intra, settings);
  // Each device all-reduces its 1/G share across nodes; the node's NICs are shared by its G devices.
  const Link inter = cluster.shared_inter();
  if (cluster.nodes > 1)
    total += collective_cost(CollectiveOp::kAllReduce, inter_algorithm, cluster.nodes, bytes / static_cast<double>(g),
                             inter, settings);
  if (g > 1) total += best_collective(CollectiveOp::kAllGather, g, bytes, cluster.intra, settings);
  return total;
}

CollectiveCost hierarchical_collective(CollectiveOp op, const Cluster& cluster, double bytes,
                                       const CollectiveSettings& settings) {
  if (op == CollectiveOp::kAllReduce) return hierarchical_all_reduce(cluster, bytes, settings);
  if (op != CollectiveOp::kReduceScatter && op != CollectiveOp::kAllGather)
    throw Error("'hierarchical' implements allreduce, reducescatter and allgather", "", "algorithm");
  const std::int64_t g = cluster.devices_per_node;
  CollectiveCost total;
  total.algorithm = "hierarchical";
  if (g > 1) total += best_collective(op, g, bytes, cluster.intra, settings);
  const Link inter = cluster.shared_inter();
  if (cluster.nodes > 1) total += best_collective(op, cluster.nodes, bytes / static_cast<double>(g), inter, settings);
  return total;
}

namespace {

// The link a flat algorithm sees across a cluster. A ring crosses each node boundary once, at a
// NIC's full bandwidth, and with G > 1 devices per node also runs through the node's intra link:
// all its hops carry the same chunk at once, so it moves at its slowest hop (ring_link). A
// parameter server is limited by the server's own link; the other algorithms pair devices of
// different nodes all at once, so a node's G devices share its NICs.
Link flat_link(const Cluster& cluster, CollectiveAlgorithm algorithm) {
  if (cluster.nodes <= 1) return cluster.intra;
  if (algorithm == CollectiveAlgorithm::kRing) return ring_link(cluster);
  Link link = cluster.inter;
  if (algorithm != CollectiveAlgorithm::kParameterServer && algorithm != CollectiveAlgorithm::kShardedParameterServer) {
    const std::int64_t g = cluster.devices_per_node;
    const double nics = static_cast<double>(cluster.nics_per_node < g ? cluster.nics_per_node : g);
    link.bandwidth_gb_per_s *= nics / static_cast<double>(g);
  }
  return link;
}

}  // namespace

Link ring_link(const Cluster& cluster) {
  if (cluster.nodes <= 1) return cluster.intra;
  if (cluster.devices_per_node <= 1) return cluster.inter;
  Link slowest = cluster.inter.bandwidth_gb_per_s <= cluster.intra.bandwidth_gb_per_s ? cluster.inter : cluster.intra;
  slowest.latency_us = std::max(cluster.intra.latency_us, cluster.inter.latency_us);
  return slowest;
}

namespace {

// An all-reduce as an NCCL library runs it: its ring or tree as NCCL prices them, `auto` the
// faster of those it offers. False for the algorithms NCCL does not run (priced as before).
bool nccl_all_reduce(CollectiveAlgorithm algorithm, const Cluster& cluster, double bytes,
                     const CollectiveSettings& settings, CollectiveCost& out) {
  using A = CollectiveAlgorithm;
  if (algorithm == A::kRing) {
    out = nccl_ring_all_reduce(cluster, bytes, settings);
    return true;
  }
  if (algorithm == A::kDoubleBinaryTree) {
    out = nccl_tree_all_reduce(cluster, bytes, settings);
    return true;
  }
  if (algorithm != A::kAuto) return false;
  out = nccl_ring_all_reduce(cluster, bytes, settings);
  if (settings.library == CollectiveLibrary::kNccl) {
    const CollectiveCost tree = nccl_tree_all_reduce(cluster, bytes, settings);
    if (tree.time_ms() < out.time_ms()) out = tree;
  }
  return true;
}

}  // namespace

CollectiveCost cluster_collective(CollectiveOp op, CollectiveAlgorithm algorithm, const Cluster& cluster,
                                  double bytes, const CollectiveSettings& settings) {
  if (op == CollectiveOp::kAllReduce && settings.library != CollectiveLibrary::kAny) {
    CollectiveCost c;
    if (nccl_all_reduce(algorithm, cluster, bytes, settings, c)) return c;
  }
  // NCCL runs all-gathers and reduce-scatters as its ring only (src/graph/tuning.cc).
  const bool nccl_ring = algorithm == CollectiveAlgorithm::kAuto || algorithm == CollectiveAlgorithm::kRing;
  if (settings.library != CollectiveLibrary::kAny && nccl_ring) {
    if (op == CollectiveOp::kAllGather) return nccl_ring_all_gather(cluster, bytes, settings);
    if (op == CollectiveOp::kReduceScatter) return nccl_ring_reduce_scatter(cluster, bytes, settings);
  }
  if (algorithm == CollectiveAlgorithm::kHierarchical) return hierarchical_collective(op, cluster, bytes, settings);
  if (algorithm != CollectiveAlgorithm::kAuto)
    return collective_cost(op, algorithm, cluster.devices(), bytes, flat_link(cluster, algorithm), settings);
  CollectiveCost best;
  double best_ms = std::numeric_limits<double>::infinity();
  for (CollectiveAlgorithm a : flat_algorithms(op)) {
    if (a == CollectiveAlgorithm::kParameterServer || a == CollectiveAlgorithm::kShardedParameterServer) continue;
    CollectiveCost c = collective_cost(op, a, cluster.devices(), bytes, flat_link(cluster, a), settings);
    if (c.time_ms() < best_ms) {
      best_ms = c.time_ms();
      best = c;
    }
  }
  const bool hierarchical = op == CollectiveOp::kAllReduce || op == CollectiveOp::kReduceScatter ||
                            op == CollectiveOp::kAllGather;
  if (hierarchical && cluster.nodes > 1 && cluster.devices_per_node > 1) {
    CollectiveCost h = hierarchical_collective(op, cluster, bytes, settings);
    if (h.time_ms() < best.time_ms()) best = h;
  }
  return best;
}

}  // namespace paleo
