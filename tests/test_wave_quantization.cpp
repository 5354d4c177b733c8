// Wave quantization: a matrix product runs its tiles on the device's SMs, so one of fewer tiles than
// SMs leaves the rest idle unless its inner dimension is split (split-K), whose partial sums cost a
// reduction; and a GEMM with a dimension of odd length runs in one-element-aligned kernels, slower
// for narrower tiles. Every expected value is worked out by hand below.
#include <catch2/catch.hpp>

#include "core/efficiency/kernel_efficiency.h"
#include "core/spec/presets.h"
#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

paleo::KernelEfficiency plain_efficiency() {
  paleo::KernelEfficiency e;
  e.tile = 128;
  e.short_k = 0;  // no short-k factor: the shape factor is padding times fill alone
  return e;
}

// One fully connected layer, X[rows, k] W[k, outputs], fp32 on a device of 1 TFLOP/s and 1 TB/s
// with `sm_count` SMs, every ceiling 1, back to back with no launch floor: the forward pass is its
// product alone.
Json gemm_request(double rows, double outputs, double k, double sm_count) {
  Json device = {{"name", "toy"}, {"clock_mhz", 1000}, {"peak_gflops", 1000}, {"mem_bandwidth_gb_per_s", 1000}};
  if (sm_count > 0) device["sm_count"] = sm_count;
  return {{"command", "estimate"},
          {"net", one_layer_net({{"type", "InnerProduct"}, {"num_outputs", outputs}}, {rows, k})},
          {"device", device},
          {"software_era", "pytorch_cudnn9_2025"},
          {"timing", "kernel"},
          {"efficiency",
           {{"matmul_ceiling", 1}, {"tile", 128}, {"short_k", 0}, {"memory_fraction", 1}, {"launch_interval_ms", 0}}}};
}

std::string error_field(const Json& request) {
  const Json out = paleo::handle_request(request);
  REQUIRE_FALSE(out["ok"].get<bool>());
  return out["error"]["field"].get<std::string>();
}

}  // namespace

TEST_CASE("A product of fewer tiles than SMs splits its inner dimension", "[efficiency][wave]") {
  const paleo::KernelEfficiency e = plain_efficiency();
  // m = 128 is one tile, n = 1760 is 14 tiles of 128 (padded to 1792): 14 tiles on 132 SMs.
  const double padding = 1760.0 / 1792.0;
  // With a free reduction the split that fills the most SMs wins: 8 parts of k = 220 (16 parts
  // would be 110 long, under the 128 minimum), 112 of the 132 SMs busy.
  paleo::MatmulTiling t = paleo::matmul_tiling(e, 128, 1760, 1760, 132, 1, 1.0, 0.0);
  CHECK(t.split_k == 8);
  CHECK(t.efficiency == Approx(padding * 112.0 / 132.0));
  CHECK(paleo::split_k_bytes(t, 128, 1760) == Approx(2 * 8 * 128 * 1760 * 4.0));
  // When reducing the partial sums costs more than the idle SMs, no split: 14 of 132 busy.
  t = paleo::matmul_tiling(e, 128, 1760, 1760, 132, 1, 1.0, 1e-3);
  CHECK(t.split_k == 1);
  CHECK(t.efficiency == Approx(padding * 14.0 / 132.0));
  CHECK(paleo::split_k_bytes(t, 128, 1760) == 0);
  // A full wave or more: no wave factor (the libraries even the last wave out).
  t = paleo::matmul_tiling(e, 8192, 8192, 8192, 132, 1, 1.0, 0.0);
  CHECK(t.split_k == 1);
  CHECK(t.efficiency == Approx(1.0));
  // An unknown SM count, or the effect turned off: padding alone.
  CHECK(paleo::matmul_tiling(e, 128, 1760, 1760, 0, 1, 1.0, 0.0).efficiency == Approx(padding));
  paleo::KernelEfficiency off = e;
  off.wave_quantization = 0;
  CHECK(paleo::matmul_tiling(off, 128, 1760, 1760, 132, 1, 1.0, 0.0).efficiency == Approx(padding));
  // Batched products count every product's tiles: 16 products of one tile fill 16 SMs.
  t = paleo::matmul_tiling(e, 128, 128, 100, 132, 16, 1.0, 0.0);
  CHECK(t.efficiency == Approx(16.0 / 132.0));  // k = 100 is too short to split
}

TEST_CASE("A device's SM count prices a small product through the API", "[efficiency][wave][api]") {
  // 128 x 128 x 128 in fp32: 2 * 128^3 FLOPs at 1 TFLOP/s is 4.194 us on a device of any size it
  // fills; one tile of 128 on 10 SMs keeps one busy (k = 128 cannot be split in parts of 128 or
  // more), so 10 times that.
  const double full_ms = 2.0 * 128 * 128 * 128 / 1e12 * 1e3;
  CHECK(x_row(gemm_request(128, 128, 128, 0))["forward"]["total_ms"].get<double>() == Approx(full_ms));
  CHECK(x_row(gemm_request(128, 128, 128, 10))["forward"]["total_ms"].get<double>() == Approx(10 * full_ms));
  // 128 x 128 x 1024 on 10 SMs: split in 8 parts of 128 fills 8 of them at most; the partial sums,
  // 2 * 8 * 128 * 128 * 4 bytes, add 1.049 us at 1 TB/s. The alternatives: 4 parts, 4 SMs, 0.524
  // us of reduction; 2 parts; none. 8 parts is the fastest.
  const double flops_ms = 2.0 * 128 * 128 * 1024 / 1e12 * 1e3;
  const double split8 = flops_ms * 10 / 8 + 2 * 8 * 128 * 128 * 4 / 1e12 * 1e3;
  CHECK(x_row(gemm_request(128, 128, 1024, 10))["forward"]["total_ms"].get<double>() == Approx(split8));
  // The response's device states it.
  const Json out = paleo::handle_request(gemm_request(128, 128, 128, 10));
  CHECK(out["device"]["sm_count"].get<double>() == 10);
  const Json preset = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", "H100_SXM"}});
  CHECK(preset["device"]["sm_count"].get<double>() == 132);
  const Json transformer = paleo::handle_request(
      {{"command", "estimate"}, {"net", "gpt3_125m"}, {"device", "A100_80GB_SXM"}, {"micro_batch", 4}});
  REQUIRE(transformer["ok"].get<bool>());
  CHECK(transformer["device"]["sm_count"].get<double>() == 108);
}

TEST_CASE("An SM count that is negative, fractional or not a number is refused", "[efficiency][wave][bad_input]") {
  for (const Json& bad : {Json(-1), Json(1.5), Json("many"), Json(2e6)}) {
    Json r = gemm_request(128, 128, 128, 10);
    r["device"]["sm_count"] = bad;
    INFO(bad.dump());
    CHECK(error_field(r) == "device");
  }
}

TEST_CASE("A GEMM with an odd dimension runs at the odd rate, slower for narrower tiles", "[efficiency][alignment]") {
  const paleo::Device h100 = paleo::Presets::instance().device("H100_SXM");
  const double dense = h100.peak_tensor_gflops.at("bf16");
  paleo::KernelEfficiency e = plain_efficiency();
  e.misaligned_tensor_core = 0.32;
  e.odd_tensor_core = 0.13;
  // n = 35 (odd) takes tiles of 64 (the halving of 128 that still covers it), m = 8457 tiles of
  // 128: 0.13 * (2 / 128) / (1 / 128 + 1 / 64) = 0.13 * 2 / 3 of the dense peak.
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 8457, 35, 2560) == Approx(dense * 0.13 * 2 / 3));
  // Both dimensions in full tiles: 0.13 itself; an odd k counts as well.
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 4096, 4097, 4096) == Approx(dense * 0.13));
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 4096, 4096, 4097) == Approx(dense * 0.13));
  // Even but not 8-aligned (34): the misaligned rate, whatever the tiles.
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 8457, 34, 2560) == Approx(dense * 0.32));
  // Aligned: the dense peak. Without an odd rate, odd dimensions take the misaligned one.
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 8457, 40, 2560) == Approx(dense));
  e.odd_tensor_core = 0;
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 8457, 35, 2560) == Approx(dense * 0.32));
  // Never below the CUDA cores' rate: a tiny odd rate falls back to it, their peak times their own
  // tile shape's rate (n = 35 in a 64-wide tile of the 128 x 128 SGEMM: 2 / 3).
  e.odd_tensor_core = 0.001;
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 8457, 35, 2560) ==
        Approx(h100.peak_gflops * 2 / 3));
}

TEST_CASE("A product on CUDA cores runs at the rate of its tile shape", "[efficiency][alignment]") {
  const paleo::Device p100 = paleo::Presets::instance().device("P100_SXM2");
  paleo::KernelEfficiency e = plain_efficiency();
  CHECK(e.simt_tile == 128);
  const auto peak = [&](double m, double n) {
    return paleo::era_matmul_peak_gflops(p100, e, paleo::Dtype::kFp32, m, n, 2560) / p100.peak_gflops;
  };
  // Loads per FLOP grow as 1/tm + 1/tn: (2 / 128) / (1 / tm + 1 / tn) of the peak.
  CHECK(peak(2560, 4096) == Approx(1));
  CHECK(peak(2560, 128) == Approx(1));
  CHECK(peak(2560, 64) == Approx(2.0 / 3));         // DeepBench's skinny GEMMs: a 128 x 64 tile
  CHECK(peak(64, 2560) == Approx(2.0 / 3));         // either dimension
  CHECK(peak(48, 48) == Approx(0.5));               // 64 x 64
  CHECK(peak(2560, 8) == Approx(2.0 / 128 / (1.0 / 128 + 1.0 / 32)));  // never narrower than 32
  e.simt_tile = 0;
  CHECK(peak(2560, 64) == Approx(1));
  // A full tile narrower than 32 is its own narrowest: the rate never exceeds the peak.
  for (double tile : {1.0, 4.0, 16.0, 24.0}) {
    e.simt_tile = tile;
    INFO("simt_tile " << tile);
    CHECK(peak(2560, 8) <= 1.0);
    CHECK(peak(2560, 2560) == Approx(1));
  }
  // Tensor cores keep their own rate: an aligned bf16 product on an H100 is not shaped by it.
  e.simt_tile = 128;
  const paleo::Device h100 = paleo::Presets::instance().device("H100_SXM");
  CHECK(paleo::era_matmul_peak_gflops(h100, e, paleo::Dtype::kBf16, 2560, 64, 2560) ==
        Approx(h100.peak_tensor_gflops.at("bf16")));
}
