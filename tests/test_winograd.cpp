// Winograd convolutions against the formula of docs/model.md, worked out by hand here for several
// shapes (kernel 2, 3 and 5; outputs that do and do not divide into 4x4 tiles; SAME and VALID
// padding; a grouped layer; the data gradient), on a "unit" device under paleo2017:
//   comp(F) = F * 1e-9 ms,   mem(B) = B / 2^30 * 1e3 ms (each memory term floored at one cycle).
// F(m x m, r x r) with m = 4, alpha = m + r - 1, P = N * ceil(OH/m) * ceil(OW/m) tiles:
//   FLOPs = 2 * ( Cout*Cin*(r^2 alpha + alpha^2 r) + P*Cin*2 alpha^3 + alpha^2 Cout*Cin*P
//                 + Cout*P*(alpha^2 m + m^2 alpha) )            (Cout*Cin / groups for a grouped layer)
//   bytes = 4*(padded input) + 4*(filter) + 4*(output) + 2 * 4*alpha^2*(P*Cin + Cin*Cout + P*Cout)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/api.h"

namespace {

using Json = nlohmann::ordered_json;

double comp_ms(double flops) { return std::max(1e-6, flops * 1e-9); }
double mem_ms(double bytes) { return std::max(1e-6, bytes / 1073741824.0 * 1e3); }

struct Conv {
  double n, h, w, cin;      // input [N, H, W, Cin]
  double r, cout, groups;   // r x r kernel
  double oh, ow, pad;       // output size and padding on each side, worked out by hand
};

struct Expected {
  double flops, bytes, comp_ms, mem_ms;
};

Expected winograd(const Conv& c) {
  const double m = 4, r = c.r, alpha = m + r - 1;
  const double tiles = c.n * std::ceil(c.oh / m) * std::ceil(c.ow / m);
  const double pairs = c.cin * c.cout / c.groups;
  const double flops = 2 * (pairs * (r * r * alpha + alpha * alpha * r) + tiles * c.cin * 2 * alpha * alpha * alpha +
                            alpha * alpha * pairs * tiles + c.cout * tiles * (alpha * alpha * m + m * m * alpha));
  const double input = 4 * c.n * (c.h + 2 * c.pad) * (c.w + 2 * c.pad) * c.cin;
  const double filter = 4 * r * r * (c.cin / c.groups) * c.cout;
  const double output = 4 * c.n * c.oh * c.ow * c.cout;
  const double transformed = 2 * 4 * alpha * alpha * (tiles * c.cin + pairs + tiles * c.cout);
  return {flops, input + filter + output + transformed, comp_ms(flops),
          mem_ms(input) + mem_ms(filter) + mem_ms(output) + mem_ms(transformed)};
}

// data [N, H, W, Cin] -> pre (1x1, so that `w` has a data gradient) -> w (r x r, stride 1).
Json request_for(const Conv& c, const std::string& padding) {
  const auto i = [](double v) { return static_cast<long long>(v); };
  Json w = {{"parents", {"pre"}}, {"type", "Convolution"}, {"filter", {i(c.r), i(c.r), i(c.cin), i(c.cout)}},
            {"strides", {1, 1, 1, 1}}, {"padding", padding}};
  if (c.groups > 1) w["group"] = i(c.groups);
  const Json net = {
      {"name", "winograd"},
      {"layers",
       {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {i(c.n), i(c.h), i(c.w), i(c.cin)}}}},
        {"pre", {{"parents", {"data"}}, {"type", "Convolution"}, {"filter", {1, 1, i(c.cin), i(c.cin)}},
                 {"strides", {1, 1, 1, 1}}, {"padding", "VALID"}}},
        {"w", w}}}};
  const Json unit = {{"name", "unit"}, {"clock_mhz", 1000}, {"peak_gflops", 1000}, {"mem_bandwidth_gb_per_s", 1}};
  return {{"command", "layers"}, {"profile", "paleo2017"}, {"net", net}, {"device", unit}, {"conv_algorithm", "winograd"}};
}

Json layer_w(const Json& request) {
  const Json response = paleo::handle_request(request);
  INFO("response: " << response.dump().substr(0, 1000));
  REQUIRE(response.value("ok", false));
  return response["layers"][2];
}

Approx near(double v) { return Approx(v).epsilon(1e-12); }

void check_pass(const Json& pass, const Expected& e) {
  CHECK(pass["algorithm"] == "winograd");
  CHECK(pass["flops"].get<double>() == near(e.flops));
  CHECK(pass["bytes"].get<double>() == near(e.bytes));
  CHECK(pass["comp_ms"].get<double>() == near(e.comp_ms));
  CHECK(pass["mem_ms"].get<double>() == near(e.mem_ms));
}

}  // namespace

TEST_CASE("Winograd forward passes equal the hand-derived formula for several shapes", "[formulas][winograd]") {
  struct Case {
    const char* what;
    Conv conv;
    const char* padding;
  };
  const std::vector<Case> cases = {
      {"3x3 SAME, 32x32 output: 8 x 8 x 8 = 512 tiles, alpha 6", {8, 32, 32, 16, 3, 32, 1, 32, 32, 1}, "SAME"},
      {"5x5 VALID, 20 -> 16: 4 x 4 x 4 = 64 tiles, alpha 8", {4, 20, 20, 8, 5, 12, 1, 16, 16, 0}, "VALID"},
      {"2x2 VALID, 9 -> 8: 2 x 2 x 2 = 8 tiles, alpha 5", {2, 9, 9, 3, 2, 5, 1, 8, 8, 0}, "VALID"},
      {"3x3 SAME, 7x7 output: partial tiles, 1 x 2 x 2 = 4, alpha 6", {1, 7, 7, 4, 3, 6, 1, 7, 7, 1}, "SAME"},
      {"3x3 SAME, two groups: 32 channel pairs instead of 64", {2, 8, 8, 8, 3, 8, 2, 8, 8, 1}, "SAME"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const Expected e = winograd(c.conv);
    check_pass(layer_w(request_for(c.conv, c.padding))["forward"], e);
  }
  // The first case in numbers, so that a slip shared by the formula above and the model's would
  // still show: 2 * (512*162 + 512*16*2*216 + 36*512*512 + 32*512*240) FLOPs, and
  // 4*8*34*34*16 + 4*9*16*32 + 4*8*32*32*32 + 2*4*36*(512*16 + 512 + 512*32) bytes.
  const Json first = layer_w(request_for(cases[0].conv, cases[0].padding))["forward"];
  CHECK(first["flops"].get<double>() == 33982464.0);
  CHECK(first["bytes"].get<double>() == 8884224.0);
}

TEST_CASE("the Winograd data gradient prices the stride-1 dummy with channels swapped", "[formulas][winograd]") {
  // 3x3 SAME on 32x32: the dummy reads the output gradient [8, 32, 32, 32] padded by 1 and writes
  // [8, 32, 32, 16]: the forward formula with Cin = 32, Cout = 16.
  const Conv forward = {8, 32, 32, 16, 3, 32, 1, 32, 32, 1};
  const Conv dummy = {8, 32, 32, 32, 3, 16, 1, 32, 32, 1};
  check_pass(layer_w(request_for(forward, "SAME"))["backward_data"], winograd(dummy));
}

TEST_CASE("Winograd does not apply to strided, 1x1 or 7x7 kernels: GEMM prices them", "[formulas][winograd]") {
  Conv seven = {2, 16, 16, 4, 7, 4, 1, 16, 16, 3};
  const Json l = layer_w(request_for(seven, "SAME"));
  CHECK(l["forward"]["algorithm"] == "gemm");
  // GEMM: 2 * kh*kw*Cin * OH*OW*Cout * N FLOPs.
  CHECK(l["forward"]["flops"].get<double>() == near(2.0 * 49 * 4 * 16 * 16 * 4 * 2));
  Json strided = request_for({2, 16, 16, 4, 3, 4, 1, 8, 8, 0}, "SAME");
  strided["net"]["layers"]["w"]["strides"] = {1, 2, 2, 1};
  CHECK(layer_w(strided)["forward"]["algorithm"] == "gemm");
}
