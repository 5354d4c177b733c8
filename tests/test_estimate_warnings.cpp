// The warnings an estimate earns by its numbers (core/api/estimate_warnings.h): a footprint over
// the device's memory, a batch that does not divide over the workers, links slower than the
// devices can feed; each with numbers derived by hand, then end to end through the JSON API.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/api.h"
#include "core/api/estimate_warnings.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& ok = ok_answer;  // tests/api_answer.h

// The warnings of `out` that start with `prefix`.
std::vector<std::string> warnings_of(const Json& out, const std::string& prefix) {
  std::vector<std::string> found;
  for (const Json& w : out["warnings"])
    if (w.get<std::string>().rfind(prefix, 0) == 0) found.push_back(w.get<std::string>());
  return found;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("memory_warning: the footprint's parts and the device's capacity, in GB") {
  paleo::Device titan;
  titan.name = "Titan X";
  paleo::MemoryFootprint m;
  m.weights_bytes = 1e9;
  m.gradients_bytes = 1e9;
  m.activations_bytes = 10e9;
  m.workspace_bytes = 0.5e9;
  m.capacity_bytes = 12e9;  // 12.5 GB needed
  const auto w = paleo::memory_warning(titan, m, "one device");
  REQUIRE(w);
  CHECK(contains(*w, "needs 12.5 GB on one device"));
  CHECK(contains(*w, "activations 10.0 GB"));
  CHECK(contains(*w, "more than the 12.0 GB of the 'Titan X'"));
  m.activations_bytes = 9.5e9;  // 12.0 GB: fits exactly
  CHECK_FALSE(paleo::memory_warning(titan, m, "one device"));
  m.capacity_bytes = 0;  // unknown capacity: nothing to say
  m.activations_bytes = 1e15;
  CHECK_FALSE(paleo::memory_warning(titan, m, "one device"));
}

TEST_CASE("a single Titan X at batch 100,000 is told that the step does not fit") {
  // VGG-16's first convolution alone keeps 100,000 x 224 x 224 x 64 x 4 bytes = 1284.5 GB of
  // activations, a hundred times the Titan X's 12.9 GB.
  const Json big = ok({{"command", "estimate"}, {"net", "vgg16"}, {"device", "TITAN_X"}, {"batch_size", 100000}});
  const auto w = warnings_of(big, "memory: ");
  REQUIRE(w.size() == 1);
  CHECK(contains(w[0], "on one device"));
  CHECK(contains(w[0], "more than the 12.9 GB of the 'Titan X'"));
  CHECK(contains(w[0], "does not fit"));
  // At batch 1: 138.4M parameters x 4 bytes x 2 (weights, gradients) = 1.1 GB and a few MB of
  // activations: it fits.
  const Json small = ok({{"command", "estimate"}, {"net", "vgg16"}, {"device", "TITAN_X"}, {"batch_size", 1}});
  CHECK(warnings_of(small, "memory: ").empty());
}

TEST_CASE("batch_split_warnings: strong scaling over a count that does not divide the batch") {
  // 100 over 3: 34 each, 102 in all; over 8: 13 each, 104 in all; 1, 2, 4 divide it.
  const auto w = paleo::batch_split_warnings(100, {1, 2, 3, 4, 8}, {"weak", "strong"});
  REQUIRE(w.size() == 2);
  CHECK(contains(w[0], "batch of 100 over 3 workers"));
  CHECK(contains(w[0], "priced with 34 samples (102 in all)"));
  CHECK(contains(w[1], "priced with 13 samples (104 in all)"));
  CHECK(paleo::batch_split_warnings(100, {3, 8}, {"weak"}).empty());  // weak scaling never splits

  const Json out = ok({{"command", "simulate"}, {"net", "alex_v2"}, {"batch_size", 100}, {"workers", {1, 3}},
                       {"scaling", {"strong"}}});
  REQUIRE(warnings_of(out, "batch: ").size() == 1);
  // The row prices 34 a worker: the same compute as a one-worker run at batch 34.
  const Json at34 = ok({{"command", "estimate"}, {"net", "alex_v2"}, {"batch_size", 34}});
  CHECK(out["scaling"][0]["rows"][1]["time_comp_ms"].get<double>() ==
        Approx(at34["totals"]["step_ms"].get<double>()));
}

TEST_CASE("slow_link_warning: a gradient all-reduce longer than the step's compute") {
  paleo::Cluster c;
  c.nodes = 2;
  c.intra.name = "NVLink";
  c.inter.name = "Ethernet";
  const auto w = paleo::slow_link_warning(c, "ring", 12, 10);
  REQUIRE(w);
  CHECK(contains(*w, "(ring, 12 ms)"));
  CHECK(contains(*w, "compute of a step (10 ms)"));
  CHECK(contains(*w, "'NVLink' and 'Ethernet'"));
  CHECK_FALSE(paleo::slow_link_warning(c, "ring", 8, 10));
  c.nodes = 1;  // one node: only the link inside it
  CHECK(contains(*paleo::slow_link_warning(c, "ring", 12, 10), "links: the gradient all-reduce"));
  CHECK_FALSE(contains(*paleo::slow_link_warning(c, "ring", 12, 10), "Ethernet"));
}

TEST_CASE("a cluster on a slow link is told so, on NVLink it is not") {
  // AlexNet v2's 50.3M parameters are 201 MB of fp32 gradients; between two nodes on 0.01 GB/s a
  // ring moves at least 2 x (2 - 1) / 2 x 201 MB = 201 MB over one link: 20 s, against a compute
  // step of tens of milliseconds.
  const Json slow_cluster = {{"nodes", 2}, {"devices_per_node", 1},
                             {"intra", {{"bandwidth_gb_per_s", 100}, {"latency_us", 1}}},
                             {"inter", {{"bandwidth_gb_per_s", 0.01}, {"latency_us", 1}}}};
  const Json slow = ok({{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"},
                        {"batch_size", 32}, {"cluster", slow_cluster}});
  CHECK(slow["cluster"]["chosen"]["comm_ms"].get<double>() > 20000);
  const auto w = warnings_of(slow, "links: ");
  REQUIRE(w.size() == 1);
  CHECK(contains(w[0], "cannot keep up with the devices"));
  const Json fast = ok({{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"},
                        {"batch_size", 32}, {"cluster", "dgx1_v100_edr"}});
  CHECK(fast["cluster"]["chosen"]["comm_ms"].get<double>() < fast["cluster"]["compute"]["compute_ms"].get<double>());
  CHECK(warnings_of(fast, "links: ").empty());
}

TEST_CASE("a precision the device's matrix units lack is priced as its fallback, and says so") {
  // The V100 has fp16 tensor cores only, the Titan X (Maxwell) none, the A100 no fp8.
  struct Case {
    const char* device;
    const char* precision;
    const char* runs_as;  // nullptr: the device has it
  };
  for (const Case& c : {Case{"V100_SXM2_16GB", "bf16", "fp16"}, Case{"V100_SXM2_16GB", "tf32", "fp32"},
                        Case{"TITAN_X", "fp16", "fp32"}, Case{"A100_80GB_SXM", "fp8", "bf16"},
                        Case{"A100_80GB_SXM", "bf16", nullptr}, Case{"H100_SXM", "fp8", nullptr},
                        Case{"TITAN_X", "fp32", nullptr}}) {
    CAPTURE(c.device, c.precision);
    for (const char* command : {"estimate", "search"}) {
      Json request = {{"command", command}, {"net", "alex_v2"}, {"device", c.device}, {"precision", c.precision}};
      if (std::string(command) == "search") request["devices"] = 2;
      const auto found = warnings_of(ok(request), "precision:");
      if (!c.runs_as) {
        CHECK(found.empty());
        continue;
      }
      REQUIRE(found.size() == 1);
      CHECK(contains(found[0], std::string(" no ") + (std::string(c.precision) == "fp8" ? "fp8_e4m3" : c.precision) +
                                   " matrix units: products run as " + c.runs_as));
    }
  }
  // The fallback's price: bf16 on a V100 is fp16 on its tensor cores, to the digit.
  auto step = [](const char* precision) {
    return ok({{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"}, {"precision", precision}})
        ["totals"]["step_ms"].get<double>();
  };
  CHECK(step("bf16") == step("fp16"));
  CHECK(step("bf16") < step("fp32"));
}
