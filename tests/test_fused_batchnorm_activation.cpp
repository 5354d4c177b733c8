// A batch norm that also performs the ReLU after it, or the residual add and the ReLU
// ("fused_batchnorm_activation": MXNet's --fuse-bn-relu / --fuse-bn-add-relu, the NHWC kernels of
// NVIDIA apex's groupbn): one kernel each way for the chain, nothing for the ReLU and the add.
#include <catch2/catch.hpp>

#include <string>

#include "core/api.h"
#include "api_answer.h"
#include "resnet50_step.h"

namespace {

using Json = nlohmann::ordered_json;

Json conv(const std::string& parent) {
  return {{"parents", {parent}},
          {"type", "Convolution"},
          {"filter", {1, 1, 32, 32}},
          {"strides", {1, 1, 1, 1}},
          {"padding", "SAME"},
          {"activation_fn", nullptr},
          {"bias", false}};
}

// A residual block at 8 x 16 x 16 x 32 (65,536 elements a tensor): conv, BN, ReLU, conv, BN,
// add of the block's input, ReLU.
Json block_spec() {
  Json spec = {{"name", "block"}, {"layers", Json::object()}};
  Json& l = spec["layers"];
  l["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 16, 16, 32}}};
  l["conv1"] = conv("data");
  l["bn1"] = {{"parents", {"conv1"}}, {"type", "BatchNorm"}};
  l["relu1"] = {{"parents", {"bn1"}}, {"type", "ReLU"}};
  l["conv2"] = conv("relu1");
  l["bn2"] = {{"parents", {"conv2"}}, {"type", "BatchNorm"}};
  l["add"] = {{"parents", {"bn2", "relu1"}}, {"type", "Elementwise"}};
  l["relu2"] = {{"parents", {"add"}}, {"type", "ReLU"}};
  return spec;
}

// fp32 at a PPP of 1 (paleo2026): a pass takes its FLOPs at the vector peak plus its bytes at the
// memory bandwidth (1e9 bytes a GB), no overhead.
Json block_layers(bool fused) {
  Json r = {{"command", "layers"}, {"net", block_spec()}, {"device", "TITAN_X"}, {"ppp_comp", 1.0}, {"ppp_comm", 1.0}};
  if (fused) r["fused_batchnorm_activation"] = true;
  return ok_answer(r);
}

const Json& layer(const Json& out, const std::string& name) { return layer_row(out, name); }

double pass_ms(const Json& device, double flops, double bytes) {
  return flops / 1e9 / device["peak_gflops"].get<double>() * 1e3 +
         bytes / 1e9 / device["mem_bandwidth_gb_per_s"].get<double>() * 1e3;
}

Json resnet_request(double kernel_overhead_ms, bool fused) {
  Json r = resnet50_a100_step_request(64, kernel_overhead_ms);
  if (fused) r["fused_batchnorm_activation"] = true;
  return r;
}

}  // namespace

TEST_CASE("a fused batch norm is one pass each way over the tensors its kernel reads and writes", "[cost][fusion]") {
  const double elements = 8 * 16 * 16 * 32;  // 65,536
  const double tensor = elements * 4;        // fp32
  const Json plain = block_layers(false);
  const Json fused = block_layers(true);
  const Json& device = fused["device"];

  SECTION("without the field: batch norm, ReLU and add are passes of their own") {
    // BN: forward reads x twice and writes y (6 FLOPs an element); the data gradient reads 3 and
    // writes 1 (10 FLOPs); scale and shift: read + write (2 FLOPs). ReLU: 1 read + 1 write, then 2 + 1.
    CHECK(layer(plain, "bn1")["forward"]["bytes"].get<double>() == 3 * tensor);
    CHECK(layer(plain, "bn1")["backward_data"]["bytes"].get<double>() == 4 * tensor);
    CHECK(layer(plain, "bn1")["backward_filter"]["bytes"].get<double>() == 2 * tensor);
    CHECK(layer(plain, "relu1")["forward"]["bytes"].get<double>() == 2 * tensor);
    CHECK(layer(plain, "relu1")["backward_data"]["bytes"].get<double>() == 3 * tensor);
    CHECK(layer(plain, "add")["forward"]["bytes"].get<double>() == 3 * tensor);
    CHECK(layer(plain, "add")["backward_data"]["bytes"].get<double>() == 3 * tensor);
  }
  SECTION("BN + ReLU: x read twice and y written forward; x and dy read twice and dx written backward") {
    const Json& bn = layer(fused, "bn1");
    CHECK(bn["forward"]["bytes"].get<double>() == 3 * tensor);
    CHECK(bn["forward"]["flops"].get<double>() == 7 * elements);  // normalise 6, ReLU 1
    CHECK(bn["backward_data"]["bytes"].get<double>() == 5 * tensor);
    CHECK(bn["backward_data"]["flops"].get<double>() == 13 * elements);  // dx 10, scale and shift 2, ReLU 1
    CHECK(bn["backward_filter"]["bytes"].get<double>() == 0);
    CHECK(bn["forward"]["total_ms"].get<double>() == Approx(pass_ms(device, 7 * elements, 3 * tensor)).epsilon(1e-12));
    CHECK(bn["backward"]["total_ms"].get<double>() ==
          Approx(pass_ms(device, 13 * elements, 5 * tensor)).epsilon(1e-12));
  }
  SECTION("BN + add + ReLU: the addend read and a one-bit mask written forward; dz written backward") {
    const Json& bn = layer(fused, "bn2");
    const double mask = elements / 8;
    CHECK(bn["forward"]["bytes"].get<double>() == 4 * tensor + mask);  // x twice, z; y and the mask
    CHECK(bn["forward"]["flops"].get<double>() == 8 * elements);
    CHECK(bn["backward_data"]["bytes"].get<double>() == 6 * tensor + mask);  // x, dy, x, dz, mask; dz, dx
    CHECK(bn["forward"]["total_ms"].get<double>() ==
          Approx(pass_ms(device, 8 * elements, 4 * tensor + mask)).epsilon(1e-12));
    CHECK(bn["backward"]["total_ms"].get<double>() ==
          Approx(pass_ms(device, 13 * elements, 6 * tensor + mask)).epsilon(1e-12));
  }
  SECTION("the ReLUs and the add cost nothing, the convolutions are untouched") {
    for (const char* name : {"relu1", "add", "relu2"}) {
      INFO(name);
      for (const char* pass : {"forward", "backward_data", "backward_filter"}) {
        CHECK(layer(fused, name)[pass]["total_ms"].get<double>() == 0);
        CHECK(layer(fused, name)[pass]["bytes"].get<double>() == 0);
      }
    }
    for (const char* name : {"conv1", "conv2"})
      CHECK(layer(fused, name)["forward"]["total_ms"] == layer(plain, name)["forward"]["total_ms"]);
  }
  SECTION("the chains move 18 tensors where they moved 34 (and two one-bit masks)") {
    // Unfused: bn1 9, relu1 5, bn2 9, add 6, relu2 5 = 34 tensor passes, plus the two convolutions'.
    double plain_bytes = 0, fused_bytes = 0;
    for (const char* name : {"bn1", "relu1", "bn2", "add", "relu2"})
      for (const char* pass : {"forward", "backward_data", "backward_filter"}) {
        plain_bytes += layer(plain, name)[pass]["bytes"].get<double>();
        fused_bytes += layer(fused, name)[pass]["bytes"].get<double>();
      }
    CHECK(plain_bytes == 34 * tensor);
    CHECK(fused_bytes == 18 * tensor + 2 * (elements / 8));  // bn1 3 + 5, bn2 4 + 6
  }
}

TEST_CASE("fusing ResNet-50's batch norms removes 179 kernel launches a step", "[cost][fusion][era]") {
  // Kernels launched, read off the step's slope in the era's per-kernel overhead.
  auto kernels = [](bool fused) { return step_ms(resnet_request(1.0, fused)) - step_ms(resnet_request(0.0, fused)); };
  // 33 BN + ReLU pairs (the stem's and two in each of the 16 bottlenecks): BN 3 kernels (forward,
  // data and parameter gradients) + ReLU 2 become 2; 16 BN + add + ReLU chains: 3 + 2 + 2 become 2.
  CHECK(kernels(false) - kernels(true) == Approx(33 * 3 + 16 * 5).epsilon(1e-9));
  CHECK(step_ms(resnet_request(0.03903, true)) < step_ms(resnet_request(0.03903, false)));
}

TEST_CASE("without the field, or where memory-bound layers are free, nothing moves", "[cost][fusion]") {
  Json absent = resnet_request(0.03903, false);
  Json off = absent;
  off["fused_batchnorm_activation"] = false;
  CHECK(paleo::handle_request(off).dump() == paleo::handle_request(absent).dump());
  // paleo2017 prices batch norm, ReLU and adds at nothing: there is nothing to fuse.
  const Json original = {{"command", "estimate"},
                         {"net", "resnet50_v1_5"},
                         {"device", "TITAN_X"},
                         {"batch_size", 32},
                         {"profile", "paleo2017"}};
  Json original_fused = original;
  original_fused["fused_batchnorm_activation"] = true;
  CHECK(step_ms(original_fused) == step_ms(original));
}

TEST_CASE("fused_batchnorm_activation must be a boolean", "[cost][fusion][bad_input]") {
  Json r = resnet_request(0.03903, false);
  r["fused_batchnorm_activation"] = "yes";
  const Json out = paleo::handle_request(r);
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["field"] == "fused_batchnorm_activation");
}
