// The PALEO formulas one by one (paleo2017 profile), against numbers derived by hand in each test
// from the model description (the original's formulas), on tiny nets written inline. Most tests
// use a "unit" device (1000 GFLOP/s, 1 "GB/s" = 2^30 B/s, 1000 MHz) so that
//   comp(F) = F * 1e-9 ms,   mem(B) = B / 2^30 * 1e3 ms,   one cycle = 1e-6 ms.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/api.h"
#include "golden_compare.h"
#include "api_answer.h"

namespace {

using paleo_test::Json;
using paleo_test::json_at;

constexpr double kGiB = 1073741824.0;  // the original divides "GB/s" bandwidths by 2^30

// --- the primitive times of the model, written out -------------------------------------------
// comp(F) = 0 if F == 0 else max(one cycle, F / 1e9 / peak * 1e3 / ppp_comp)
double comp_ms(double flops, double peak_gflops, double ppp_comp, double clock_mhz) {
  if (flops == 0) return 0;
  return std::max(1 / clock_mhz / 1e3, flops / 1e9 / peak_gflops * 1e3 / ppp_comp);
}
// mem(B) = max(one cycle, B / 2^30 / bandwidth * 1e3 / ppp_comp)   (no zero test)
double mem_ms(double bytes, double bandwidth, double ppp_comp, double clock_mhz) {
  return std::max(1 / clock_mhz / 1e3, bytes / kGiB / bandwidth * 1e3 / ppp_comp);
}

// The unit device.
double ucomp(double flops, double ppp = 1.0) { return comp_ms(flops, 1000, ppp, 1000); }
double umem(double bytes, double ppp = 1.0) { return mem_ms(bytes, 1, ppp, 1000); }

Json unit_device(double clock_mhz = 1000) {
  return {{"name", "unit"}, {"clock_mhz", clock_mhz}, {"peak_gflops", 1000}, {"mem_bandwidth_gb_per_s", 1}};
}

// A device with fast memory (1000 "GB/s"), for the one-cycle floors: 16 bytes take 1.5e-8 ms.
Json fast_device(double clock_mhz = 1000) {
  return {{"name", "fast"}, {"clock_mhz", clock_mhz}, {"peak_gflops", 1000}, {"mem_bandwidth_gb_per_s", 1000}};
}

// --- tiny nets -----------------------------------------------------------------------------------
struct Net {
  Json spec;
  explicit Net(std::vector<long long> tensor) {
    spec = {{"name", "tiny"}, {"layers", Json::object()}};
    spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", tensor}};
  }
  Net& add(const std::string& name, Json layer) {
    spec["layers"][name] = std::move(layer);
    return *this;
  }
  Net& pool(const std::string& name, const std::string& type, const std::string& parent, long long k, long long stride,
            const std::string& padding) {
    return add(name, {{"parents", {parent}}, {"type", type}, {"ksize", {1, k, k, 1}}, {"strides", {1, stride, stride, 1}},
                      {"padding", padding}});
  }
  Net& conv(const std::string& name, const std::string& parent, std::vector<long long> filter,
            std::vector<long long> strides, const std::string& padding) {
    return add(name, {{"parents", {parent}}, {"type", "Convolution"}, {"filter", filter}, {"strides", strides},
                      {"padding", padding}});
  }
};

Json layers_request(const Json& spec, Json device = unit_device()) {
  return {{"command", "layers"}, {"profile", "paleo2017"}, {"net", spec}, {"device", std::move(device)},
          {"conv_algorithm", "gemm"}};
}

constexpr auto& run = ok_answer;  // tests/api_answer.h

// A copy of the named layer of a response (a copy: responses are often temporaries).
Json layer(const Json& response, const std::string& name) {
  for (const Json& l : response["layers"])
    if (l.value("name", "") == name) return l;
  FAIL_CHECK("no layer '" << name << "' in the response");
  return Json::object();
}

Approx near(double expected) { return Approx(expected).epsilon(1e-9).margin(1e-15); }

// The number at a dotted path; NaN (which fails every comparison) when it is missing.
double at(const Json& obj, const std::string& path) { return json_at(obj, path); }

// Checks one pass of a layer: FLOPs, bytes, comp and comm.
void check_pass(const Json& l, const std::string& pass, double flops, double bytes, double comp, double comm) {
  INFO("layer " << l.value("name", "") << ", " << pass);
  CHECK(at(l, pass + ".flops") == near(flops));
  CHECK(at(l, pass + ".bytes") == near(bytes));
  CHECK(at(l, pass + ".comp_ms") == near(comp));
  CHECK(at(l, pass + ".mem_ms") == near(comm));
  CHECK(at(l, pass + ".total_ms") == near(comp + comm));
}

void check_zero_pass(const Json& l, const std::string& pass) {
  INFO("layer " << l.value("name", "") << ", " << pass << " costs nothing");
  CHECK(at(l, pass + ".comp_ms") == 0);
  CHECK(at(l, pass + ".mem_ms") == 0);
  CHECK(at(l, pass + ".total_ms") == 0);
}

bool same_shape(const Json& got, const std::vector<long long>& expected) {
  return got == Json(expected);
}

}  // namespace

TEST_CASE("GEMM convolution: AlexNet conv1 on TITAN X, the worked example of the model", "[formulas][conv]") {
  Net net({128, 224, 224, 3});
  net.conv("conv1", "data", {11, 11, 3, 64}, {1, 4, 4, 1}, "VALID");
  const Json r = run(layers_request(net.spec, "TITAN_X"));
  const Json l = layer(r, "conv1");

  // VALID: OH = ceil((224 - 11 + 1) / 4) = ceil(53.5) = 54
  CHECK(same_shape(l["output"], {128, 54, 54, 64}));
  CHECK(at(l, "params") == 11 * 11 * 3 * 64 + 64);  // filters + biases = 23296
  CHECK(at(l, "weights_bytes") == 4 * 23296);

  const double flops = 2.0 * 11 * 11 * 3 * 54 * 54 * 64 * 128;
  REQUIRE(flops == 17342595072.0);
  const double in_bytes = 4.0 * 128 * 224 * 224 * 3;  // padded input (no padding)   77,070,336
  const double filter_bytes = 4.0 * 11 * 11 * 3 * 64;  //                                 92,928
  const double out_bytes = 4.0 * 128 * 54 * 54 * 64;   //                             95,551,488
  REQUIRE(in_bytes + filter_bytes + out_bytes == 172714752.0);
  // TITAN X: 6144 GFLOP/s, 336.5 "GB/s", 1000 MHz
  const double comp = flops / 1e9 / 6144 * 1e3;  // 2.822688 ms
  const double comm = in_bytes / kGiB / 336.5 * 1e3 + filter_bytes / kGiB / 336.5 * 1e3 + out_bytes / kGiB / 336.5 * 1e3;
  CHECK(comp == near(2.822688));
  CHECK(comm == Approx(0.478018).margin(5e-7));
  check_pass(l, "forward", flops, 172714752.0, comp, comm);

  // Its parent is "data": no data gradient.
  check_zero_pass(l, "backward_data");
  // Filter gradient: input [Cin,H,W,N] = [3,224,224,128], filter [EH,EW,N,Cout] with
  // EH = (54-1)*4 + 1 = 213, pad_before = 11-1-0 = 10, pad_after = (224+11-1) - 213 - 10 = 11,
  // they differ by one so EH = 214; holes = (214^2 - 54^2) / 214^2 on the filter; VALID.
  // Output [3, 224-214+1 = 11, 11, 64]; FLOPs = 2*214*214*128*3*11*11*64*(1-holes) = forward FLOPs.
  const double eh = 214;
  const double holes = (eh * eh - 54.0 * 54) / (eh * eh);
  const double filter_flops = 2.0 * eh * eh * 128 * 3 * 11 * 11 * 64 * (1 - holes);
  const double filter_grad_bytes = 4.0 * 3 * 224 * 224 * 128 + 4.0 * eh * eh * 128 * 64 * (1 - holes) + 4.0 * 3 * 11 * 11 * 64;
  CHECK(filter_flops == near(flops));
  CHECK(filter_grad_bytes == near(172714752.0));
  check_pass(l, "backward_filter", filter_flops, filter_grad_bytes, comp, comm);
  CHECK(at(l, "backward.comp_ms") == near(comp));
  CHECK(at(l, "backward.mem_ms") == near(comm));
  CHECK(at(l, "backward.total_ms") == near(comp + comm));

  SECTION("ppp_comp divides compute and local memory; ppp_comm does not touch them") {
    Json request = layers_request(net.spec, "TITAN_X");
    request["ppp_comp"] = 0.5;
    request["ppp_comm"] = 0.25;
    const Json l2 = layer(run(request), "conv1");
    CHECK(at(l2, "forward.comp_ms") == near(comp / 0.5));
    CHECK(at(l2, "forward.mem_ms") == near(comm / 0.5));
  }
}

TEST_CASE("each compute and memory term is at least one clock cycle", "[formulas][floor]") {
  // data [1,2,2,1] -> 1x1 conv (8 FLOPs; 16 + 4 + 16 bytes) -> dropout (4 FLOPs; 16 + 16 bytes).
  Net net({1, 2, 2, 1});
  net.conv("c", "data", {1, 1, 1, 1}, {1, 1, 1, 1}, "VALID")
      .add("d", {{"parents", {"c"}}, {"type", "Dropout"}, {"dropout_keep_prob", 0.5}});
  for (double clock : {1000.0, 250.0}) {
    for (double ppp : {1.0, 0.5}) {
      INFO("clock " << clock << " MHz, ppp_comp " << ppp);
      Json request = layers_request(net.spec, fast_device(clock));
      request["ppp_comp"] = ppp;
      const Json r = run(request);
      const double cycle = 1 / clock / 1e3;  // 1e-6 ms at 1000 MHz, 4e-6 ms at 250 MHz
      // 8 FLOPs = 8e-9 ms and 16 bytes = 1.5e-8 ms are far below one cycle; the floor ignores PPP.
      REQUIRE(8e-9 / ppp < cycle);
      REQUIRE(16 / kGiB / 1000 * 1e3 / ppp < cycle);
      check_pass(layer(r, "c"), "forward", 8, 36, cycle, 3 * cycle);
      check_zero_pass(layer(r, "c"), "backward_data");  // parent "data"
      check_pass(layer(r, "c"), "backward_filter", 8, 36, cycle, 3 * cycle);
      check_pass(layer(r, "d"), "forward", 4, 32, cycle, 2 * cycle);
      check_pass(layer(r, "d"), "backward_data", 4, 32, cycle, 2 * cycle);
      check_zero_pass(layer(r, "d"), "backward_filter");
    }
  }
}

TEST_CASE("VALID and SAME output shapes and padding", "[formulas][conv]") {
  struct Case {
    std::vector<long long> tensor, filter, strides;
    std::string padding;
    std::vector<long long> output;
    double flops, bytes;
  };
  const std::vector<Case> cases = {
      // VALID: OH = ceil((7-3+1)/2) = 3, no padding.
      {{2, 7, 7, 3}, {3, 3, 3, 4}, {1, 2, 2, 1}, "VALID", {2, 3, 3, 4},
       2.0 * 3 * 3 * 3 * 3 * 3 * 4 * 2, 4.0 * 2 * 7 * 7 * 3 + 4.0 * 3 * 3 * 3 * 4 + 4.0 * 2 * 3 * 3 * 4},
      // SAME: OH = ceil(7/2) = 4; ph = ((4-1)*2 + 3 - 7) // 2 = 1: the input is read as 9x9.
      {{2, 7, 7, 3}, {3, 3, 3, 4}, {1, 2, 2, 1}, "SAME", {2, 4, 4, 4},
       2.0 * 3 * 3 * 3 * 4 * 4 * 4 * 2, 4.0 * 2 * 9 * 9 * 3 + 4.0 * 3 * 3 * 3 * 4 + 4.0 * 2 * 4 * 4 * 4},
      // SAME: OH = ceil(8/2) = 4; ph = ((4-1)*2 + 3 - 8) // 2 = 1 // 2 = 0: read as 8x8.
      {{2, 8, 8, 3}, {3, 3, 3, 4}, {1, 2, 2, 1}, "SAME", {2, 4, 4, 4},
       2.0 * 3 * 3 * 3 * 4 * 4 * 4 * 2, 4.0 * 2 * 8 * 8 * 3 + 4.0 * 3 * 3 * 3 * 4 + 4.0 * 2 * 4 * 4 * 4},
      // SAME, stride 1, 5x5 kernel: OH = 6; ph = (5*1 + 5 - 6) // 2 = 2: read as 10x10.
      {{1, 6, 6, 2}, {5, 5, 2, 4}, {1, 1, 1, 1}, "SAME", {1, 6, 6, 4},
       2.0 * 5 * 5 * 2 * 6 * 6 * 4 * 1, 4.0 * 1 * 10 * 10 * 2 + 4.0 * 5 * 5 * 2 * 4 + 4.0 * 1 * 6 * 6 * 4},
      // VALID, rectangular: OH = ceil((9-3+1)/2) = 4, OW = ceil((5-1+1)/1) = 5.
      {{1, 9, 5, 1}, {3, 1, 1, 2}, {1, 2, 1, 1}, "VALID", {1, 4, 5, 2},
       2.0 * 3 * 1 * 1 * 4 * 5 * 2 * 1, 4.0 * 1 * 9 * 5 * 1 + 4.0 * 3 * 1 * 1 * 2 + 4.0 * 1 * 4 * 5 * 2},
  };
  for (const Case& c : cases) {
    Net net(c.tensor);
    net.conv("conv", "data", c.filter, c.strides, c.padding);
    const Json l = layer(run(layers_request(net.spec)), "conv");
    INFO("input " << Json(c.tensor).dump() << " filter " << Json(c.filter).dump() << " strides "
                  << Json(c.strides).dump() << " " << c.padding);
    CHECK(l["output"] == Json(c.output));
    CHECK(at(l, "forward.flops") == near(c.flops));
    CHECK(at(l, "forward.bytes") == near(c.bytes));
  }

  SECTION("pooling: VALID ceil((H-k+1)/s), SAME ceil(H/s), channels unchanged") {
    Net net({8, 10, 10, 16});
    net.pool("pv", "Pooling", "data", 3, 2, "VALID")
        .pool("ps", "Pooling", "data", 3, 2, "SAME")
        .add("cat", {{"parents", {"pv"}}, {"type", "Softmax"}})
        .add("cat2", {{"parents", {"ps"}}, {"type", "Softmax"}});
    const Json r = run(layers_request(net.spec));
    CHECK(layer(r, "pv")["output"] == Json({8, 4, 4, 16}));  // ceil(8/2) = 4
    CHECK(layer(r, "ps")["output"] == Json({8, 5, 5, 16}));  // ceil(10/2) = 5
  }
}

TEST_CASE("strided convolution: backward data over the zero-dilated gradient (holes)", "[formulas][conv]") {
  SECTION("VALID, stride 2") {
    // data [2,8,8,3] -> c0 (1x1, so that s's parent is not "data") -> s: 3x3x3x4, stride 2, VALID.
    Net net({2, 8, 8, 3});
    net.conv("c0", "data", {1, 1, 3, 3}, {1, 1, 1, 1}, "VALID").conv("s", "c0", {3, 3, 3, 4}, {1, 2, 2, 1}, "VALID");
    const Json l = layer(run(layers_request(net.spec)), "s");
    CHECK(l["output"] == Json({2, 3, 3, 4}));  // ceil((8-3+1)/2) = 3
    // Forward: 2*3*3*3 * 3*3*4 * 2 FLOPs; bytes 4*(2*8*8*3) + 4*(3*3*3*4) + 4*(2*3*3*4).
    const double fwd_flops = 2.0 * 3 * 3 * 3 * 3 * 3 * 4 * 2;  // 3888
    const double fwd_bytes = 4.0 * 2 * 8 * 8 * 3 + 4.0 * 3 * 3 * 3 * 4 + 4.0 * 2 * 3 * 3 * 4;
    check_pass(l, "forward", fwd_flops, fwd_bytes, ucomp(fwd_flops), umem(1536) + umem(432) + umem(288));
    // Data gradient: EH = (3-1)*2 + 1 = 5; pad_before = 3-1-0 = 2; pad_after = (8+3-1) - 5 - 2 = 3;
    // they differ by one so EH = EW = 6; p = min(2,3) = 2; holes = (36 - 9)/36 = 0.75.
    // Dummy conv: input [2,6,6,4], filter [3,3,4,3], stride 1, pad 2 -> output (6+4-3)+1 = 8 = H.
    // FLOPs = 2*3*3*4 * 8*8*3 * 2 + 2*prod(dummy input)*(1 - holes) = 27648 + 2*288*0.25 = 27792.
    const double data_flops = 2.0 * 3 * 3 * 4 * 8 * 8 * 3 * 2 + 2.0 * (2 * 6 * 6 * 4) * (1 - 0.75);
    REQUIRE(data_flops == 27792);
    // Bytes: padded input 4*2*(6+4)*(6+4)*4, filter 4*3*3*4*3, output 4*2*8*8*3.
    const double in = 4.0 * 2 * 10 * 10 * 4, filt = 4.0 * 3 * 3 * 4 * 3, out = 4.0 * 2 * 8 * 8 * 3;
    check_pass(l, "backward_data", data_flops, in + filt + out, ucomp(data_flops), umem(in) + umem(filt) + umem(out));
    // Filter gradient: input [3,8,8,2], filter [6,6,2,4] with holes 0.75, VALID -> [3,3,3,4].
    // FLOPs = 2*6*6*2 * 3*3*4 * 3 * 0.25 = 3888 (= forward); bytes 4*3*8*8*2 + 4*6*6*2*4*0.25 + 4*3*3*3*4.
    const double filter_flops = 2.0 * 6 * 6 * 2 * 3 * 3 * 4 * 3 * 0.25;
    const double fin = 4.0 * 3 * 8 * 8 * 2, ffilt = 4.0 * 6 * 6 * 2 * 4 * 0.25, fout = 4.0 * 3 * 3 * 3 * 4;
    check_pass(l, "backward_filter", filter_flops, fin + ffilt + fout, ucomp(filter_flops),
               umem(fin) + umem(ffilt) + umem(fout));
    CHECK(at(l, "backward.total_ms") == near(ucomp(data_flops) + umem(in) + umem(filt) + umem(out) +
                                             ucomp(filter_flops) + umem(fin) + umem(ffilt) + umem(fout)));
  }
  SECTION("SAME, stride 2") {
    // data [2,7,7,3] -> c0 -> s: 3x3x3x4, stride 2, SAME: OH = 4, ph = 1.
    Net net({2, 7, 7, 3});
    net.conv("c0", "data", {1, 1, 3, 3}, {1, 1, 1, 1}, "VALID").conv("s", "c0", {3, 3, 3, 4}, {1, 2, 2, 1}, "SAME");
    const Json l = layer(run(layers_request(net.spec)), "s");
    CHECK(l["output"] == Json({2, 4, 4, 4}));
    // Data gradient: EH = (4-1)*2 + 1 = 7; pad_before = 3-1-1 = 1; pad_after = (7+3-1) - 7 - 1 = 1;
    // equal, EH stays 7; p = 1; holes = (49 - 16)/49.
    // Dummy: input [2,7,7,4], filter [3,3,4,3], pad 1 -> (7+2-3)+1 = 7 = H.
    // FLOPs = 2*3*3*4 * 7*7*3 * 2 + 2*(2*7*7*4)*(16/49) = 21168 + 256 = 21424.
    const double holes = (49.0 - 16.0) / 49.0;
    const double data_flops = 2.0 * 3 * 3 * 4 * 7 * 7 * 3 * 2 + 2.0 * (2 * 7 * 7 * 4) * (1 - holes);
    CHECK(data_flops == near(21424));
    const double in = 4.0 * 2 * 9 * 9 * 4, filt = 4.0 * 3 * 3 * 4 * 3, out = 4.0 * 2 * 7 * 7 * 3;
    check_pass(l, "backward_data", data_flops, in + filt + out, ucomp(data_flops), umem(in) + umem(filt) + umem(out));
    // Filter gradient: SAME layer -> padding [1,1]; input [3,7,7,2], filter [7,7,2,4], holes 33/49
    // -> output (7+2-7)+1 = 3. FLOPs = 2*7*7*2 * 3*3*4 * 3 * (16/49) = 6912 (= forward).
    const double filter_flops = 2.0 * 7 * 7 * 2 * 3 * 3 * 4 * 3 * (1 - holes);
    CHECK(filter_flops == near(2.0 * 3 * 3 * 3 * 4 * 4 * 4 * 2));
    const double fin = 4.0 * 3 * 9 * 9 * 2, ffilt = 4.0 * 7 * 7 * 2 * 4 * (1 - holes), fout = 4.0 * 3 * 3 * 3 * 4;
    check_pass(l, "backward_filter", filter_flops, fin + ffilt + fout, ucomp(filter_flops),
               umem(fin) + umem(ffilt) + umem(fout));
  }
}

TEST_CASE("pooling and dropout", "[formulas][layers]") {
  // data [8,10,10,16] -> c0 -> pooling 3x3 stride 2 VALID -> [8,4,4,16]; c0 -> dropout.
  Net net({8, 10, 10, 16});
  net.conv("c0", "data", {1, 1, 16, 16}, {1, 1, 1, 1}, "VALID")
      .pool("pool", "Pooling", "c0", 3, 2, "VALID")
      .pool("avg", "AvgPool", "c0", 3, 2, "VALID")
      .add("drop", {{"parents", {"c0"}}, {"type", "Dropout"}, {"dropout_keep_prob", 0.5}})
      .add("cat", {{"parents", {"pool", "avg"}}, {"type", "Concatenate"}, {"dim", 3}})
      .add("out", {{"parents", {"cat"}}, {"type", "Generic"}});
  Json request = layers_request(net.spec);
  request["ppp_comp"] = 0.8;
  const Json r = run(request);
  // Pooling: 2*kh*kw*C*OH*OW*N FLOPs; mem(4 prod(in)) + mem(4 prod(out)); backward data = forward.
  const double pool_flops = 2.0 * 3 * 3 * 16 * 4 * 4 * 8;
  const double pin = 4.0 * 8 * 10 * 10 * 16, pout = 4.0 * 8 * 4 * 4 * 16;
  for (const char* name : {"pool", "avg"}) {
    const Json l = layer(r, name);
    CHECK(l["output"] == Json({8, 4, 4, 16}));
    check_pass(l, "forward", pool_flops, pin + pout, ucomp(pool_flops, 0.8), umem(pin, 0.8) + umem(pout, 0.8));
    check_pass(l, "backward_data", pool_flops, pin + pout, ucomp(pool_flops, 0.8), umem(pin, 0.8) + umem(pout, 0.8));
    check_zero_pass(l, "backward_filter");
    CHECK(at(l, "params") == 0);
  }
  // Dropout: prod(in) FLOPs; mem(4 prod(in)) + mem(4 prod(out)).
  const double drop_flops = 8.0 * 10 * 10 * 16;
  const Json d = layer(r, "drop");
  CHECK(d["output"] == Json({8, 10, 10, 16}));
  check_pass(d, "forward", drop_flops, 2 * pin, ucomp(drop_flops, 0.8), 2 * umem(pin, 0.8));
  check_pass(d, "backward_data", drop_flops, 2 * pin, ucomp(drop_flops, 0.8), 2 * umem(pin, 0.8));
  check_zero_pass(d, "backward_filter");
  // Concatenate and Generic cost nothing in paleo2017.
  CHECK(layer(r, "cat")["output"] == Json({8, 4, 4, 32}));
  for (const char* name : {"cat", "out"})
    for (const char* pass : {"forward", "backward_data", "backward_filter", "backward"}) check_zero_pass(layer(r, name), pass);
}

TEST_CASE("inner product: forward and both gradients", "[formulas][layers]") {
  // data [16,4,4,8] -> c0 (1x1) -> fc with 64 outputs: input flattened to [N, I] = [16, 128].
  Net net({16, 4, 4, 8});
  net.conv("c0", "data", {1, 1, 8, 8}, {1, 1, 1, 1}, "VALID")
      .add("fc", {{"parents", {"c0"}}, {"type", "InnerProduct"}, {"num_outputs", 64}});
  const Json l = layer(run(layers_request(net.spec)), "fc");
  const double n = 16, i = 4 * 4 * 8, k = 64;
  CHECK(l["output"] == Json({16, 64}));
  CHECK(at(l, "params") == i * k + k);  // weights + biases = 8256
  CHECK(at(l, "weights_bytes") == 4 * (i * k + k));
  // Forward [N,I]x[I,K]: 2NIK FLOPs; mem(4NI) + mem(4IK) + mem(4NK).
  check_pass(l, "forward", 2 * n * i * k, 4 * n * i + 4 * i * k + 4 * n * k, ucomp(2 * n * i * k),
             umem(4 * n * i) + umem(4 * i * k) + umem(4 * n * k));
  // Data gradient [N,K]x[K,I]: 2NKI FLOPs; mem(4NK) + mem(4KI) + mem(4NI).
  check_pass(l, "backward_data", 2 * n * k * i, 4 * n * k + 4 * k * i + 4 * n * i, ucomp(2 * n * k * i),
             umem(4 * n * k) + umem(4 * k * i) + umem(4 * n * i));
  // Filter gradient [I,N]x[N,K]: 2INK FLOPs; mem(4IN) + mem(4NK) + mem(4IK).
  check_pass(l, "backward_filter", 2 * i * n * k, 4 * i * n + 4 * n * k + 4 * i * k, ucomp(2 * i * n * k),
             umem(4 * i * n) + umem(4 * n * k) + umem(4 * i * k));
  CHECK(at(l, "backward.total_ms") ==
        near(2 * (ucomp(2 * n * i * k) + umem(4 * n * i) + umem(4 * i * k) + umem(4 * n * k))));
}

TEST_CASE("weight update: 2P/4 FLOPs and three memory passes at PPP 1.0, whatever ppp_comp", "[formulas][update]") {
  // data [16,128] -> fc 64: P = 4 * (128*64 + 64) = 33024 bytes.
  Net net({16, 128});
  net.add("fc", {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 64}});
  const double p = 4.0 * (128 * 64 + 64);
  const double update_comp = ucomp(2 * std::floor(p / 4));  // comp(2 * P//4) at PPP 1
  const double update_comm = 3 * umem(p);                  // read weights, read updates, write weights
  const Json base = run(layers_request(net.spec));
  for (double ppp : {1.0, 0.5, 0.21}) {
    INFO("ppp_comp " << ppp);
    Json request = layers_request(net.spec);
    request["ppp_comp"] = ppp;
    request["ppp_comm"] = 0.3;
    const Json r = run(request);
    const Json& t = r["totals"];
    CHECK(at(t, "params_bytes") == p);
    CHECK(at(t, "update_comp_ms") == near(update_comp));
    CHECK(at(t, "update_mem_ms") == near(update_comm));
    CHECK(at(t, "update_ms") == near(update_comp + update_comm));
    // ... while the forward pass does scale with ppp_comp.
    CHECK(at(t, "forward_comp_ms") == near(at(base["totals"], "forward_comp_ms") / ppp));
    CHECK(at(t, "step_ms") == near(at(t, "forward_ms") + at(t, "backward_ms") + at(t, "update_ms")));
  }
  SECTION("the software presets do not change the update either") {
    Json request = layers_request(net.spec);
    request["software"] = "caffe";
    const Json r = run(request);
    CHECK(r["ppp_comp"] == Approx(0.21));
    CHECK(at(r["totals"], "update_ms") == near(update_comp + update_comm));
  }
  SECTION("a tiny update: one floor for the FLOPs, the memory floor tripled") {
    Net small({1, 1});
    small.add("fc", {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 1}});  // P = 8 bytes
    const Json r = run(layers_request(small.spec, fast_device()));
    // 2*8//4 = 4 FLOPs = 4e-9 ms and 8 bytes = 7.5e-9 ms: both below one cycle (1e-6 ms).
    CHECK(at(r["totals"], "update_comp_ms") == near(1e-6));
    CHECK(at(r["totals"], "update_mem_ms") == near(3e-6));
  }
}

namespace {

// data [4,1000] -> fc 1000: P = 4 * (1000*1000 + 1000) = 4,004,000 bytes.
Json comm_net() {
  Net net({4, 1000});
  net.add("fc", {{"parents", {"data"}}, {"type", "InnerProduct"}, {"num_outputs", 1000}});
  return net.spec;
}

const Json* scaling_table(const Json& response, const std::string& scaling) {
  for (const Json& t : response["scaling"])
    if (t.value("scaling", "") == scaling) return &t;
  FAIL("no " << scaling << " scaling table");
  return nullptr;
}

}  // namespace

TEST_CASE("communication schemes: OneToAll, Tree, Butterfly, Mixing", "[formulas][comm]") {
  const double p = 4.0 * (1000 * 1000 + 1000);
  const double ppp_comm = 0.5;
  // An 8 Gbit/s network moves 8/8 * 1e9 bytes per second: link(x) = x / 1e9 * 1000 / ppp_comm ms.
  auto link = [&](double bytes) { return bytes / (8.0 / 8 * 1e9) * 1000 / ppp_comm; };
  const Json request = {{"command", "simulate"},
                        {"profile", "paleo2017"},
                        {"net", comm_net()},
                        {"device", unit_device()},
                        {"interconnect", {{"name", "eight"}, {"bandwidth_gbit_per_s", 8}}},
                        {"ppp_comm", ppp_comm},
                        {"workers", {1, 2, 3, 4, 5, 8}},
                        {"scaling", {"weak"}}};
  const Json r = run(request);
  const Json& rows = (*scaling_table(r, "weak"))["rows"];
  REQUIRE(rows.size() == 6);
  // h = ceil(log2 n), by hand.
  const std::vector<std::pair<int, int>> workers_and_h = {{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}};
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto [n, h] = workers_and_h[k];
    const Json& row = rows[k];
    INFO("workers " << n);
    CHECK(at(row, "workers") == n);
    CHECK(at(row, "comm_ms.OneToAll") == near(2 * link(p * (n - 1))));
    CHECK(at(row, "comm_ms.TreeAllReduce") == near(2 * h * link(p)));
    CHECK(at(row, "comm_ms.ButterflyAllReduce") == near(h * link(p)));
    CHECK(at(row, "comm_ms.ButterflyMixing") == near(link(p)));
  }
  CHECK(at(rows[4], "comm_ms.TreeAllReduce") == near(48.048));  // 2 * 3 * 8.008 ms

  SECTION("a preset network: ethernet is 10 Gbit/s") {
    Json req = request;
    req["interconnect"] = "ethernet";
    req["ppp_comm"] = 1.0;
    req["workers"] = {2};
    const Json response = run(req);
    const Json& row = (*scaling_table(response, "weak"))["rows"][0];
    CHECK(at(row, "comm_ms.TreeAllReduce") == near(2 * p / (10.0 / 8 * 1e9) * 1000));  // 6.4064 ms
  }
}

TEST_CASE("weak and strong scaling: per-worker batch, rows and speed-ups", "[formulas][scaling]") {
  Net net({128, 8, 8, 4});
  net.conv("c0", "data", {3, 3, 4, 8}, {1, 1, 1, 1}, "SAME")
      .conv("c1", "c0", {3, 3, 8, 8}, {1, 1, 1, 1}, "SAME")
      .add("fc", {{"parents", {"c1"}}, {"type", "InnerProduct"}, {"num_outputs", 10}});
  const Json network = {{"name", "slow"}, {"bandwidth_gbit_per_s", 0.1}};
  auto totals_at = [&](long long batch) {
    Json req = layers_request(net.spec);
    req["batch_size"] = batch;
    return run(req)["totals"];
  };
  const Json request = {{"command", "simulate"},
                        {"profile", "paleo2017"},
                        {"net", net.spec},
                        {"device", unit_device()},
                        {"interconnect", network},
                        {"batch_size", 128},
                        {"workers", {1, 3, 4}},
                        {"scaling", {"strong", "weak"}}};
  const Json r = run(request);
  REQUIRE(r["scaling"].size() == 2);
  CHECK(r["scaling"][0]["scaling"] == "strong");  // the requested order
  CHECK(r["scaling"][1]["scaling"] == "weak");

  const std::vector<int> workers = {1, 3, 4};
  // Strong: each worker runs ceil(128/n): 128, ceil(42.67) = 43, 32; the row shows the global batch.
  const std::vector<long long> strong_batch = {128, 43, 32};
  const char* const schemes[] = {"OneToAll", "TreeAllReduce", "ButterflyAllReduce", "ButterflyMixing"};
  for (const std::string scaling : {"strong", "weak"}) {
    const Json& rows = (*scaling_table(r, scaling))["rows"];
    REQUIRE(rows.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
      const int n = workers[k];
      INFO(scaling << " scaling, " << n << " workers");
      const Json& row = rows[k];
      const long long per_worker = scaling == "strong" ? strong_batch[k] : 128;
      const Json t = totals_at(per_worker);
      CHECK(at(row, "workers") == n);
      CHECK(at(row, "batch_size") == (scaling == "strong" ? 128 : 128 * n));  // weak: B*n
      CHECK(at(row, "iter") == 1);
      CHECK(at(row, "time_fwd_ms") == near(at(t, "forward_ms")));
      CHECK(at(row, "time_bwd_ms") == near(at(t, "backward_ms")));
      CHECK(at(row, "time_apply_ms") == near(at(t, "update_ms")));
      CHECK(at(row, "time_comp_ms") == near(at(t, "forward_ms") + at(t, "backward_ms") + at(t, "update_ms")));
      // Speed-ups with T = time_comp + scheme time: weak n*T(1)/T(n), strong T(1)/T(n).
      for (const char* s : schemes) {
        const std::string c = std::string("comm_ms.") + s;
        const double t1 = at(rows[0], "time_comp_ms") + at(rows[0], c);
        const double tn = at(row, "time_comp_ms") + at(row, c);
        const double expected = scaling == "weak" ? n * t1 / tn : t1 / tn;
        INFO(s);
        CHECK(at(row, std::string("speedup.") + s) == near(expected));
      }
    }
  }
}

TEST_CASE("FFT cost of a tiny convolution", "[formulas][fft]") {
  // data [2,6,6,3] -> c0 (1x1) -> f: 3x3x3x4, stride 1, VALID -> [2,4,4,4]; unit device.
  Net net({2, 6, 6, 3});
  net.conv("c0", "data", {1, 1, 3, 3}, {1, 1, 1, 1}, "VALID").conv("f", "c0", {3, 3, 3, 4}, {1, 1, 1, 1}, "VALID");
  const double nc = 2 * 3, ck = 3 * 4, nk = 2 * 4, out = 2 * 4 * 4 * 4;
  SECTION("fft: the padded image, S = max(6,3)^2 = 36") {
    Json request = layers_request(net.spec);
    request["conv_algorithm"] = "fft";
    const Json l = layer(run(request), "f");
    // fftflops(36): t = 2^ceil(log2 sqrt 36) = 2^ceil(2.58) = 8; f = 10 * 8^2 * log2 8 = 1920;
    // r2c halves it (960), c2r keeps it; 2-D filter (not 1-D), one tile.
    const double s = 36, r2c = 960, c2r = 1920;
    const double comp = ucomp(nc * r2c) + ucomp(ck * r2c) + ucomp(4 * 2 * 3 * 4 * s) + ucomp(nk * c2r);
    const double comm = umem(4 * nc * s) + umem(8 * nc * s) + umem(4 * ck * s) + umem(8 * ck * s) + umem(8 * nc * s) +
                        umem(8 * ck * s) + umem(8 * nk * s) + umem(8 * nk * s) + umem(4 * out);
    CHECK(at(l, "forward.comp_ms") == near(comp));  // (5760 + 11520 + 3456 + 15360) FLOPs
    CHECK(at(l, "forward.mem_ms") == near(comm));  // 18080 bytes in nine terms
    CHECK(comm == near(18080 / kGiB * 1e3));
  }
  SECTION("fft_tiling: 32x32 tiles, S = 1024, one tile") {
    Json request = layers_request(net.spec);
    request["conv_algorithm"] = "fft_tiling";
    const Json l = layer(run(request), "f");
    // t = 32; f = 10 * 32^2 * 5 = 51200; r2c 25600; T = ceil(6/32)^2 = 1.
    const double s = 1024, r2c = 25600, c2r = 51200;
    const double comp = ucomp(nc * r2c) + ucomp(ck * r2c) + ucomp(4 * 2 * 3 * 4 * s) + ucomp(nk * c2r);
    const double comm = umem(4 * nc * s) + umem(8 * nc * s) + umem(4 * ck * s) + umem(8 * ck * s) + umem(8 * nc * s) +
                        umem(8 * ck * s) + umem(8 * nk * s) + umem(8 * nk * s) + umem(4 * out);
    CHECK(at(l, "forward.comp_ms") == near(comp));
    CHECK(at(l, "forward.mem_ms") == near(comm));
  }
}

TEST_CASE("Winograd convolutions have a real, finite cost", "[formulas][winograd]") {
  Net net({8, 32, 32, 16});
  net.conv("c0", "data", {1, 1, 16, 16}, {1, 1, 1, 1}, "VALID").conv("w", "c0", {3, 3, 16, 32}, {1, 1, 1, 1}, "SAME");
  Json request = layers_request(net.spec, "TITAN_X");
  const Json gemm = layer(run(request), "w");
  request["conv_algorithm"] = "winograd";
  const Json wino = layer(run(request), "w");
  for (const char* path : {"forward.total_ms", "backward.total_ms", "forward.flops"}) {
    INFO(path);
    CHECK(at(wino, path) > 0);
  }
  CHECK(at(wino, "forward.flops") < at(gemm, "forward.flops"));
}

namespace {

double fwd(const Json& r, const std::string& name) { return at(layer(r, name), "forward.total_ms"); }
double bwd(const Json& r, const std::string& name) { return at(layer(r, name), "backward.total_ms"); }

}  // namespace

TEST_CASE("branch-parallel lower bound: the slowest branch instead of the sum", "[formulas][branches]") {
  // data -> c0 -> {a1 -> a2} | {b1} -> cat -> f
  Net net({4, 16, 16, 8});
  net.conv("c0", "data", {1, 1, 8, 8}, {1, 1, 1, 1}, "VALID")
      .conv("a1", "c0", {3, 3, 8, 8}, {1, 1, 1, 1}, "SAME")
      .conv("a2", "a1", {3, 3, 8, 8}, {1, 1, 1, 1}, "SAME")
      .conv("b1", "c0", {5, 5, 8, 16}, {1, 1, 1, 1}, "SAME")
      .add("cat", {{"parents", {"a2", "b1"}}, {"type", "Concatenate"}, {"dim", 3}})
      .conv("f", "cat", {1, 1, 24, 4}, {1, 1, 1, 1}, "VALID");
  const Json r = run(layers_request(net.spec));
  const Json& t = r["totals"];
  for (auto [pass, cost] : {std::make_pair(std::string("forward"), &fwd), std::make_pair(std::string("backward"), &bwd)}) {
    INFO(pass);
    const double serial = cost(r, "c0") + cost(r, "a1") + cost(r, "a2") + cost(r, "b1") + cost(r, "cat") + cost(r, "f");
    const double bound = cost(r, "c0") + std::max(cost(r, "a1") + cost(r, "a2"), cost(r, "b1")) + cost(r, "cat") + cost(r, "f");
    CHECK(at(t, pass + "_ms") == near(serial));
    CHECK(at(t, pass + "_branch_parallel_ms") == near(bound));
    CHECK(bound < serial);
  }
}

TEST_CASE("branch-parallel lower bound with nested branches", "[formulas][branches]") {
  // data -> c0 -> { a1 -> {x (5x5) | y (1x1)} -> acat -> a3 } | { b1 } -> cat -> f
  Net net({4, 16, 16, 8});
  net.conv("c0", "data", {1, 1, 8, 8}, {1, 1, 1, 1}, "VALID")
      .conv("a1", "c0", {3, 3, 8, 8}, {1, 1, 1, 1}, "SAME")
      .conv("x", "a1", {5, 5, 8, 16}, {1, 1, 1, 1}, "SAME")
      .conv("y", "a1", {1, 1, 8, 8}, {1, 1, 1, 1}, "VALID")
      .add("acat", {{"parents", {"x", "y"}}, {"type", "Concatenate"}, {"dim", 3}})
      .conv("a3", "acat", {1, 1, 24, 8}, {1, 1, 1, 1}, "VALID")
      .conv("b1", "c0", {1, 1, 8, 8}, {1, 1, 1, 1}, "VALID")
      .add("cat", {{"parents", {"a3", "b1"}}, {"type", "Concatenate"}, {"dim", 3}})
      .conv("f", "cat", {1, 1, 16, 4}, {1, 1, 1, 1}, "VALID");
  const Json r = run(layers_request(net.spec));
  const Json& t = r["totals"];
  for (auto [pass, cost] : {std::make_pair(std::string("forward"), &fwd), std::make_pair(std::string("backward"), &bwd)}) {
    INFO(pass);
    const double inner = std::max(cost(r, "x"), cost(r, "y"));
    const double branch_a = cost(r, "a1") + inner + cost(r, "acat") + cost(r, "a3");
    const double branch_b = cost(r, "b1");
    const double bound = cost(r, "c0") + std::max(branch_a, branch_b) + cost(r, "cat") + cost(r, "f");
    const double flattened = cost(r, "c0") + std::max(branch_a + std::min(cost(r, "x"), cost(r, "y")), branch_b) +
                             cost(r, "cat") + cost(r, "f");
    CHECK(at(t, pass + "_branch_parallel_ms") == near(bound));
    CHECK(bound < flattened);  // the test tells a nested max from a flattened sum
  }
}
