// The CNN path under paleo2026: a request's precision (formats and tensor-core peaks) and the
// software era pricing each kernel when no PPP is given; paleo2017 keeps fp32 at one PPP.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/api.h"
#include "core/efficiency/software_era.h"
#include "core/spec/presets.h"
#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

Json layer_x(const Json& net, const std::string& device, Json extra) {
  Json r = {{"command", "layers"}, {"net", net}, {"device", device}};
  r.update(extra);
  Json out = paleo::handle_request(r);
  INFO(out.dump());
  REQUIRE(out["ok"].get<bool>());
  return out["layers"][2];
}

const Json kConv = {{"type", "Convolution"}, {"filter", {3, 3, 64, 64}}, {"strides", {1, 1, 1, 1}},
                    {"padding", "SAME"}, {"activation_fn", nullptr}};

}  // namespace

TEST_CASE("A CNN's precision sets its formats and its matrix peak", "[cnn][precision]") {
  const Json net = one_layer_net(kConv, {32, 28, 28, 64});
  const Json ppp = {{"ppp_comp", 1.0}};
  const Json fp32 = layer_x(net, "V100_SXM2_16GB", ppp);
  Json half_request = ppp;
  half_request["precision"] = "fp16";
  const Json fp16 = layer_x(net, "V100_SXM2_16GB", half_request);
  // 64 channels are aligned: the tensor cores' 125 TFLOP/s instead of the 15.7 of fp32.
  CHECK(fp16["forward"]["comp_ms"].get<double>() == Approx(fp32["forward"]["comp_ms"].get<double>() * 15700 / 125000));
  CHECK(fp16["forward"]["bytes"].get<double>() == Approx(fp32["forward"]["bytes"].get<double>() / 2));
  // No precision is fp32: the same numbers as naming it.
  Json named = ppp;
  named["precision"] = "fp32";
  CHECK(layer_x(net, "V100_SXM2_16GB", named)["forward"]["total_ms"] == fp32["forward"]["total_ms"]);
  // tf32 on a device without tf32 units falls back to fp32.
  Json tf32 = ppp;
  tf32["precision"] = "tf32";
  CHECK(layer_x(net, "V100_SXM2_16GB", tf32)["forward"]["total_ms"] == fp32["forward"]["total_ms"]);
}

TEST_CASE("Mixed precision halves the gradient all-reduce and shrinks the footprint", "[cnn][precision]") {
  Json r = {{"command", "estimate"}, {"net", "resnet50_v1_5"}, {"device", "V100_SXM2_16GB"}, {"batch_size", 64},
            {"cluster", "dgx1_v100_edr"}, {"nodes", 1}, {"devices_per_node", 8}, {"overlap", false}};
  const Json fp32 = paleo::handle_request(r);
  r["precision"] = "fp16";
  const Json amp = paleo::handle_request(r);
  REQUIRE(fp32["ok"].get<bool>());
  REQUIRE(amp["ok"].get<bool>());
  CHECK(amp["cluster"]["memory"][0]["activations_bytes"].get<double>() ==
        Approx(fp32["cluster"]["memory"][0]["activations_bytes"].get<double>() / 2));
  CHECK(amp["cluster"]["chosen"]["comm_ms"].get<double>() < 0.6 * fp32["cluster"]["chosen"]["comm_ms"].get<double>());
  CHECK(amp["precision"]["grad_reduce"] == "fp16");
}

TEST_CASE("paleo2017 rejects a precision and a software era", "[cnn][precision][era]") {
  for (const char* field : {"precision", "software_era"}) {
    Json r = {{"command", "estimate"}, {"net", "alex_v2"}, {"profile", "paleo2017"}};
    r[field] = std::string(field) == "precision" ? "fp16" : "cudnn_r4_2016";
    const Json out = paleo::handle_request(r);
    CHECK_FALSE(out["ok"].get<bool>());
    CHECK(out["error"]["field"] == field);
  }
}

TEST_CASE("A CNN request picks the CNN era of its device, a transformer its own", "[cnn][era]") {
  const paleo::Presets& p = paleo::Presets::instance();
  CHECK(paleo::default_software_era(p.device("TITAN_X"), "cnn").key == "cudnn_r4_2016");
  CHECK(paleo::default_software_era(p.device("P100_SXM2"), "cnn").key == "cudnn_r4_2016");
  // Kepler runs apart from Maxwell and Pascal (docs/validation.md): its own era, fitted to the K40c.
  CHECK(paleo::default_software_era(p.device("K40"), "cnn").key == "torch_cudnn5_kepler_2016");
  CHECK(paleo::default_software_era(p.device("K80"), "cnn").key == "torch_cudnn5_kepler_2016");
  CHECK(paleo::default_software_era(p.device("GTX_1080"), "cnn").key == "cudnn_r4_2016");
  CHECK(paleo::default_software_era(p.device("V100_SXM2_16GB"), "cnn").key == "pytorch_cudnn8_2021");
  CHECK(paleo::default_software_era(p.device("A100_80GB_SXM"), "cnn").key == "pytorch_cudnn8_2021");
  // Hopper has the era fitted to Paleo's own H100 and H200 measurements (docs/measurements.md).
  CHECK(paleo::default_software_era(p.device("H100_SXM"), "cnn").key == "pytorch_cudnn9_2025");
  CHECK(paleo::default_software_era(p.device("H200_SXM"), "cnn").key == "pytorch_cudnn9_2025");
  CHECK(paleo::default_software_era(p.device("V100_SXM2_16GB")).key == "megatron_lm_2019");
  CHECK(paleo::default_software_era(p.device("CPU_I7"), "cnn").key == "untuned");
  const Json out = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"}});
  REQUIRE(out["ok"].get<bool>());
  CHECK(out["software_era"]["key"] == "pytorch_cudnn8_2021");
  // A PPP selects the PPP formula: no era.
  const Json with_ppp = paleo::handle_request(
      {{"command", "estimate"}, {"net", "alex_v2"}, {"device", "V100_SXM2_16GB"}, {"ppp_comp", 0.5}});
  REQUIRE(with_ppp["ok"].get<bool>());
  CHECK_FALSE(with_ppp.contains("software_era"));
  // An era and a PPP together, and another workload's era, are errors.
  CHECK(paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"software", "tensorflow"},
                               {"software_era", "tensorflow_2016"}})["error"]["field"] == "software_era");
  CHECK(paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"software_era", "megatron_lm_2021"}})
            ["error"]["field"] == "software_era");
}

TEST_CASE("An era prices each kernel: roofline of the pass plus its overhead", "[cnn][era]") {
  // 8 x 1000 by 1000 x 1000 on a TITAN X (6144 GFLOP/s, 336.5 GB/s).
  const Json net = one_layer_net({{"type", "InnerProduct"}, {"num_outputs", 1000}}, {8, 1000});
  const Json efficiency = {{"matmul_ceiling", 0.5}, {"tile", 128}, {"short_k", 0}, {"memory_fraction", 0.5},
                           {"kernel_overhead_ms", 0.01}};
  const Json x = layer_x(net, "TITAN_X", {{"efficiency", efficiency}});
  // m = 8 is shorter than the 128 tile: a narrow kernel of 8 rows covers it; n = 1000 pads to 1024.
  const double shape = 1000.0 / 1024;
  const double comp_ms = 2.0 * 8 * 1000 * 1000 / (6144e9 * 0.5 * shape) * 1e3;
  const double comm_ms = 4.0 * (8 * 1000 + 1000 * 1000 + 8 * 1000) / (336.5e9 * 0.5) * 1e3;
  CHECK(x["forward"]["total_ms"].get<double>() == Approx(std::max(comp_ms, comm_ms) + 0.01));
  // A layer without work launches nothing; an element-wise layer is one kernel per pass.
  const Json relu = layer_x(one_layer_net({{"type", "ReLU"}}, {8, 1000}), "TITAN_X", {{"efficiency", efficiency}});
  CHECK(relu["forward"]["total_ms"].get<double>() == Approx(2 * 4.0 * 8000 / (336.5e9 * 0.5) * 1e3 + 0.01));
  CHECK(relu["backward_filter"]["total_ms"].get<double>() == 0);
}
