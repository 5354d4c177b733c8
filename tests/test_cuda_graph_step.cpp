// A CNN training step replayed from a CUDA graph ("cuda_graph_step"): each kernel costs its work
// plus the device's own launch time, 1.34 us (core/efficiency/cuda_graph_launch.h), in place of
// the software era's kernel_overhead_ms; nothing else of the step moves.
#include <catch2/catch.hpp>

#include "core/api.h"
#include "resnet50_step.h"

namespace {

using Json = nlohmann::ordered_json;

// ResNet-50 v1.5 at a small per-GPU batch, as MLPerf's large runs train it, on an A100.
Json request(double kernel_overhead_ms, bool graph) {
  Json r = resnet50_a100_step_request(35, kernel_overhead_ms);
  if (graph) r["cuda_graph_step"] = true;
  return r;
}

}  // namespace

TEST_CASE("a step replayed from a CUDA graph prices each kernel at the device's launch time", "[era][cost]") {
  // The number of kernels the step launches, read off the step's slope in the era's overhead:
  // the step at 1 ms a kernel less the step at none.
  const double kernels = step_ms(request(1.0, false)) - step_ms(request(0.0, false));
  REQUIRE(kernels > 100);  // ResNet-50's convolutions, batch norms, ReLUs, adds, fwd and bwd
  // With the graph, whatever the era's overhead, each of those kernels costs 1.34 us.
  const double eager_ms = step_ms(request(0.03903, false));
  const double graph_ms = step_ms(request(0.03903, true));
  CHECK(graph_ms == Approx(step_ms(request(0.0, false)) + kernels * 0.00134).epsilon(1e-9));
  CHECK(eager_ms - graph_ms == Approx(kernels * (0.03903 - 0.00134)).epsilon(1e-9));
  CHECK(step_ms(request(5.0, true)) == Approx(graph_ms).epsilon(1e-12));
}

TEST_CASE("a CUDA-graph step changes nothing where no per-kernel overhead is priced", "[era][cost]") {
  // Kernels timed back to back pay no framework overhead to begin with.
  Json kernel = request(0.03903, false);
  kernel["timing"] = "kernel";
  Json kernel_graph = kernel;
  kernel_graph["cuda_graph_step"] = true;
  CHECK(step_ms(kernel_graph) == Approx(step_ms(kernel)).epsilon(1e-12));
  // The original model (paleo2017, a PPP) prices no kernel overhead.
  const Json original = {{"command", "estimate"},
                         {"net", "resnet50_v1_5"},
                         {"device", "TITAN_X"},
                         {"batch_size", 32},
                         {"profile", "paleo2017"}};
  Json original_graph = original;
  original_graph["cuda_graph_step"] = true;
  CHECK(step_ms(original_graph) == Approx(step_ms(original)).epsilon(1e-12));
}
