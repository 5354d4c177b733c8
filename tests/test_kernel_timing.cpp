// The request's "timing": a framework's step adds each kernel's launch and framework overhead to
// its work; kernels timed back to back (a benchmark loop, DeepBench) have no framework glue and
// overlap each launch with the kernel before, so a kernel takes the longer of its work and the
// launch interval, and the step's own overhead is left out.
#include <catch2/catch.hpp>

#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

// A ReLU of `elements` bf16 values on an H100 (3.35 TB/s) streaming at the full bandwidth, with a
// 5 us kernel overhead in a step, a 20 us launch interval and a 1 ms step overhead.
Json relu_request(double elements, const char* timing) {
  const Json relu = {{"type", "ReLU"}};
  Json r = {{"command", "estimate"},
            {"net", one_layer_net(relu, {1, 1, 1, elements})},
            {"device", "H100_SXM"},
            {"precision", "bf16"},
            {"software_era", "pytorch_cudnn9_2025"},
            {"efficiency", {{"memory_fraction", 1}, {"kernel_overhead_ms", 0.005}, {"launch_interval_ms", 0.02},
                            {"step_overhead_ms", 1}}}};
  if (timing) r["timing"] = timing;
  return r;
}

double forward_of_x(const Json& request) {
  const Json out = paleo::handle_request(request);
  INFO(out.dump().substr(0, 400));
  REQUIRE(out["ok"].get<bool>());
  for (const Json& row : out["layers"])
    if (row["name"] == "x") return row["forward"]["total_ms"].get<double>();
  FAIL("no layer x");
  return 0;
}

double update_ms(const Json& request) {
  const Json out = paleo::handle_request(request);
  REQUIRE(out["ok"].get<bool>());
  return out["totals"]["update_ms"].get<double>();
}

}  // namespace

TEST_CASE("Kernels timed back to back hide their launch behind their work", "[era][timing]") {
  // Read and write every element once: 4 bytes an element at 3.35 TB/s.
  const auto work_ms = [](double elements) { return elements * 4 / 3350e9 * 1e3; };
  const double small = 1 << 20;  // 1.25 us of traffic: the launch is longer
  const double large = 1 << 26;  // 80 us: the work is longer
  // A step: work plus 5 us, whatever the size (the default and "step" alike).
  CHECK(forward_of_x(relu_request(small, nullptr)) == Approx(work_ms(small) + 0.005));
  CHECK(forward_of_x(relu_request(small, "step")) == Approx(work_ms(small) + 0.005));
  CHECK(forward_of_x(relu_request(large, "step")) == Approx(work_ms(large) + 0.005));
  // Back to back: the longer of the work and the 20 us launch interval.
  CHECK(forward_of_x(relu_request(small, "kernel")) == Approx(0.02));
  CHECK(forward_of_x(relu_request(large, "kernel")) == Approx(work_ms(large)));
  // The update (one kernel, nothing to update here) carries the step's 1 ms overhead; back to back,
  // the kernel's launch interval alone.
  CHECK(update_ms(relu_request(large, "step")) == Approx(1.005));
  CHECK(update_ms(relu_request(large, "kernel")) == Approx(0.02));
}

TEST_CASE("timing names step or kernel, for CNN requests", "[era][timing][errors]") {
  Json bad = relu_request(1024, "device");
  const Json out = paleo::handle_request(bad);
  CHECK_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["field"] == "timing");
  CHECK(out["error"]["message"].get<std::string>().find("\"step\" or \"kernel\"") != std::string::npos);
}

TEST_CASE("calibrate fits the launch interval to kernels timed back to back", "[era][timing][calibration]") {
  // Two small ReLUs measured at a 23 us floor and a large one at its 80 us of work: the fit of
  // launch_interval_ms from 20 us recovers 23 us (the large one is blind to it).
  Json list = Json::array();
  for (double elements : {1 << 18, 1 << 20}) {
    Json r = relu_request(elements, "kernel");
    list.push_back({{"request", r}, {"compare", {{"layer", "x"}, {"pass", "forward"}}}, {"measured_ms", 0.023}});
  }
  list.push_back({{"request", relu_request(1 << 26, "kernel")},
                  {"compare", {{"layer", "x"}, {"pass", "forward"}}},
                  {"measured_ms", (1 << 26) * 4 / 3350e9 * 1e3}});
  const Json out =
      paleo::handle_request({{"command", "calibrate"}, {"measurements", list}, {"parameters", {"launch_interval_ms"}}});
  INFO(out.dump().substr(0, 600));
  REQUIRE(out["ok"].get<bool>());
  CHECK(out["profile"]["efficiency"]["launch_interval_ms"].get<double>() == Approx(0.023).margin(1e-5));
}
