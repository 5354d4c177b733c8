// The wait for the slowest server (core/cluster/straggler.h): the expected maximum of N standard
// normals against its closed forms (N = 2, 3) and Harter's 1961 tables (N = 4, 10, 16, 100,
// 1000), and the wait as the cluster step prices it.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/api.h"
#include "core/cluster/straggler.h"

namespace {

using Json = nlohmann::ordered_json;

Json estimate(double jitter_cv) {
  Json r = {{"command", "estimate"},
            {"net", "alex_v2"},
            {"device", {{"name", "V100"}, {"clock_mhz", 1530}, {"peak_gflops", 15700},
                        {"mem_bandwidth_gb_per_s", 900}, {"memory_bytes", 17179869184.0}}},
            {"profile", "paleo2026"},
            {"batch_size", 32},
            {"efficiency", {{"step_jitter_cv", jitter_cv}}},
            {"cluster", {{"nodes", 4}, {"devices_per_node", 4}, {"nics_per_node", 1},
                         {"intra", {{"bandwidth_gb_per_s", 130}, {"latency_us", 0.7}}},
                         {"inter", {{"bandwidth_gb_per_s", 12.1}, {"latency_us", 1.5}}}}}};
  Json out = paleo::handle_request(r);
  REQUIRE(out["ok"].get<bool>());
  return out["cluster"];
}

}  // namespace

TEST_CASE("expected maximum of N standard normals: closed forms and tables") {
  const double pi = std::acos(-1.0);
  CHECK(paleo::expected_max_standard_normal(1) == 0);
  CHECK(paleo::expected_max_standard_normal(2) == Approx(1 / std::sqrt(pi)).epsilon(1e-6));      // 0.564190
  CHECK(paleo::expected_max_standard_normal(3) == Approx(3 / (2 * std::sqrt(pi))).epsilon(1e-6));  // 0.846284
  CHECK(paleo::expected_max_standard_normal(4) == Approx(1.029375).epsilon(1e-5));
  CHECK(paleo::expected_max_standard_normal(10) == Approx(1.538753).epsilon(1e-5));
  CHECK(paleo::expected_max_standard_normal(16) == Approx(1.765991).epsilon(1e-5));
  CHECK(paleo::expected_max_standard_normal(100) == Approx(2.507594).epsilon(1e-5));
  CHECK(paleo::expected_max_standard_normal(1000) == Approx(3.241436).epsilon(1e-5));
  // Asked again (answered from the values already computed): the same, to the bit.
  CHECK(paleo::expected_max_standard_normal(3) == Approx(3 / (2 * std::sqrt(pi))).epsilon(1e-6));
  CHECK(paleo::expected_max_standard_normal(1000) == paleo::expected_max_standard_normal(1000));
}

TEST_CASE("the straggler wait: compute x cv x E[max], nothing for one server or no jitter") {
  // 100 ms of compute, 2 % jitter, 2 servers: 100 x 0.02 x 0.564190 = 1.128379 ms.
  CHECK(paleo::straggler_wait_ms(100, 0.02, 2) == Approx(1.128379).epsilon(1e-5));
  CHECK(paleo::straggler_wait_ms(100, 0.02, 1) == 0);
  CHECK(paleo::straggler_wait_ms(100, 0, 512) == 0);
}

TEST_CASE("the cluster step waits for the slowest of its 4 servers, not of its 16 GPUs") {
  const Json calm = estimate(0);
  const Json jittery = estimate(0.03);
  CHECK(calm["straggler_wait_ms"].get<double>() == 0);
  const double compute_ms = jittery["compute"]["forward_ms"].get<double>() + jittery["compute"]["backward_ms"].get<double>();
  // 4 servers of 4 GPUs: E[max of 4] = 1.029375 (Harter 1961), not E[max of 16] = 1.765991.
  const double wait_ms = compute_ms * 0.03 * 1.029375;
  CHECK(jittery["straggler_wait_ms"].get<double>() == Approx(wait_ms).epsilon(1e-5));
  CHECK(jittery["step_ms"].get<double>() == Approx(calm["step_ms"].get<double>() + wait_ms).epsilon(1e-5));
  // The one-device step of the scaling efficiency has no one to wait for.
  CHECK(jittery["scaling_efficiency"].get<double>() ==
        Approx(calm["scaling_efficiency"].get<double>() * calm["step_ms"].get<double>() / jittery["step_ms"].get<double>())
            .epsilon(1e-9));
}
