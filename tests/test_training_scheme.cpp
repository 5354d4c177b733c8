// Training schemes on a cluster step (docs/training-schemes.md): the identities that tie each
// scheme to today's estimate, Project Adam's traffic, gossip's rounds, local SGD's amortised
// all-reduce, global batch norm, and bad members of `training_scheme`.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/api.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

Json cluster(int nodes, int devices_per_node) {
  return {{"nodes", nodes}, {"devices_per_node", devices_per_node}, {"intra", "nvlink2_v100"}, {"inter", "ethernet_10g"}};
}

Json request(const Json& scheme, const Json& c = cluster(4, 2), const std::string& net = "resnet50_v1_5") {
  Json r = {{"command", "estimate"}, {"net", net}, {"device", "V100_SXM2_16GB"}, {"profile", "paleo2026"},
            {"batch_size", 32}, {"cluster", c}};
  if (!scheme.is_null()) r["training_scheme"] = scheme;
  return r;
}

constexpr auto& run = ok_answer;  // tests/api_answer.h

double step(const Json& scheme, const Json& c = cluster(4, 2), const std::string& net = "resnet50_v1_5") {
  return run(request(scheme, c, net))["training_scheme"]["step_ms"].get<double>();
}

}  // namespace

TEST_CASE("synchronous with zero jitter equals today's cluster estimate exactly") {
  for (const Json& c : {cluster(4, 2), cluster(64, 1), cluster(1, 8)}) {
    const Json out = run(request(Json::object(), c));
    CHECK(out["training_scheme"]["step_ms"].get<double>() == out["cluster"]["step_ms"].get<double>());
    CHECK(out["training_scheme"]["throughput_samples_per_s"].get<double>() ==
          out["cluster"]["throughput_samples_per_s"].get<double>());
    CHECK(out["training_scheme"]["staleness_expected"] == 0);
  }
}

TEST_CASE("SSP with s = 0 equals sync and a larger bound waits less for stragglers") {
  const Json jitter = {{"jitter", "lognormal:0.2"}};
  Json ssp0 = jitter;
  ssp0["consistency"] = "ssp";
  ssp0["staleness"] = 0;
  Json ssp4 = ssp0;
  ssp4["staleness"] = 4;
  const double sync = step(jitter);
  CHECK(step(ssp0) == sync);
  CHECK(step(ssp4) < sync);
  // Without a jitter of its own, SSP hides the era's wait for the slowest server the same way: the
  // mean over s + 1 = 5 steps divides its spread by sqrt(5).
  const double wait = run(request(Json::object()))["cluster"]["straggler_wait_ms"].get<double>();
  REQUIRE(wait > 0);
  CHECK(step({{"consistency", "ssp"}, {"staleness", 4}}) ==
        Approx(step(Json::object()) - wait + wait / std::sqrt(5.0)).epsilon(1e-12));
  CHECK(sync > step(Json::object()));
  const Json out = run(request(ssp4));
  CHECK(out["training_scheme"]["staleness_bound"] == 4);
  CHECK(out["training_scheme"]["staleness_expected"] == 2);
}

TEST_CASE("asynchronous with one worker equals synchronous through the same parameter server") {
  const Json one = cluster(1, 1);
  const double sync_ps = step({{"exchange", "parameter_server"}}, one);
  const double async = step({{"consistency", "async"}}, one);
  CHECK(async == Approx(sync_ps).epsilon(1e-12));
  // With 64 workers async PS is capped by the server's link: m n (b + g) per m updates.
  const Json out = run(request({{"consistency", "async"}}, cluster(64, 1)));
  const Json& ts = out["training_scheme"];
  CHECK(ts["capped_by_servers"] == true);
  CHECK(ts["staleness_expected"] == 63);
  const double n = ts["parameter_server"]["pushed_bytes"].get<double>();
  CHECK(ts["updates_per_s"].get<double>() == Approx(ts["parameter_server"]["updates_per_s_cap"].get<double>()));
  CHECK(n == ts["dense_gradient_bytes"].get<double>());
}

TEST_CASE("compression at ratio 1 (fp32) equals no compression and fp16 halves the message") {
  for (const Json& c : {cluster(4, 2), cluster(64, 1)}) {
    CHECK(step({{"compression", "fp32"}}, c) == step(Json::object(), c));
    const Json ts = run(request({{"compression", "fp16"}}, c))["training_scheme"];
    CHECK(ts["compression_ratio"].get<double>() == 2);
  }
  const Json top = run(request({{"compression", "topk:0.01"}}, cluster(64, 1)))["training_scheme"];
  CHECK(top["compression_ratio"].get<double>() == Approx(50).epsilon(1e-3));
  CHECK(top["extra_memory_bytes"].get<double>() == top["dense_gradient_bytes"].get<double>());
}

TEST_CASE("Project Adam: FC gradients become m N (C_out + C_in) values instead of m C_out C_in") {
  // data [16, 1024] -> fc 4096 -> fc2 1000: weights 1024 x 4096 and 4096 x 1000 (+ biases).
  Json spec = {{"name", "fc"}, {"layers", Json::object()}};
  spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {16, 1024}}};
  spec["layers"]["fc"] = {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 4096}};
  spec["layers"]["fc2"] = {{"parents", {"fc"}}, {"type", "InnerProduct"}, {"num_outputs", 1000}};
  Json r = request({{"exchange", "parameter_server"}, {"offload_fc", true}}, cluster(8, 1));
  r["net"] = spec;
  r["batch_size"] = 16;
  const Json ps = run(r)["training_scheme"]["parameter_server"];
  const double dense = 1024.0 * 4096 + 4096.0 * 1000, offloaded = 16.0 * (1024 + 4096) + 16.0 * (4096 + 1000);
  CHECK(ps["fc_values_dense"].get<double>() == dense);
  CHECK(ps["fc_values_offloaded"].get<double>() == offloaded);
  CHECK(ps["pushed_bytes"].get<double>() == 4 * (offloaded + 4096 + 1000));  // biases still sent
  CHECK(ps["pulled_bytes"].get<double>() == 4 * (dense + 4096 + 1000));
  // The traffic reduction at N = 16, from the response: 8290304 / 163456 = 50.72.
  CHECK(ps["fc_values_dense"].get<double>() / ps["fc_values_offloaded"].get<double>() == Approx(50.72).epsilon(1e-3));
}

TEST_CASE("gossip reaches everyone in 1.639 log2 m rounds and local SGD amortises its all-reduce over k steps") {
  const Json g = run(request({{"averaging", "gossip"}, {"gossip_peers", 3}}, cluster(64, 1)))["training_scheme"];
  CHECK(g["gossip_rounds"].get<double>() == Approx(9.834).epsilon(1e-12));
  CHECK(g["wire_bytes_per_step"].get<double>() == 3 * g["dense_gradient_bytes"].get<double>());
  const Json every1 = run(request({{"averaging", "local_sgd"}, {"averaging_every", 1}}, cluster(64, 1)))["training_scheme"];
  const Json every8 = run(request({{"averaging", "local_sgd"}, {"averaging_every", 8}}, cluster(64, 1)))["training_scheme"];
  CHECK(every8["exposed_comm_ms"].get<double>() == Approx(every1["exposed_comm_ms"].get<double>() / 8).epsilon(1e-12));
  CHECK(every8["wire_bytes_per_step"].get<double>() == Approx(every1["wire_bytes_per_step"].get<double>() / 8));
  // Ring all-reduce: each worker sends 2 n (p - 1) / p.
  const double n = every1["dense_gradient_bytes"].get<double>();
  CHECK(every1["wire_bytes_per_step"].get<double>() == Approx(2 * n * 63 / 64).epsilon(1e-12));
  const Json ens = run(request({{"averaging", "ensemble"}}, cluster(64, 1)))["training_scheme"];
  CHECK(ens["step_ms"].get<double>() == ens["compute_ms"].get<double>());
  CHECK(ens["wire_bytes_per_step"] == 0);
}

TEST_CASE("gossip with as many peers as workers is priced with every other worker, with a warning") {
  const Json out = run(request({{"averaging", "gossip"}, {"gossip_peers", 64}}, cluster(64, 1)));
  const Json& g = out["training_scheme"];
  CHECK(g["wire_bytes_per_step"].get<double>() == 63 * g["dense_gradient_bytes"].get<double>());
  int clamped = 0;
  for (const Json& w : out["warnings"]) clamped += w.get<std::string>().rfind("training_scheme.gossip_peers: 64 peers", 0) == 0;
  CHECK(clamped == 1);
  // The page's default of 3 peers on 2 workers: one peer.
  const Json two = run(request({{"averaging", "gossip"}}, cluster(2, 1)))["training_scheme"];
  CHECK(two["wire_bytes_per_step"].get<double>() == two["dense_gradient_bytes"].get<double>());
}

TEST_CASE("global batch norm adds two all-reduces of 2 C values per BN layer") {
  const Json local = run(request({{"batch_norm", "local"}}, cluster(64, 1)))["training_scheme"];
  const Json global = run(request({{"batch_norm", "global"}}, cluster(64, 1)))["training_scheme"];
  CHECK(local["batch_norm_sync_ms"] == 0);
  CHECK(global["batch_norm_layers"] == 53);  // ResNet-50's BatchNorm layers
  CHECK(global["step_ms"].get<double>() ==
        Approx(local["step_ms"].get<double>() + global["batch_norm_sync_ms"].get<double>()).epsilon(1e-12));
  CHECK(global["batch_norm_sync_ms"].get<double>() > 0);
  // ResNet-50's BN channels: 64 + 6 (3 64 + 4 128 + 6 256 + 3 512) + 4 (64 + 128 + 256 + 512) = 26560;
  // 2 C fp32 values forward and backward: 16 bytes per channel = 424960 bytes. The V100's era runs
  // NCCL, whose tree takes these small messages: each byte up one tree and down the other, 2 n per
  // worker.
  CHECK(global["wire_bytes_per_step"].get<double>() - local["wire_bytes_per_step"].get<double>() ==
        Approx(424960.0 * 2).epsilon(1e-12));
  // With every algorithm of the alpha-beta table they go by recursive doubling, which sends
  // n log2 p = 6 n per worker on 64 workers.
  Json any_local = request({{"batch_norm", "local"}}, cluster(64, 1));
  Json any_global = request({{"batch_norm", "global"}}, cluster(64, 1));
  any_local["collective_library"] = any_global["collective_library"] = "any";
  CHECK(run(any_global)["training_scheme"]["wire_bytes_per_step"].get<double>() -
            run(any_local)["training_scheme"]["wire_bytes_per_step"].get<double>() ==
        Approx(424960.0 * 6).epsilon(1e-12));
}

TEST_CASE("global batch norm synchronises BatchNorm layers, not LayerNorm ones") {
  // data [16, 1024] -> fc 256 -> norm -> fc2 10 on 8 workers.
  auto with_norm = [](const std::string& type) {
    Json spec = {{"name", "mlp"}, {"layers", Json::object()}};
    spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {16, 1024}}};
    spec["layers"]["fc"] = {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 256}};
    spec["layers"]["norm"] = {{"parents", {"fc"}}, {"type", type}};
    spec["layers"]["fc2"] = {{"parents", {"norm"}}, {"type", "InnerProduct"}, {"num_outputs", 10}};
    Json r = request({{"batch_norm", "global"}}, cluster(8, 1));
    r["net"] = spec;
    r["batch_size"] = 16;
    return run(r)["training_scheme"];
  };
  const Json bn = with_norm("BatchNorm"), ln = with_norm("LayerNorm");
  CHECK(bn["batch_norm_layers"] == 1);
  CHECK(bn["batch_norm_sync_ms"].get<double>() > 0);
  CHECK(ln["batch_norm_layers"] == 0);
  CHECK(ln["batch_norm_sync_ms"] == 0);
  // Both learn a scale and a shift per channel: 2 x 256 parameters, 4 bytes each.
  CHECK(ln["dense_gradient_bytes"] == bn["dense_gradient_bytes"]);
  CHECK(ln["dense_gradient_bytes"].get<double>() == 4 * (1024.0 * 256 + 256 + 2 * 256 + 256.0 * 10 + 10));
}

TEST_CASE("bad training_scheme members name the member") {
  const std::pair<Json, std::string> cases[] = {
      {{{"consistency", "eventual"}}, "training_scheme.consistency"},
      {{{"staleness", 4}}, "training_scheme.staleness"},  // needs ssp
      {{{"consistency", "ssp"}, {"staleness", -1}}, "training_scheme.staleness"},
      {{{"jitter", "lognormal:zero"}}, "training_scheme.jitter"},
      {{{"jitter", "normal:0.5"}}, "training_scheme.jitter"},  // negative step times: lognormal's job
      {{{"slow_worker", -0.2}}, "training_scheme.slow_worker"},
      {{{"compression", "topk:2"}}, "training_scheme.compression"},
      {{{"compression", "fp16"}, {"consistency", "async"}}, "training_scheme.compression"},
      {{{"averaging", "gossip"}, {"gossip_peers", 0}}, "training_scheme.gossip_peers"},
      {{{"averaging", "sometimes"}}, "training_scheme.averaging"},
      {{{"server_layout", "ring"}}, "training_scheme.server_layout"},
      {{{"batch_norm", "yes"}}, "training_scheme.batch_norm"},
      {{{"colour", "red"}}, "training_scheme.colour"},
      {Json::array(), "training_scheme"},
  };
  for (const auto& [scheme, field] : cases) {
    INFO(scheme.dump());
    const Json out = paleo::handle_request(request(scheme, cluster(64, 1)));
    REQUIRE(out["ok"] == false);
    CHECK(out["error"]["field"] == field);
  }
  Json no_cluster = request({{"consistency", "sync"}});
  no_cluster.erase("cluster");
  const Json out = paleo::handle_request(no_cluster);
  REQUIRE(out["ok"] == false);
  CHECK(out["error"]["field"] == "training_scheme");
}

TEST_CASE("the comparison of schemes over node counts: each point is that scheme's own estimate") {
  Json r = request({{"slow_worker", 0.2}}, cluster(8, 1));
  r["scheme_comparison"] = true;
  const Json cmp = run(r)["training_scheme"]["comparison"];
  REQUIRE(cmp.size() == 6);
  for (const Json& sweep : cmp) {
    REQUIRE(sweep["points"].size() == 4);  // 1, 2, 4, 8 nodes
    CHECK(sweep["points"][3]["workers"] == 8);
  }
  // The fp16 sweep's 4-node point is an fp16 estimate on 4 nodes with the same straggler.
  CHECK(cmp[4]["scheme"] == "fp16 gradients");
  const Json own = run(request({{"compression", "fp16"}, {"slow_worker", 0.2}}, cluster(4, 1)))["training_scheme"];
  CHECK(cmp[4]["points"][2]["step_ms"].get<double>() == own["step_ms"].get<double>());
  CHECK(cmp[4]["points"][2]["wire_bytes_per_step"].get<double>() == own["wire_bytes_per_step"].get<double>());
  const Json async = run(request({{"consistency", "async"}, {"slow_worker", 0.2}}, cluster(2, 1)))["training_scheme"];
  CHECK(cmp[2]["points"][1]["step_ms"].get<double>() == async["step_ms"].get<double>());
}

TEST_CASE("parameter servers against their closed forms: single, sharded, and the async cap") {
  // 8 nodes of one V100 over a link of 10 us and 1 GB/s: a = 0.01 ms, b = 1e-6 ms per byte; the
  // reduction g = 3 / 900 GB/s per byte.
  const Json c = {{"nodes", 8}, {"devices_per_node", 1}, {"intra", "pcie3_x16"},
                  {"inter", {{"latency_us", 10}, {"bandwidth_gb_per_s", 1}}}};
  const double a = 0.01, b = 1e-6, g = 3.0 / 900e9 * 1e3, m = 8;
  const Json answer = run(request({{"exchange", "parameter_server"}}, c));
  const Json& single = answer["training_scheme"];
  const double n = single["dense_gradient_bytes"].get<double>();
  // Push and pull of every worker through one server's link: 2a + 2 m n b + m n g.
  CHECK(single["exposed_comm_ms"].get<double>() == Approx(2 * a + 2 * m * n * b + m * n * g).epsilon(1e-12));
  // The synchronous push waits for the slowest of the 8 servers, as an all-reduce does: the era's
  // coefficient of variation 0.035 of the forward and backward times E[max of 8 normals] 1.42360.
  const Json& compute = answer["cluster"]["compute"];
  const double wait = (compute["forward_ms"].get<double>() + compute["backward_ms"].get<double>()) * 0.035 * 1.42360;
  CHECK(answer["cluster"]["straggler_wait_ms"].get<double>() == Approx(wait).epsilon(1e-5));
  CHECK(single["step_ms"].get<double>() ==
        Approx(single["compute_ms"].get<double>() + 2 * a + 2 * m * n * b + m * n * g + wait).epsilon(1e-5));
  // Four shards: 2a + 2 n max(m / S, 1) b + m n g / S.
  const Json sharded = run(request({{"exchange", "parameter_server"}, {"server_layout", "sharded"}, {"servers", 4}},
                                   c))["training_scheme"];
  CHECK(sharded["exposed_comm_ms"].get<double>() == Approx(2 * a + 2 * n * 2 * b + m * n * g / 4).epsilon(1e-12));
  // Asynchronous: the servers absorb S / (n (b + g)) updates per second.
  const Json async = run(request({{"consistency", "async"}, {"server_layout", "sharded"}, {"servers", 4}}, c))["training_scheme"];
  CHECK(async["parameter_server"]["updates_per_s_cap"].get<double>() == Approx(4 * 1e3 / (n * (b + g))).epsilon(1e-12));
}

TEST_CASE("a hierarchical parameter server against its closed form, and one the cluster cannot hold") {
  // 4 nodes of 2 V100s: inside a node 1 us and 10 GB/s, between nodes 10 us and 1 GB/s; the
  // reduction g = 3 / 900 GB/s per byte.
  const Json c = {{"nodes", 4}, {"devices_per_node", 2},
                  {"intra", {{"latency_us", 1}, {"bandwidth_gb_per_s", 10}}},
                  {"inter", {{"latency_us", 10}, {"bandwidth_gb_per_s", 1}}}};
  const double ai = 1e-3, bi = 1e-7, a = 0.01, b = 1e-6, g = 3.0 / 900e9 * 1e3, nodes = 4;
  const Json out = run(request({{"exchange", "parameter_server"}, {"server_layout", "hierarchical"}}, c));
  const Json& h = out["training_scheme"];
  const double n = h["dense_gradient_bytes"].get<double>();
  CHECK(h["exchange"] == "parameter_server_hierarchical");
  CHECK(h["parameter_server"]["layout"] == "hierarchical");
  // Reduce-scatter and all-gather between the 2 devices of a node, a + (n / 2) b each (the
  // reduce-scatter also sums n / 2 bytes), then one client per node: 2a + 2 N n b + N n g.
  CHECK(h["exposed_comm_ms"].get<double>() ==
        Approx(2 * (ai + n / 2 * bi) + n / 2 * g + 2 * a + 2 * nodes * n * b + nodes * n * g).epsilon(1e-12));
  // On 8 nodes of one device there is no node to reduce in: a single server, said so.
  const Json flat = run(request({{"exchange", "parameter_server"}, {"server_layout", "hierarchical"}}, cluster(8, 1)));
  CHECK(flat["training_scheme"]["exchange"] == "parameter_server_single");
  CHECK(flat["training_scheme"]["parameter_server"]["layout"] == "single");
  int noted = 0;
  for (const Json& w : flat["warnings"]) noted += w.get<std::string>().rfind("training_scheme.server_layout:", 0) == 0;
  CHECK(noted == 1);
}

TEST_CASE("pushing weights is priced like pushing gradients, and the response says so") {
  const Json grads = run(request({{"exchange", "parameter_server"}}, cluster(8, 1)));
  const Json weights = run(request({{"exchange", "parameter_server"}, {"push", "weights"}}, cluster(8, 1)));
  CHECK(weights["training_scheme"]["step_ms"] == grads["training_scheme"]["step_ms"]);
  CHECK(weights["training_scheme"]["parameter_server"]["push"] == "weights");
  CHECK(weights["warnings"].size() == grads["warnings"].size() + 1);
  CHECK(weights["warnings"].back().get<std::string>().rfind("training_scheme.push: 'weights'", 0) == 0);
}

TEST_CASE("elastic averaging every k steps: one server exchange of the weights per k steps") {
  // 8 nodes of one V100 over 10 us and 1 GB/s, as in the closed forms above: 2a + 2 m n b + m n g.
  const Json c = {{"nodes", 8}, {"devices_per_node", 1}, {"intra", "pcie3_x16"},
                  {"inter", {{"latency_us", 10}, {"bandwidth_gb_per_s", 1}}}};
  const double a = 0.01, b = 1e-6, g = 3.0 / 900e9 * 1e3, m = 8, k = 4;
  const Json answer = run(request({{"averaging", "elastic"}, {"averaging_every", 4}}, c));
  const Json& e = answer["training_scheme"];
  const double n = e["dense_gradient_bytes"].get<double>();
  // One barrier every k steps: the slowest server's k steps, whose spread averages down by sqrt(k).
  const double wait = answer["cluster"]["straggler_wait_ms"].get<double>() / std::sqrt(k);
  CHECK(e["exchange"] == "elastic parameter_server_single");
  CHECK(e["exposed_comm_ms"].get<double>() == Approx((2 * a + 2 * m * n * b + m * n * g) / k).epsilon(1e-12));
  CHECK(e["wire_bytes_per_step"].get<double>() == Approx(n / k).epsilon(1e-12));
  CHECK(e["step_ms"].get<double>() ==
        Approx(e["compute_ms"].get<double>() + (2 * a + 2 * m * n * b + m * n * g) / k + wait).epsilon(1e-12));
}

TEST_CASE("the wait for the slowest server is paid once per barrier: a scheme's own jitter replaces the era's") {
  // 8 servers of one V100: the era's wait is in the all-reduce step; a scheme naming its own
  // jitter prices the barrier with that model alone, so with "normal:0.035" per worker (here one
  // worker per server) the step is the era's step again, not the era's wait twice.
  const Json c = cluster(8, 1);
  const Json plain = run(request(Json(), c));
  const double era_step = plain["cluster"]["step_ms"].get<double>();
  REQUIRE(plain["cluster"]["straggler_wait_ms"].get<double>() > 0);
  const double own = step({{"jitter", "normal:0.035"}}, c);
  // The scheme's barrier is over forward + backward + update, the era's over forward + backward.
  const Json& compute = plain["cluster"]["compute"];
  const double update_wait = compute["update_ms"].get<double>() * 0.035 * 1.42360;
  CHECK(own == Approx(era_step + update_wait).epsilon(1e-4));
  // Without a jitter of its own, a synchronous parameter server waits like the all-reduce does.
  const Json ps = run(request({{"exchange", "parameter_server"}}, c));
  CHECK(ps["training_scheme"]["step_ms"].get<double>() - ps["training_scheme"]["deterministic_step_ms"].get<double>() ==
        Approx(0).margin(1e-9));
}
