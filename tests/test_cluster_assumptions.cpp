// The links a request does not state: the device's own node preset, named in the answer and in
// a warning; overrides on a preset change only what they name (docs/cluster.md).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "core/api.h"
#include "core/spec/presets.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;
using paleo_test::run_cli;

constexpr auto& ok = ok_answer;  // tests/api_answer.h

Json cli_json(const std::string& arguments) {
  const paleo_test::CliResult r = run_cli(arguments + " --format json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(r.out);
}

bool any_warning_has(const Json& warnings, const std::string& a, const std::string& b) {
  for (const Json& w : warnings) {
    const std::string text = w.get<std::string>();
    if (text.find(a) != std::string::npos && text.find(b) != std::string::npos) return true;
  }
  return false;
}

const Json kAllAssumed = Json::array({"intra", "inter", "nics_per_node"});

}  // namespace

TEST_CASE("a P100 cluster without links is priced over its own node's links, named and warned") {
  // The reproducer: before, NVLink 2 of a V100 inside and between the nodes, unnamed.
  const Json out = cli_json("estimate resnet50_v1 --device_name P100_SXM2 --nodes 4 --per_node 4");
  const Json& c = out["cluster"]["cluster"];
  CHECK(c["intra"]["key"] == "nvlink1_p100");
  CHECK(c["inter"]["key"] == "infiniband_edr");
  CHECK(c["nics_per_node"] == 4);  // DGX-1: four EDR HCAs
  CHECK(c["nodes"] == 4);
  CHECK(c["devices_per_node"] == 4);
  CHECK(c["assumed"] == kAllAssumed);
  CHECK(c["assumed_from"] == "dgx1_p100_edr");
  CHECK(any_warning_has(out["warnings"], "nvlink1_p100", "infiniband_edr"));
  // The API answers the same request the same way.
  const Json api = ok({{"command", "estimate"}, {"net", "resnet50_v1"}, {"device", "P100_SXM2"}, {"nodes", 4},
                       {"devices_per_node", 4}});
  CHECK(api == out);
}

TEST_CASE("a P100 all-reduce with no links stated: NVLink 1 inside a node, EDR InfiniBand between nodes") {
  const double n = 1e9;  // bytes
  auto ring = [&](int nodes, int per_node) {
    return ok({{"command", "collective"}, {"op", "allreduce"}, {"algorithm", "ring"}, {"bytes", n},
               {"device", "P100_SXM2"}, {"nodes", nodes}, {"devices_per_node", per_node}});
  };
  SECTION("one node of 8: every hop is NVLink 1, 72 GB/s achievable, 0.6 us") {
    const Json r = ring(1, 8);
    // Ring all-reduce, p = 8: alpha 2(p-1) x 0.6 us; beta 2n(p-1)/p / 72 GB/s.
    CHECK(r["alpha_ms"].get<double>() == Approx(14 * 0.6e-3).epsilon(1e-12));
    CHECK(r["beta_ms"].get<double>() == Approx(2 * n * 7 / 8 / 72e9 * 1e3).epsilon(1e-12));  // 24.306 ms
    CHECK(r["cluster"]["intra"]["key"] == "nvlink1_p100");
  }
  SECTION("two nodes of 4: the ring moves at its slowest hop, one EDR NIC (12 GB/s), at the larger latency") {
    const Json r = ring(2, 4);
    // p = 8; the slowest hop is EDR's 12 GB/s; latency max(0.6 NVLink, 0.5 EDR) = 0.6 us.
    CHECK(r["alpha_ms"].get<double>() == Approx(14 * 0.6e-3).epsilon(1e-12));
    CHECK(r["beta_ms"].get<double>() == Approx(2 * n * 7 / 8 / 12e9 * 1e3).epsilon(1e-12));  // 145.83 ms
    CHECK(r["cluster"]["inter"]["key"] == "infiniband_edr");
    CHECK(r["cluster"]["assumed"] == kAllAssumed);
  }
}

TEST_CASE("an override on a preset changes only what it names") {
  auto cluster_of = [](const Json& cluster, Json extra = Json::object()) {
    Json r = {{"command", "estimate"}, {"net", "resnet50_v1"}, {"cluster", cluster}, {"nodes", 2}};
    r.update(extra);
    return ok(r)["cluster"]["cluster"];
  };
  const Json preset = cluster_of("dgx1_v100_edr");
  SECTION("--intra: the intra link only") {
    const Json c = cluster_of({{"preset", "dgx1_v100_edr"}, {"intra", "pcie3_x16"}});
    CHECK(c["intra"]["key"] == "pcie3_x16");
    CHECK(c["inter"] == preset["inter"]);
    CHECK(c["nics_per_node"] == 4);
    CHECK(c["devices_per_node"] == 8);
    CHECK(c["assumed"].empty());
    const Json cli = cli_json("estimate resnet50_v1 --cluster dgx1_v100_edr --intra pcie3_x16 --nodes 2");
    CHECK(cli["cluster"]["cluster"] == c);
  }
  SECTION("--nics_per_node with --cluster: the NICs only") {
    const Json c = cluster_of({{"preset", "dgx1_v100_edr"}, {"nics_per_node", 2}});
    CHECK(c["nics_per_node"] == 2);
    CHECK(c["intra"] == preset["intra"]);
    CHECK(c["inter"] == preset["inter"]);
    const Json cli = cli_json("estimate resnet50_v1 --cluster dgx1_v100_edr --nics_per_node 2 --nodes 2");
    CHECK(cli["cluster"]["cluster"] == c);
  }
  SECTION("--inter as a link object: the network only, priced at its own rate") {
    const Json link = {{"bandwidth_gb_per_s", 5}, {"latency_us", 3}};
    const Json cli = cli_json("collective --op allreduce --algorithm ring --bytes 1000000000 --cluster dgx1_v100_edr "
                              "--nodes 2 --inter '" + link.dump() + "'");
    CHECK(cli["cluster"]["intra"]["key"] == "nvlink2_v100");
    CHECK(cli["cluster"]["inter"]["bandwidth_gb_per_s"] == 5);
    CHECK(cli["cluster"]["nics_per_node"] == 4);
    // p = 16 on two DGX-1 nodes: the ring's slowest hop is the 5 GB/s NIC, at max(0.6, 3) = 3 us.
    CHECK(cli["alpha_ms"].get<double>() == Approx(2 * 15 * 3e-3).epsilon(1e-12));
    CHECK(cli["beta_ms"].get<double>() == Approx(2 * 1e9 * 15 / 16 / 5e9 * 1e3).epsilon(1e-12));  // 750 ms
    // The same link from a file.
    const auto path = paleo_test::write_temp_file("inter", ".json", link.dump());
    const Json from_file = cli_json("collective --op allreduce --algorithm ring --bytes 1000000000 --cluster "
                                    "dgx1_v100_edr --nodes 2 --inter " + paleo_test::quoted(path.string()));
    std::filesystem::remove(path);
    CHECK(from_file == cli);
  }
  SECTION("a custom intra link alone takes the device's network, not the intra link between nodes") {
    const Json c = cluster_of({{"intra", "pcie3_x16"}}, {{"device", "V100_SXM2_16GB"}});
    CHECK(c["intra"]["key"] == "pcie3_x16");
    CHECK(c["inter"]["key"] == "infiniband_edr");
    CHECK(c["nics_per_node"] == 4);
    CHECK(c["assumed"] == Json::array({"inter", "nics_per_node"}));
  }
}

TEST_CASE("NICs per node are bounded by the devices per node, and the error names the field") {
  const Json out = paleo::handle_request({{"command", "estimate"}, {"net", "resnet50_v1"},
                                          {"cluster", {{"preset", "dgx1_v100_edr"}, {"nics_per_node", 16}}},
                                          {"nodes", 2}});
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["field"] == "cluster.nics_per_node");
  const paleo_test::CliResult cli =
      run_cli("estimate resnet50_v1 --cluster dgx1_v100_edr --nics_per_node 16 --nodes 2");
  CHECK(cli.exit_code != 0);
  CHECK(cli.err.find("nics_per_node") != std::string::npos);
}

TEST_CASE("a device without a node preset is told to state its links, never given guessed ones") {
  const Json out =
      paleo::handle_request({{"command", "estimate"}, {"net", "resnet50_v1"}, {"device", "CPU_I7"}, {"nodes", 2}});
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["field"] == "cluster");
  // Stating the links is enough.
  ok({{"command", "estimate"},
      {"net", "resnet50_v1"},
      {"device", "CPU_I7"},
      {"nodes", 2},
      {"cluster", {{"intra", "pcie3_x16"}, {"inter", "ethernet_10g"}, {"nics_per_node", 1}}}});
}

TEST_CASE("transformer estimates take the device's node preset and the link overrides") {
  // 64 H200: before, one device per node on PCIe 4 and one 100 GbE NIC.
  Json request = {{"command", "estimate"}, {"net", "gpt3_175b"}, {"device", "H200_SXM"}, {"tp", 8}, {"pp", 8},
                  {"dp", 1}, {"global_batch", 64}, {"seq_len", 2048}, {"precision", "bf16"}};
  const Json node = ok(request);
  CHECK(node["cluster"]["intra"] == "nvlink4_h100");
  CHECK(node["cluster"]["inter"] == "infiniband_ndr");
  CHECK(node["cluster"]["nics_per_node"] == 8);
  CHECK(node["cluster"]["devices_per_node"] == 8);
  CHECK(node["cluster"]["nodes"] == 8);
  CHECK(node["cluster"]["assumed"] == kAllAssumed);
  CHECK(any_warning_has(node["warnings"], "nvlink4_h100", "infiniband_ndr"));
  // --intra on the CLI reaches the transformer's cluster: PCIe inside the node, the node's network kept.
  const Json pcie = cli_json("estimate gpt3_175b --device_name H200_SXM --tp 8 --pp 8 --dp 1 --global_batch 64 "
                             "--seq_len 2048 --precision bf16 --intra pcie5_x16");
  CHECK(pcie["cluster"]["intra"] == "pcie5_x16");
  CHECK(pcie["cluster"]["inter"] == "infiniband_ndr");
  CHECK(pcie["cluster"]["assumed"] == Json::array({"inter", "nics_per_node"}));
  // Tensor parallelism over PCIe 5 (54 GB/s) instead of NVLink 4 (370 GB/s) can only be slower.
  CHECK(pcie["step_ms"].get<double>() > node["step_ms"].get<double>());
}

TEST_CASE("the search without a cluster prices the device's node and names it") {
  const Json out = ok({{"command", "search"}, {"net", "alex_v2"}, {"device", "P100_SXM2"}, {"devices", 8},
                       {"devices_per_node", 4}, {"batch_size", 32}});
  CHECK(out["cluster"]["intra"] == "nvlink1_p100");
  CHECK(out["cluster"]["inter"] == "infiniband_edr");
  CHECK(out["cluster"]["assumed"] == kAllAssumed);
  CHECK(any_warning_has(out["warnings"], "nvlink1_p100", "infiniband_edr"));
}

TEST_CASE("every device's node preset is a cluster preset whose NICs do not outnumber its devices") {
  const paleo::Presets& p = paleo::Presets::instance();
  for (const Json& c : p.clusters()) {
    INFO("cluster " << c["key"]);
    CHECK(c["nics_per_node"].get<int>() <= c["devices_per_node"].get<int>());
    CHECK(c.contains("inter"));
  }
  // A CPU has no node of GPUs; every other device names its node.
  const std::vector<std::string> without = {"CPU_I7"};
  for (const Json& d : p.devices()) {
    const std::string key = d["key"].get<std::string>();
    INFO("device " << key);
    const bool listed = std::find(without.begin(), without.end(), key) != without.end();
    CHECK(d.contains("node") != listed);
    if (!d.contains("node")) continue;
    const paleo::Cluster c = p.cluster(d["node"].get<std::string>(), nullptr);
    CHECK(c.inter.key != c.intra.key);  // a network between nodes, not the node's own link
  }
  // The node presets the issue names.
  CHECK(p.device("P100_SXM2").node == "dgx1_p100_edr");
  CHECK(p.device("H200_SXM").node == "dgx_h200_ndr");
  CHECK(p.device("B200").node == "dgx_b200_ndr");
  CHECK(p.cluster("dgx_b200_ndr", nullptr).intra.key == "nvlink5_b200");
  // The PCIe 2.0 Keplers (Tesla K20 board specification: "supports PCI Express Gen2"): 8 GB/s a
  // direction at its peak, not PCIe 3.0's 15.75.
  for (const char* kepler : {"K20", "K20X"}) {
    const paleo::Cluster k = p.cluster(p.device(kepler).node, nullptr);
    CHECK(k.intra.key == "pcie2_x16");
    CHECK(k.inter.key == "ethernet_10g");
  }
}

namespace {

// A device whose node preset the request does not name: an estimate on 2 nodes takes the node's
// links, names them, warns; `ring(nodes)` is the ring all-reduce of 1e9 bytes on such nodes.
struct NodeExpectation {
  const char* device;
  const char* intra;
  const char* inter;
  int nics_per_node;
  int devices_per_node;
  const char* preset;
};

constexpr double kRingBytes = 1e9;

// The ring all-reduce of kRingBytes on `nodes` such nodes, against its alpha and beta by hand.
void check_node_ring(const NodeExpectation& e, int nodes, double alpha_ms, double beta_ms) {
  INFO(e.device << " on " << nodes << " nodes");
  const Json out = ok({{"command", "collective"}, {"op", "allreduce"}, {"algorithm", "ring"}, {"bytes", kRingBytes},
                       {"device", e.device}, {"nodes", nodes}, {"devices_per_node", e.devices_per_node}});
  CHECK(out["cluster"]["assumed"] == kAllAssumed);
  CHECK(out["alpha_ms"].get<double>() == Approx(alpha_ms).epsilon(1e-12));
  CHECK(out["beta_ms"].get<double>() == Approx(beta_ms).epsilon(1e-12));
}

void check_assumed_node(const NodeExpectation& e) {
  const Json out = ok({{"command", "estimate"}, {"net", "resnet50_v1"}, {"device", e.device}, {"nodes", 2}});
  const Json& c = out["cluster"]["cluster"];
  CHECK(c["intra"]["key"] == e.intra);
  CHECK(c["inter"]["key"] == e.inter);
  CHECK(c["nics_per_node"] == e.nics_per_node);
  CHECK(c["devices_per_node"] == e.devices_per_node);
  CHECK(c["assumed"] == kAllAssumed);
  CHECK(c["assumed_from"] == e.preset);
  CHECK(any_warning_has(out["warnings"], e.intra, e.inter));
}

}  // namespace

TEST_CASE("MI300X and MI250X clusters without links are priced over their own nodes, named and warned") {
  const double n = kRingBytes;
  // ND MI300X v5 (Azure): eight GPUs, one 400 Gb/s NDR connection per GPU. One node, p = 8:
  // Infinity Fabric's measured 312.9 GB/s all-GPU bus bandwidth, 1.0 us a hop (5.593 ms of
  // bandwidth). Two nodes, p = 16: the slowest hop is one NDR NIC per GPU (48 GB/s), at
  // max(1.0, 0.6) us (39.06 ms).
  const NodeExpectation mi300x{"MI300X", "xgmi_mi300x", "infiniband_ndr", 8, 8, "nd_mi300x_v5_ndr"};
  check_assumed_node(mi300x);
  check_node_ring(mi300x, 1, 14 * 1.0e-3, 2 * n * 7 / 8 / 312.9e9 * 1e3);
  check_node_ring(mi300x, 2, 30 * 1.0e-3, 2 * n * 15 / 16 / 48e9 * 1e3);
  // Frontier (OLCF): four MI250X packages (eight GCDs), four Slingshot 200 Gb/s NICs. One node,
  // p = 4: one Infinity Fabric link between packages, 75 % of 50 GB/s, 1.0 us a hop (40 ms). Two
  // nodes, p = 8: the slowest hop is one Slingshot NIC per package (24 GB/s), at max(1.0, 2.7) us
  // (72.92 ms).
  const NodeExpectation mi250x{"MI250X", "xgmi_mi250x", "slingshot_200g", 4, 4, "frontier_mi250x_slingshot"};
  check_assumed_node(mi250x);
  check_node_ring(mi250x, 1, 6 * 1.0e-3, 2 * n * 3 / 4 / 37.5e9 * 1e3);
  check_node_ring(mi250x, 2, 14 * 2.7e-3, 2 * n * 7 / 8 / 24e9 * 1e3);
}

TEST_CASE("a CPU has no node of GPUs: a multi-node request is told which links to state") {
  // A CPU server's network is not a GPU node's; guessing one (a dual-socket box over Ethernet) would
  // price a cluster nobody described, so the request must say it.
  const Json out = paleo::handle_request(
      {{"command", "estimate"}, {"net", "resnet50_v1"}, {"device", "CPU_I7"}, {"nodes", 2}});
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["field"] == "cluster");
  const std::string message = out["error"]["message"].get<std::string>();
  for (const char* named : {"intra", "inter", "nics_per_node"}) CHECK(message.find(named) != std::string::npos);
  const paleo_test::CliResult cli = run_cli("estimate resnet50_v1 --device_name CPU_I7 --nodes 2");
  CHECK(cli.exit_code != 0);
  CHECK(cli.err.find("inter") != std::string::npos);
  // Stating the links is enough.
  ok({{"command", "estimate"}, {"net", "resnet50_v1"}, {"device", "CPU_I7"}, {"nodes", 2},
      {"cluster", {{"intra", "qpi_intel_pre_skylake"}, {"inter", "ethernet_10g"}, {"nics_per_node", 1}}}});
}
