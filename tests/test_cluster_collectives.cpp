// Collectives against their closed forms (docs/cluster.md), written out by hand here.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/api.h"
#include "core/cluster/collectives.h"
#include "core/base/error.h"

namespace {

using paleo::CollectiveAlgorithm;
using paleo::CollectiveOp;

paleo::Link link(double latency_us, double gb_per_s) {
  paleo::Link l;
  l.latency_us = latency_us;
  l.bandwidth_gb_per_s = gb_per_s;
  return l;
}

double time_ms(CollectiveOp op, CollectiveAlgorithm a, long p, double n, const paleo::Link& l, double g = 0) {
  paleo::CollectiveSettings s;
  s.reduction_ms_per_byte = g;
  return paleo::collective_cost(op, a, p, n, l, s).time_ms();
}

// The collective command's ring all-reduce of 67108864 bytes (16777216 floats, DeepBench's size)
// on `nodes` x `per_node` TITAN X joined by link presets; `inter` is left out for one node.
nlohmann::ordered_json ring_all_reduce(long nodes, long per_node, const std::string& intra, const std::string& inter = "") {
  nlohmann::ordered_json cluster = {{"nodes", nodes}, {"devices_per_node", per_node}, {"intra", intra}};
  if (!inter.empty()) cluster["inter"] = inter;
  return paleo::handle_request({{"command", "collective"}, {"op", "allreduce"}, {"algorithm", "ring"},
                                {"bytes", 67108864}, {"device", "TITAN_X"}, {"cluster", cluster}});
}

}  // namespace

TEST_CASE("all-reduce algorithms match their closed forms for 8 (power of two) and 6 workers") {
  const paleo::Link l = link(5, 10);      // alpha 0.005 ms, beta 1e-7 ms per byte
  const double a = 0.005, b = 1e-7, g = 2e-8, n = 1e8;
  for (long p : {8L, 6L}) {
    const double pd = static_cast<double>(p);
    const double lg = 3;  // ceil(log2 8) = ceil(log2 6) = 3
    const double fl = p == 8 ? 3 : 2;
    const bool pow2 = p == 8;
    INFO("workers " << p);
    CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, p, n, l, g) ==
          Approx(2 * (pd - 1) * a + 2 * n * (pd - 1) / pd * b + n * (pd - 1) / pd * g).epsilon(1e-12));
    const double rd = pow2 ? lg * (a + n * b + n * g) : (fl + 2) * (a + n * b) + (fl + 1) * n * g;
    CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRecursiveDoubling, p, n, l, g) ==
          Approx(rd).epsilon(1e-12));
    const double q = pow2 ? pd : 4, qf = (q - 1) / q;
    const double rab = pow2 ? 2 * lg * a + 2 * n * qf * b + n * qf * g
                            : (2 * fl + 2) * a + (2 * qf + 2) * n * b + (1 + qf) * n * g;
    CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRabenseifner, p, n, l, g) ==
          Approx(rab).epsilon(1e-12));
    CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kBinomialTree, p, n, l, g) ==
          Approx(2 * lg * (a + n * b) + lg * n * g).epsilon(1e-12));
    CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kDoubleBinaryTree, p, n, l, g) ==
          Approx(2 * lg * a + 2 * n * b + n * g).epsilon(1e-12));
    CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kParameterServer, p, n, l, g) ==
          Approx(2 * a + 2 * pd * n * b + pd * n * g).epsilon(1e-12));
  }
}

TEST_CASE("sharded parameter server divides the server load, down to one worker's link") {
  const paleo::Link l = link(0, 1);
  paleo::CollectiveSettings s;
  s.servers = 4;
  const double n = 1e6, b = 1e-6;  // 1 GB/s: 1e-6 ms per byte
  CHECK(paleo::collective_cost(CollectiveOp::kAllReduce, CollectiveAlgorithm::kShardedParameterServer, 8, n, l, s)
            .beta_ms == Approx(2 * n * 2 * b).epsilon(1e-12));
  s.servers = 16;
  CHECK(paleo::collective_cost(CollectiveOp::kAllReduce, CollectiveAlgorithm::kShardedParameterServer, 8, n, l, s)
            .beta_ms == Approx(2 * n * b).epsilon(1e-12));
}

TEST_CASE("reduce-scatter, all-gather, broadcast and all-to-all closed forms") {
  const paleo::Link l = link(2, 4);  // alpha 0.002 ms, beta 2.5e-7 ms per byte
  const double a = 0.002, b = 2.5e-7, n = 4e7, p = 16, f = 15.0 / 16.0;
  CHECK(time_ms(CollectiveOp::kReduceScatter, CollectiveAlgorithm::kRing, 16, n, l) == Approx(15 * a + n * f * b).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kReduceScatter, CollectiveAlgorithm::kRecursiveDoubling, 16, n, l) ==
        Approx(4 * a + n * f * b).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, 16, n, l) == Approx(15 * a + n * f * b).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kAllGather, CollectiveAlgorithm::kRecursiveDoubling, 16, n, l) ==
        Approx(4 * a + n * f * b).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kBroadcast, CollectiveAlgorithm::kBinomialTree, 16, n, l) == Approx(4 * (a + n * b)).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kBroadcast, CollectiveAlgorithm::kRabenseifner, 16, n, l) ==
        Approx(8 * a + 2 * n * f * b).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kBroadcast, CollectiveAlgorithm::kRing, 16, n, l) ==
        Approx((4 + p - 1) * a + 2 * n * f * b).epsilon(1e-12));
  CHECK(time_ms(CollectiveOp::kAllToAll, CollectiveAlgorithm::kPairwise, 16, n, l) == Approx(15 * a + n * f * b).epsilon(1e-12));
  // Non-power-of-two recursive halving pays MPICH's fold: two more steps moving the vector.
  CHECK(time_ms(CollectiveOp::kReduceScatter, CollectiveAlgorithm::kRecursiveDoubling, 12, n, l) ==
        Approx((4 + 2) * a + (n * 11.0 / 12.0 + n) * b).epsilon(1e-12));
}

TEST_CASE("one worker communicates nothing, and auto is the fastest flat algorithm") {
  const paleo::Link l = link(10, 25);
  CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 1, 1e9, l) == 0);
  for (double n : {8.0, 1e4, 1e9}) {
    for (long p : {2L, 3L, 64L, 100L}) {
      const double best = time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kAuto, p, n, l);
      for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kRecursiveDoubling,
                                    CollectiveAlgorithm::kRabenseifner, CollectiveAlgorithm::kBinomialTree,
                                    CollectiveAlgorithm::kDoubleBinaryTree})
        CHECK(best <= time_ms(CollectiveOp::kAllReduce, a, p, n, l));
    }
  }
  // Small messages are latency-bound: the logarithmic algorithms beat the ring.
  CHECK(time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kAuto, 64, 8, l) <
        time_ms(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 64, 8, l));
}

TEST_CASE("an algorithm that does not implement an operation is an error naming the field") {
  try {
    time_ms(CollectiveOp::kAllGather, CollectiveAlgorithm::kBinomialTree, 4, 1, link(1, 1));
    FAIL("expected an error");
  } catch (const paleo::Error& e) {
    CHECK(e.field() == "algorithm");
  }
}

TEST_CASE("hierarchical all-reduce equals the sum of its three parts") {
  paleo::Cluster c;
  c.nodes = 16;
  c.devices_per_node = 8;
  c.nics_per_node = 2;
  c.intra = link(0.7, 130);
  c.inter = link(1.5, 12.1);
  paleo::CollectiveSettings s;
  s.reduction_ms_per_byte = 3.0 / 900e9 * 1e3;
  const double n = 5.5e8;
  const auto h = paleo::hierarchical_all_reduce(c, n, s);
  const auto rs = paleo::best_collective(CollectiveOp::kReduceScatter, 8, n, c.intra, s);
  paleo::Link shared = c.inter;
  shared.bandwidth_gb_per_s = 12.1 * 2 / 8;  // two NICs shared by eight devices
  const auto ar = paleo::best_collective(CollectiveOp::kAllReduce, 16, n / 8, shared, s);
  const auto ag = paleo::best_collective(CollectiveOp::kAllGather, 8, n, c.intra, s);
  CHECK(h.time_ms() == Approx(rs.time_ms() + ar.time_ms() + ag.time_ms()).epsilon(1e-12));
  CHECK(h.alpha_ms == Approx(rs.alpha_ms + ar.alpha_ms + ag.alpha_ms).epsilon(1e-12));
  CHECK(h.reduction_ms == Approx(rs.reduction_ms + ar.reduction_ms).epsilon(1e-12));
}

TEST_CASE("more bandwidth is never slower and more latency never faster") {
  for (long p : {2L, 5L, 8L, 48L, 1024L}) {
    for (double n : {4.0, 1e5, 1e9}) {
      for (auto op : {CollectiveOp::kAllReduce, CollectiveOp::kReduceScatter, CollectiveOp::kAllGather,
                      CollectiveOp::kBroadcast, CollectiveOp::kAllToAll}) {
        for (auto a : paleo::flat_algorithms(op)) {
          double previous = INFINITY;
          for (double bw : {1.0, 10.0, 100.0, 1000.0}) {
            const double t = time_ms(op, a, p, n, link(3, bw));
            CHECK(t <= previous);
            previous = t;
          }
          previous = 0;
          for (double lat : {0.0, 1.0, 10.0, 100.0}) {
            const double t = time_ms(op, a, p, n, link(lat, 10));
            CHECK(t >= previous);
            previous = t;
          }
        }
      }
    }
  }
}

TEST_CASE("hierarchical reduce-scatter and all-gather: inside the node, then each device's share across nodes") {
  // 4 nodes x 8 devices, 8 NICs: inside the node over the intra link, then each device's 1/8 share
  // across the 4 nodes over its own NIC.
  paleo::Cluster c;
  c.nodes = 4;
  c.devices_per_node = 8;
  c.nics_per_node = 8;
  c.intra.bandwidth_gb_per_s = 150;
  c.intra.latency_us = 1;
  c.inter.bandwidth_gb_per_s = 25;
  c.inter.latency_us = 5;
  const paleo::CollectiveSettings s;
  const double n = 1e9;
  for (auto op : {paleo::CollectiveOp::kReduceScatter, paleo::CollectiveOp::kAllGather}) {
    const auto h = paleo::hierarchical_collective(op, c, n, s);
    const auto intra = paleo::best_collective(op, 8, n, c.intra, s);
    const auto inter = paleo::best_collective(op, 4, n / 8, c.inter, s);
    CHECK(h.time_ms() == Approx(intra.time_ms() + inter.time_ms()).epsilon(1e-12));
    // Bandwidth terms by hand: (p - 1)/p of the vector at each level's bandwidth.
    CHECK(h.beta_ms == Approx(7.0 / 8 * n / 150e9 * 1e3 + 3.0 / 4 * (n / 8) / 25e9 * 1e3).epsilon(1e-12));
    // auto takes it: every flat algorithm crosses nodes at one NIC's bandwidth or shares the NICs.
    const auto best = paleo::cluster_collective(op, paleo::CollectiveAlgorithm::kAuto, c, n, s);
    CHECK(best.algorithm == "hierarchical");
    CHECK(best.time_ms() == Approx(h.time_ms()).epsilon(1e-12));
  }
  CHECK_THROWS_AS(paleo::hierarchical_collective(paleo::CollectiveOp::kAllToAll, c, n, s), paleo::Error);
}

TEST_CASE("the collective command's ring all-reduce, term by term, to 1e-12") {
  // 64 workers, 1e9 bytes, 12.5 GB/s and 5 us per hop; the reduction reads two vectors and writes
  // one at the device's memory bandwidth (TITAN X: 336.5 GB/s):
  //   alpha = 2 (p-1) * 0.005 ms = 0.63 ms
  //   beta  = 2 (p-1)/p * n / 12.5e9 s = 157.5 ms
  //   reduction = (p-1)/p * n * 3 / 336.5e9 s
  const nlohmann::ordered_json r = paleo::handle_request(
      {{"command", "collective"}, {"op", "allreduce"}, {"algorithm", "ring"}, {"workers", 64}, {"bytes", 1e9},
       {"device", "TITAN_X"}, {"link", {{"bandwidth_gb_per_s", 12.5}, {"latency_us", 5}}}});
  REQUIRE(r.value("ok", false));
  const double alpha = 0.63, beta = 157.5, reduction = 63.0 / 64 * 1e9 * 3 / 336.5e9 * 1e3;
  CHECK(r["alpha_ms"].get<double>() == Approx(alpha).epsilon(1e-12));
  CHECK(r["beta_ms"].get<double>() == Approx(beta).epsilon(1e-12));
  CHECK(r["reduction_ms"].get<double>() == Approx(reduction).epsilon(1e-12));
  CHECK(r["time_ms"].get<double>() == Approx(alpha + beta + reduction).epsilon(1e-12));
}

TEST_CASE("a ring across nodes moves at its slowest hop: the intra link when it is slower than the NIC") {
  // 2 nodes x 8 devices: the ring runs through each node's 8 devices and crosses each node boundary
  // once. Intra 6 GB/s and 1 us, inter 6.5 GB/s and 0.7 us: the intra hop is the slowest.
  paleo::Cluster c;
  c.nodes = 2;
  c.devices_per_node = 8;
  c.intra = link(1, 6);
  c.inter = link(0.7, 6.5);
  const paleo::CollectiveSettings s;
  const double n = 67108864;
  const auto ring = paleo::cluster_collective(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, c, n, s);
  // p = 16: alpha = 2 (p-1) x 1 us = 0.03 ms; beta = 2 (p-1)/p x n / 6e9 s = 1.875 x 67108864 / 6e9 s
  // = 20.97152 ms (over the NIC's 6.5 GB/s it would be 19.358...).
  CHECK(ring.alpha_ms == Approx(0.03).epsilon(1e-12));
  CHECK(ring.beta_ms == Approx(20.97152).epsilon(1e-12));
  CHECK(paleo::ring_link(c).bandwidth_gb_per_s == 6);
  CHECK(paleo::ring_link(c).latency_us == 1);

  // A faster intra link: the NIC is the slowest hop, at the larger of the two latencies.
  c.intra = link(1, 150);
  CHECK(paleo::ring_link(c).bandwidth_gb_per_s == 6.5);
  CHECK(paleo::ring_link(c).latency_us == 1);
  const auto fast = paleo::cluster_collective(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, c, n, s);
  CHECK(fast.beta_ms == Approx(1.875 * 67108864 / 6.5e9 * 1e3).epsilon(1e-12));

  // One device per node: the ring only crosses NICs; one node: only intra hops.
  c.intra = link(1, 6);
  c.devices_per_node = 1;
  CHECK(paleo::ring_link(c).bandwidth_gb_per_s == 6.5);
  CHECK(paleo::ring_link(c).latency_us == 0.7);
  c.devices_per_node = 8;
  c.nodes = 1;
  CHECK(paleo::ring_link(c).bandwidth_gb_per_s == 6);
}

TEST_CASE("the collective command: DeepBench's dual-root node, QPI between sockets, over InfiniBand FDR") {
  // presets/links.json: qpi_intel_pre_skylake 6.0 GB/s (NCCL's QPI_BW) and 1 us; infiniband_fdr
  // 6.5 GB/s and 0.7 us. 2 nodes x 8 GPUs, 16777216 floats: the ring at 6.0 GB/s, as above.
  const nlohmann::ordered_json r = ring_all_reduce(2, 8, "qpi_intel_pre_skylake", "infiniband_fdr");
  REQUIRE(r.value("ok", false));
  CHECK(r["workers"] == 16);
  CHECK(r["alpha_ms"].get<double>() == Approx(0.03).epsilon(1e-12));
  CHECK(r["beta_ms"].get<double>() == Approx(20.97152).epsilon(1e-12));
  // The single-root node: PCIe 3 x16 through an Intel root complex, 12 GB/s / 1.2 = 10 GB/s; one
  // node of 8: beta = 2 x 7/8 x 67108864 / 10e9 s = 11.7440512 ms.
  const nlohmann::ordered_json one = ring_all_reduce(1, 8, "pcie3_x16_cpu_p2p");
  REQUIRE(one.value("ok", false));
  CHECK(one["beta_ms"].get<double>() == Approx(11.7440512).epsilon(1e-12));
}

TEST_CASE("the collective command: DeepBench's dual-root node, copies between the sockets staged through host memory") {
  // presets/links.json: pcie3_host_staged_cross_socket 2.54 GB/s (bandwidthTest's device-to-host
  // copy into the other socket's memory, gearshifft #82) and 1 us; infiniband_fdr 6.5 GB/s and
  // 0.7 us. The ring moves at its slowest hop, 2.54 GB/s, with the larger latency, 1 us.
  // 2 nodes x 8 GPUs, 67108864 bytes: alpha = 2 x 15 x 1 us = 0.03 ms;
  // beta = 2 x 15/16 x 67108864 / 2.54e9 s = 125829120 / 2.54e9 s = 49.539023622... ms.
  const nlohmann::ordered_json r = ring_all_reduce(2, 8, "pcie3_host_staged_cross_socket", "infiniband_fdr");
  REQUIRE(r.value("ok", false));
  CHECK(r["workers"] == 16);
  CHECK(r["alpha_ms"].get<double>() == Approx(0.03).epsilon(1e-12));
  CHECK(r["beta_ms"].get<double>() == Approx(125829120.0 / 2.54e9 * 1e3).epsilon(1e-12));
  CHECK(r["beta_ms"].get<double>() == Approx(49.5390236).epsilon(1e-8));
  // 4 nodes x 8 GPUs: beta = 2 x 31/32 x 67108864 / 2.54e9 s = 51.190324409... ms.
  const nlohmann::ordered_json four = ring_all_reduce(4, 8, "pcie3_host_staged_cross_socket", "infiniband_fdr");
  REQUIRE(four.value("ok", false));
  CHECK(four["alpha_ms"].get<double>() == Approx(0.062).epsilon(1e-12));
  CHECK(four["beta_ms"].get<double>() == Approx(51.1903244).epsilon(1e-8));
}
