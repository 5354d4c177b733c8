// NCCL's cost model of its ring and tree all-reduce (core/cluster/nccl_model.h, from NVIDIA/nccl
// src/graph/tuning.cc), the stack's collective library choosing the gradient all-reduce, the last
// bucket's exposure and the scaling efficiencies of a cluster step: numbers worked out by hand.
#include <catch2/catch.hpp>

#include <string>

#include "core/api.h"
#include "core/base/error.h"
#include "core/cluster/collectives.h"
#include "core/cluster/gradient_sync.h"
#include "core/cluster/nccl_model.h"

namespace {

paleo::Link link(const std::string& key, double latency_us, double gb_per_s) {
  paleo::Link l;
  l.key = key;
  l.latency_us = latency_us;
  l.bandwidth_gb_per_s = gb_per_s;
  return l;
}

paleo::Cluster cluster(long nodes, long per_node, const paleo::Link& intra, const paleo::Link& inter, long nics = 1) {
  paleo::Cluster c;
  c.nodes = nodes;
  c.devices_per_node = per_node;
  c.intra = intra;
  c.inter = inter;
  c.nics_per_node = nics;
  return c;
}

}  // namespace

TEST_CASE("NCCL's ring: 8.4 us, a PCIe hop 5.7 us, a network hop 14 us, times 1.9 across nodes before Ampere") {
  paleo::CollectiveSettings s;  // no reduction term: the latency and bandwidth alone
  s.ring_plateau = 1.9;
  // 2 nodes of 4 GPUs on PCIe: 2(8-1) = 14 steps, 2(2-1) = 2 of them across the network.
  const paleo::Cluster c = cluster(2, 4, link("pcie_test", 1, 12), link("net_test", 1, 3));
  const double bytes = 8e6;
  const paleo::CollectiveCost r = paleo::nccl_ring_all_reduce(c, bytes, s);
  CHECK(r.algorithm == "ring");
  CHECK(r.alpha_ms == Approx((8.4 + 12 * 5.7 + 2 * 14.0) * 1.9 / 1e3).epsilon(1e-12));  // 0.19912 ms
  // 2n(p-1)/p bytes through the slowest hop, the 3 GB/s NIC: 14e6 / 3e9 s.
  CHECK(r.beta_ms == Approx(14e6 / 3e9 * 1e3).epsilon(1e-12));
  CHECK(r.reduction_ms == 0);

  // One node of 4 on NVLink: 6 steps of 3.4 us after the 8.4 us base, no plateau.
  const paleo::Cluster one = cluster(1, 4, link("nvlink_test", 0.6, 100), link("net_test", 1, 3));
  CHECK(paleo::nccl_ring_all_reduce(one, bytes, s).alpha_ms == Approx((8.4 + 6 * 3.4) / 1e3).epsilon(1e-12));

  // Ampere and later: 1.4.
  paleo::Device ampere;
  ampere.generation = "ampere";
  paleo::Device volta;
  volta.generation = "volta";
  CHECK(paleo::nccl_ring_plateau(ampere) == 1.4);
  CHECK(paleo::nccl_ring_plateau(volta) == 1.9);
}

TEST_CASE("NCCL's tree: a chain in the node, log2 N network hops, 0.46 of the node's NICs, corrected by size") {
  paleo::CollectiveSettings s;
  // 16 nodes of 8 GPUs with 4 NICs of 12 GB/s: latency 6.8 + 2 (7 x 4.0 + 4 x 14) = 174.8 us.
  const paleo::Cluster c = cluster(16, 8, link("nvlink_test", 0.6, 150), link("net_test", 1, 12), 4);
  const double bytes = 67108864;  // 2^26: 2^20 chunks of 64 bytes, correction 0.8
  const paleo::CollectiveCost t = paleo::nccl_tree_all_reduce(c, bytes, s);
  CHECK(t.algorithm == "double_binary_tree");
  CHECK(t.alpha_ms == Approx(0.1748).epsilon(1e-12));
  // 4 x 12 = 48 GB/s x 0.92 x 0.5 x 0.8 = 17.664 GB/s.
  CHECK(t.beta_ms == Approx(67108864 / 17.664e9 * 1e3).epsilon(1e-12));
  // 25 MB: 390625 chunks, 2^18 <= 390625 < 2^19: 0.7; under 64 bytes and from 2^23 chunks on: 1.
  CHECK(paleo::nccl_tree_correction(25e6) == 0.7);
  CHECK(paleo::nccl_tree_correction(32) == 1.0);
  CHECK(paleo::nccl_tree_correction(64.0 * 8388608) == 1.0);
  CHECK(paleo::nccl_tree_correction(64.0 * 4194304) == 0.9);
  // Inside one node the intra link: 150 x 0.46 x 0.8 GB/s; across two nodes of one GPU each the
  // single 12 GB/s NIC, not the faster intra link.
  const paleo::Cluster one = cluster(1, 8, link("nvlink_test", 0.6, 150), link("net_test", 1, 12), 4);
  CHECK(paleo::nccl_tree_all_reduce(one, bytes, s).beta_ms == Approx(67108864 / (150 * 0.46 * 0.8 * 1e9) * 1e3));
  const paleo::Cluster pair = cluster(2, 1, link("nvlink_test", 0.6, 150), link("net_test", 1, 12), 1);
  CHECK(paleo::nccl_tree_all_reduce(pair, bytes, s).beta_ms == Approx(67108864 / (12 * 0.46 * 0.8 * 1e9) * 1e3));
}

TEST_CASE("the library decides what auto chooses: NCCL before 2.4 rings only, from 2.4 the faster of ring and tree") {
  // 256 nodes of 8 GPUs over one 12 GB/s NIC each, a 1 MB message: the ring's 4094 steps cost far
  // more than its bandwidth term, the tree's 2 log2(256) = 16 network hops do not.
  const paleo::Cluster c = cluster(256, 8, link("nvlink_test", 0.6, 150), link("net_test", 1, 12));
  const double bytes = 1e6;
  paleo::CollectiveSettings s;
  const auto any = paleo::cluster_collective(paleo::CollectiveOp::kAllReduce, paleo::CollectiveAlgorithm::kAuto, c, bytes, s);
  CHECK(any.algorithm != "ring");  // the alpha-beta set has faster ones
  s.library = paleo::CollectiveLibrary::kNcclRing;
  const auto ring = paleo::cluster_collective(paleo::CollectiveOp::kAllReduce, paleo::CollectiveAlgorithm::kAuto, c, bytes, s);
  CHECK(ring.algorithm == "ring");
  // (2 x 2047 - 2 x 255) hops of 3.4 us and 510 of 14 us after 8.4 us, times 1.9.
  CHECK(ring.alpha_ms == Approx((8.4 + 3584 * 3.4 + 510 * 14.0) * 1.9 / 1e3).epsilon(1e-12));
  s.library = paleo::CollectiveLibrary::kNccl;
  const auto tree = paleo::cluster_collective(paleo::CollectiveOp::kAllReduce, paleo::CollectiveAlgorithm::kAuto, c, bytes, s);
  CHECK(tree.algorithm == "double_binary_tree");
  CHECK(tree.alpha_ms == Approx((6.8 + 2 * (7 * 4.0 + 8 * 14.0)) / 1e3).epsilon(1e-12));
  // Other operations, and algorithms NCCL does not run, keep their alpha-beta cost.
  paleo::CollectiveSettings plain;
  CHECK(paleo::cluster_collective(paleo::CollectiveOp::kAllReduce, paleo::CollectiveAlgorithm::kRabenseifner, c, bytes, s)
            .time_ms() ==
        paleo::cluster_collective(paleo::CollectiveOp::kAllReduce, paleo::CollectiveAlgorithm::kRabenseifner, c, bytes, plain)
            .time_ms());
  CHECK(paleo::offered_by(paleo::CollectiveLibrary::kNcclRing, paleo::CollectiveAlgorithm::kRing));
  CHECK_FALSE(paleo::offered_by(paleo::CollectiveLibrary::kNcclRing, paleo::CollectiveAlgorithm::kDoubleBinaryTree));
  CHECK(paleo::offered_by(paleo::CollectiveLibrary::kNccl, paleo::CollectiveAlgorithm::kDoubleBinaryTree));
  CHECK_FALSE(paleo::offered_by(paleo::CollectiveLibrary::kNccl, paleo::CollectiveAlgorithm::kHierarchical));
}

TEST_CASE("the last bucket is exposed whole: it starts when the backward pass ends, though the channel is idle") {
  // Two layers of 10 ms backward, 5 MB of gradients each, buckets of 4 MB, 1 ms per MB reduced:
  // the first bucket runs from 10 to 15 ms, the second can only start at 20 ms and ends at 25.
  const auto sync = paleo::gradient_sync({10, 10}, {5e6, 5e6}, 4e6, [](double bytes) {
    paleo::CollectiveCost c;
    c.beta_ms = bytes / 1e6;
    return c;
  });
  CHECK(sync.buckets == 2);
  CHECK(sync.backward_ms == 20);
  CHECK(sync.backward_and_sync_ms == 25);
  CHECK(sync.exposed_overlap_ms() == 5);  // the last bucket's whole all-reduce
  // One bucket of everything waits for the whole backward pass: 20 + 10 ms.
  const auto one = paleo::gradient_sync({10, 10}, {5e6, 5e6}, 64e6, [](double bytes) {
    paleo::CollectiveCost c;
    c.beta_ms = bytes / 1e6;
    return c;
  });
  CHECK(one.exposed_overlap_ms() == 10);
}

TEST_CASE("scaling efficiencies of a cluster step, and the collective library of a request") {
  nlohmann::ordered_json q = {{"command", "estimate"}, {"net", "resnet50_v1_5"}, {"device", "V100_SXM2_16GB"},
                              {"batch_size", 64}, {"software_era", "pytorch_cudnn8_2021"},
                              {"cluster", {{"nodes", 4}, {"devices_per_node", 8}, {"intra", "nvlink2_v100"},
                                           {"inter", "infiniband_edr"}, {"nics_per_node", 1}}}};
  const auto r = paleo::handle_request(q);
  REQUIRE(r.contains("cluster"));
  const auto& c = r["cluster"];
  const double compute = c["compute"]["compute_ms"].get<double>();
  CHECK(c["scaling_efficiency"].get<double>() == Approx(compute / c["step_ms"].get<double>()).epsilon(1e-12));
  const auto& sc = c["node_scaling"];
  REQUIRE(sc.size() == 3);  // 1, 2 and 4 nodes
  CHECK(sc[0]["efficiency_vs_one_node"].get<double>() == 1.0);
  CHECK(sc[2]["efficiency_vs_one_node"].get<double>() ==
        Approx(sc[0]["step_ms"].get<double>() / sc[2]["step_ms"].get<double>()).epsilon(1e-12));
  {
    // The sweep further than the cluster: 1, 2, ..., 16 and then 20 nodes, the first three points
    // those of the 4-node cluster; a smaller bound than the cluster's nodes changes nothing.
    nlohmann::ordered_json further = q;
    further["node_scaling_max_nodes"] = 20;
    const auto answer = paleo::handle_request(further);
    const auto& wide = answer["cluster"];
    REQUIRE(wide["node_scaling"].size() == 6);
    CHECK(wide["node_scaling"][5]["nodes"] == 20);
    CHECK(wide["node_scaling"][5]["devices"] == 160);
    CHECK(wide["node_scaling"][2] == sc[2]);
    CHECK(wide["step_ms"] == c["step_ms"]);  // the cluster's own step is still its 4 nodes'
    further["node_scaling_max_nodes"] = 2;
    CHECK(paleo::handle_request(further)["cluster"]["node_scaling"] == sc);
    further["node_scaling_max_nodes"] = 0;
    CHECK(paleo::handle_request(further)["error"]["field"] == "node_scaling_max_nodes");
  }
  // The era's library is NCCL: the gradient all-reduce is its ring or tree.
  const std::string chosen = c["chosen"]["algorithm"].get<std::string>();
  CHECK((chosen == "ring" || chosen == "double_binary_tree"));
  // A request may name another library; an unknown one is an error naming the field.
  q["collective_library"] = "any";
  CHECK(paleo::handle_request(q)["cluster"]["step_ms"].get<double>() <= c["step_ms"].get<double>());
  q["collective_library"] = "mpi";
  const auto bad = paleo::handle_request(q);
  REQUIRE(bad.contains("error"));
  CHECK(bad["error"]["field"] == "collective_library");
}

TEST_CASE("NCCL's ring all-gather and reduce-scatter: p-1 steps, N-1 across nodes, no plateau, the only algorithm") {
  paleo::CollectiveSettings s;
  s.ring_plateau = 1.4;  // must not apply: NCCL multiplies the all-reduce's ring latency alone
  // 2 nodes of 8 GPUs on NVLink (150 GB/s), one 25 GB/s NIC each: p = 16, 15 steps, 1 across the
  // network: 8.4 + 14 x 3.4 + 1 x 14 = 70.0 us.
  const paleo::Cluster c = cluster(2, 8, link("nvlink_test", 0.7, 150), link("net_test", 5, 25));
  const double bytes = 1.6e9;  // the gathered vector: 100 MB a rank
  const paleo::CollectiveCost g = paleo::nccl_ring_all_gather(c, bytes, s);
  CHECK(g.algorithm == "ring");
  CHECK(g.alpha_ms == Approx(70.0 / 1e3).epsilon(1e-12));
  // n(p-1)/p = 1.5e9 bytes through the 25 GB/s NIC: 60 ms.
  CHECK(g.beta_ms == Approx(60.0).epsilon(1e-12));
  CHECK(g.reduction_ms == 0);

  // 192 nodes of 8 (1536 ranks): 8.4 + (1535 - 191) x 3.4 + 191 x 14 = 8.4 + 4569.6 + 2674 = 7252.0 us, linear in the
  // ranks where a tree or recursive doubling would pay log2 of them.
  const paleo::Cluster big = cluster(192, 8, link("nvlink_test", 0.7, 150), link("net_test", 5, 25));
  CHECK(paleo::nccl_ring_all_gather(big, bytes, s).alpha_ms == Approx(7.252).epsilon(1e-9));

  // With a NIC per GPU NCCL maps its channels' rings onto the 8 NICs (busBw = nChannels x the
  // channel's speed): 8 x 25 = 200 GB/s, above the 150 GB/s NVLink, which then bounds it: 10 ms.
  // With 4 NICs, 100 GB/s: 15 ms.
  const paleo::Cluster nics8 = cluster(2, 8, link("nvlink_test", 0.7, 150), link("net_test", 5, 25), 8);
  CHECK(paleo::nccl_ring_all_gather(nics8, bytes, s).beta_ms == Approx(10.0).epsilon(1e-12));
  const paleo::Cluster nics4 = cluster(2, 8, link("nvlink_test", 0.7, 150), link("net_test", 5, 25), 4);
  CHECK(paleo::nccl_ring_all_gather(nics4, bytes, s).beta_ms == Approx(15.0).epsilon(1e-12));
  CHECK(paleo::nccl_ring_all_reduce(nics4, bytes, s).beta_ms == Approx(30.0).epsilon(1e-12));

  // The reduce-scatter: the same ring, plus the reduction of n(p-1)/p bytes.
  s.reduction_ms_per_byte = 1e-9;
  const paleo::CollectiveCost r = paleo::nccl_ring_reduce_scatter(c, bytes, s);
  CHECK(r.alpha_ms == Approx(70.0 / 1e3).epsilon(1e-12));
  CHECK(r.beta_ms == Approx(60.0).epsilon(1e-12));
  CHECK(r.reduction_ms == Approx(1.5).epsilon(1e-12));

  // With an NCCL library, auto and ring are NCCL's ring (it has no other all-gather); without one,
  // the alpha-beta model's algorithms as before (their latency per step is the link's).
  paleo::CollectiveSettings nccl = s;
  nccl.library = paleo::CollectiveLibrary::kNccl;
  for (auto algorithm : {paleo::CollectiveAlgorithm::kAuto, paleo::CollectiveAlgorithm::kRing}) {
    const paleo::CollectiveCost a = paleo::cluster_collective(paleo::CollectiveOp::kAllGather, algorithm, big, bytes, nccl);
    CHECK(a.algorithm == "ring");
    CHECK(a.alpha_ms == Approx(7.252).epsilon(1e-9));
  }
  const paleo::CollectiveCost any = paleo::cluster_collective(paleo::CollectiveOp::kAllGather,
                                                              paleo::CollectiveAlgorithm::kRing, big, bytes, s);
  CHECK(any.alpha_ms != Approx(7.252).epsilon(1e-3));
}
