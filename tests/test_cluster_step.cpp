// The cluster step: overlap bounds, the pipeline bubble, memory by hand, monotonicity.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/api.h"
#include "core/cluster/gradient_sync.h"
#include "core/cluster/pipeline.h"

namespace {

using Json = nlohmann::ordered_json;

Json cluster(double inter_gb_per_s, double inter_latency_us) {
  return {{"nodes", 4}, {"devices_per_node", 4}, {"nics_per_node", 1},
          {"intra", {{"bandwidth_gb_per_s", 130}, {"latency_us", 0.7}}},
          {"inter", {{"bandwidth_gb_per_s", inter_gb_per_s}, {"latency_us", inter_latency_us}}}};
}

Json v100() {
  return {{"name", "V100"}, {"clock_mhz", 1530}, {"peak_gflops", 15700}, {"mem_bandwidth_gb_per_s", 900},
          {"memory_bytes", 17179869184.0}};
}

Json estimate(const std::string& net, const Json& c, Json extra = Json::object()) {
  Json r = {{"command", "estimate"}, {"net", net}, {"device", v100()}, {"profile", "paleo2026"},
            {"batch_size", 32}, {"cluster", c}};
  r.update(extra);
  Json out = paleo::handle_request(r);
  REQUIRE(out["ok"].get<bool>());
  return out["cluster"];
}

}  // namespace

TEST_CASE("overlap is never slower than no overlap, nor faster than max(compute, communication)") {
  for (const char* net : {"alex_v2", "vgg16", "inception_v3"}) {
    for (double bucket : {0.0, 1e6, 25.0 * 1024 * 1024, 1e12}) {
      const Json c = estimate(net, cluster(12.1, 1.5), {{"bucket_bytes", bucket}});
      const Json& comp = c["compute"];
      for (const Json& o : c["collectives"]) {
        INFO(net << " bucket " << bucket << " " << o["algorithm"]);
        const double overlap = o["overlap"]["step_ms"].get<double>();
        const double serial = o["no_overlap"]["step_ms"].get<double>();
        const double floor = comp["forward_ms"].get<double>() + comp["update_ms"].get<double>() +
                             std::max(comp["backward_ms"].get<double>(), o["comm_ms"].get<double>());
        CHECK(overlap <= serial + 1e-9);
        CHECK(overlap >= floor - 1e-9);
        CHECK(serial == Approx(comp["compute_ms"].get<double>() + o["comm_ms"].get<double>()).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("gradient buckets by hand: two layers, one channel") {
  // Backward order: layer A (2 ms, 100 bytes), layer B (3 ms, 100 bytes); each bucket takes
  // 4 ms. Per-layer buckets: A's sync runs 2..6, B's is ready at 5 and runs 6..10.
  auto four_ms = [](double) {
    paleo::CollectiveCost c;
    c.beta_ms = 4;
    return c;
  };
  paleo::GradientSync s = paleo::gradient_sync({2, 3}, {100, 100}, 0, four_ms);
  CHECK(s.buckets == 2);
  CHECK(s.comm_ms == 8);
  CHECK(s.backward_ms == 5);
  CHECK(s.backward_and_sync_ms == 10);
  // One bucket for both: ready at 5, done at 9.
  s = paleo::gradient_sync({2, 3}, {100, 100}, 1000, four_ms);
  CHECK(s.buckets == 1);
  CHECK(s.backward_and_sync_ms == 9);
  CHECK(s.exposed_overlap_ms() == 4);
}

TEST_CASE("balanced pipeline stages have a bubble of (S-1)/(M+S-1)") {
  for (long stages : {2L, 4L, 8L}) {
    for (long micro : {1L, 4L, 16L, 64L}) {
      std::vector<paleo::StageTimes> st(static_cast<std::size_t>(stages), paleo::StageTimes{3.0, 6.0, 0.0});
      const paleo::PipelineResult r = paleo::pipeline_schedule(st, micro);
      const double s = static_cast<double>(stages), m = static_cast<double>(micro);
      CHECK(r.step_ms == Approx((m + s - 1) * 9).epsilon(1e-12));
      CHECK(r.bubble_fraction() == Approx((s - 1) / (m + s - 1)).epsilon(1e-12));
    }
  }
}

TEST_CASE("the automatic split minimises the slowest stage") {
  const std::vector<long> split = paleo::balanced_split({1, 1, 1, 1, 4, 4}, 3);
  REQUIRE(split.size() == 3);
  CHECK(split[0] == 4);  // 4 | 4 | 4
  CHECK(split[1] == 1);
  CHECK(split[2] == 1);
  CHECK(paleo::activations_kept("gpipe", 0, 4, 16) == 16);
  CHECK(paleo::activations_kept("1f1b", 0, 4, 16) == 4);
  CHECK(paleo::activations_kept("1f1b", 3, 4, 16) == 1);
}

TEST_CASE("pipeline through the API: stages, bubble and per-stage memory") {
  const Json c = estimate("vgg16", cluster(12.1, 1.5),
                          {{"batch_size", 64}, {"pipeline", {{"stages", 4}, {"micro_batches", 8}}}});
  REQUIRE(c.contains("pipeline"));
  CHECK(c["pipeline"]["stages"].size() == 4);
  CHECK(c["memory"].size() == 4);
  CHECK(c["data_parallel"] == 4);
  CHECK(c["pipeline"]["bubble_fraction"].get<double>() > 0);
  long layers = 0;
  for (const Json& s : c["pipeline"]["stages"]) layers += s["layers"].get<long>();
  CHECK(layers == 25);
  Json bad = paleo::handle_request(Json{{"command", "estimate"}, {"net", "vgg16"}, {"cluster", cluster(10, 1)},
                                        {"pipeline", {{"stages", 3}}}});
  CHECK_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["field"] == "pipeline.stages");
}

TEST_CASE("memory per device of a small net, by hand") {
  // data [8,32,32,3] -> conv 3x3x3x16 SAME -> [8,32,32,16] -> fc 10.
  const Json net = {{"name", "small"},
                    {"layers",
                     {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 32, 32, 3}}}},
                      {"conv", {{"parents", {"data"}}, {"type", "Convolution"}, {"filter", {3, 3, 3, 16}},
                                {"strides", {1, 1, 1, 1}}, {"padding", "SAME"}}},
                      {"fc", {{"parents", {"conv"}}, {"type", "InnerProduct"}, {"num_outputs", 10}}}}}};
  Json r = {{"command", "estimate"}, {"net", net}, {"device", v100()}, {"profile", "paleo2026"},
            {"optimizer", "adam"}, {"conv_algorithm", "gemm"}, {"cluster", cluster(12.1, 1.5)}};
  const Json out = paleo::handle_request(r);
  REQUIRE(out["ok"].get<bool>());
  const Json& m = out["cluster"]["memory"][0];
  const double weights = 4.0 * ((3 * 3 * 3 * 16 + 16) + (32 * 32 * 16 * 10 + 10));
  const double activations = 4.0 * (8 * 32 * 32 * 3 + 8 * 32 * 32 * 16 + 8 * 10);
  CHECK(m["weights_bytes"].get<double>() == weights);
  CHECK(m["gradients_bytes"].get<double>() == weights);
  CHECK(m["optimizer_bytes"].get<double>() == 2 * weights);
  CHECK(m["activations_bytes"].get<double>() == activations);
  CHECK(m["workspace_bytes"].get<double>() == 0);
  CHECK(m["total_bytes"].get<double>() == 4 * weights + activations);
  CHECK(m["fits"].get<bool>());
  // The largest batch that fits: activations grow by (3 + 16) * 32 * 32 * 4 + 40 bytes a sample.
  const double per_sample = (32 * 32 * 3 + 32 * 32 * 16 + 10) * 4.0;
  const double expected = std::floor((17179869184.0 - 4 * weights) / per_sample);
  CHECK(out["cluster"]["max_batch_per_replica"].get<double>() == expected);
}

TEST_CASE("the largest fitting batch fits, and one sample more does not") {
  // On an H100 in its era the footprint is not linear in the batch (the workspaces of the
  // algorithms chosen at each batch): the answer is checked against the footprints at that batch
  // and the next.
  for (const char* net : {"vgg16", "inception_v3", "mobilenet_v2"}) {
    const Json h100 = {{"device", "H100_SXM"}};
    const auto largest = estimate(net, cluster(12.1, 1.5), h100)["max_batch_per_replica"].get<std::int64_t>();
    REQUIRE(largest > 1);
    CAPTURE(net, largest);
    Json at = h100;
    at["batch_size"] = largest;
    CHECK(estimate(net, cluster(12.1, 1.5), at)["memory"][0]["fits"].get<bool>());
    at["batch_size"] = largest + 1;
    CHECK_FALSE(estimate(net, cluster(12.1, 1.5), at)["memory"][0]["fits"].get<bool>());
  }
}

TEST_CASE("a device too large to fill: the largest batch is the largest the limits let the model price") {
  // 1e18 bytes hold more VGG-16 samples than the 2^50-element limit on a tensor allows: conv1-1's
  // output, b x 224 x 224 x 64, is the first to pass it. The estimate still answers.
  Json device = v100();
  device["memory_bytes"] = 1e18;
  const Json c = estimate("vgg16", cluster(12.1, 1.5), {{"device", device}});
  CHECK(c["max_batch_per_replica"].get<double>() == std::floor(std::pow(2.0, 50) / (224.0 * 224 * 64)));
}

TEST_CASE("a faster inter-node link never slows the step, and more latency never speeds it up") {
  double previous = INFINITY;
  for (double bw : {1.0, 5.0, 12.5, 25.0, 50.0}) {
    const double t = estimate("alex_v2", cluster(bw, 2))["step_ms"].get<double>();
    CHECK(t <= previous);
    previous = t;
  }
  previous = 0;
  for (double lat : {0.0, 2.0, 20.0, 200.0}) {
    const double t = estimate("alex_v2", cluster(12.5, lat))["step_ms"].get<double>();
    CHECK(t >= previous);
    previous = t;
  }
}
