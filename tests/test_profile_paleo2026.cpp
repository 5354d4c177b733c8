// The corrected profile: each switch of docs/model.md, checked on small nets by hand.
#include <catch2/catch.hpp>

#include "core/api.h"
#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

Json layers(const Json& net, const std::string& profile, Json extra = Json::object()) {
  Json r = {{"command", "layers"}, {"net", net}, {"device", "TITAN_X"}, {"profile", profile}, {"conv_algorithm", "gemm"}};
  r.update(extra);
  Json out = paleo::handle_request(r);
  INFO(out.dump());
  REQUIRE(out["ok"].get<bool>());
  return out;
}

}  // namespace

TEST_CASE("paleo2026: a strided convolution's data gradient costs the forward FLOPs") {
  // 8x8x16 input, 3x3x16x32 filter, stride 2, SAME -> 4x4x32; batch 4.
  const Json conv = {{"type", "Convolution"}, {"filter", {3, 3, 16, 32}}, {"strides", {1, 2, 2, 1}},
                     {"padding", "SAME"}, {"activation_fn", nullptr}};
  const Json net = one_layer_net(conv, {4, 8, 8, 16});
  const Json x = layers(net, "paleo2026")["layers"][2];
  const double forward_flops = 2.0 * 3 * 3 * 16 * 4 * 4 * 32 * 4;
  CHECK(x["forward"]["flops"].get<double>() == forward_flops);
  CHECK(x["backward_data"]["flops"].get<double>() == forward_flops);
  // Read the output gradient and the filters, write the input gradient.
  CHECK(x["backward_data"]["bytes"].get<double>() == 4.0 * (4 * 4 * 4 * 32 + 3 * 3 * 16 * 32 + 4 * 8 * 8 * 16));
  // paleo2017 costs it over the zero-dilated gradient: more FLOPs.
  CHECK(layers(net, "paleo2017")["layers"][2]["backward_data"]["flops"].get<double>() > forward_flops);
}

TEST_CASE("paleo2026: decimal memory units and no one-cycle floors") {
  const Json pool = {{"type", "Pooling"}, {"ksize", {1, 2, 2, 1}}, {"strides", {1, 2, 2, 1}}, {"padding", "VALID"}};
  // At an explicit PPP 1.0: without one, paleo2026 prices kernels at a software era (below).
  const Json x = layers(one_layer_net(pool, {1, 2, 2, 1}), "paleo2026", {{"ppp_comp", 1.0}})["layers"][2];
  // 2x2 window on 1x2x2x1: 8 FLOPs; reads 16 bytes, writes 4: far below one cycle (1e-6 ms).
  CHECK(x["forward"]["comp_ms"].get<double>() == Approx(8 / 1e9 / 6144 * 1e3));
  CHECK(x["forward"]["mem_ms"].get<double>() == Approx(16 / 1e9 / 336.5 * 1e3 + 4 / 1e9 / 336.5 * 1e3));
  const Json old = layers(one_layer_net(pool, {1, 2, 2, 1}), "paleo2017")["layers"][2];
  CHECK(old["forward"]["comp_ms"].get<double>() == 1e-6);
  CHECK(old["forward"]["mem_ms"].get<double>() == 2e-6);
}

TEST_CASE("paleo2026: memory-bound layers cost their traffic, paleo2017 keeps them free") {
  const Json relu = {{"type", "ReLU"}};
  const Json x = layers(one_layer_net(relu, {2, 10, 10, 8}), "paleo2026")["layers"][2];
  const double elements = 2 * 10 * 10 * 8;
  CHECK(x["forward"]["flops"].get<double>() == elements);
  CHECK(x["forward"]["bytes"].get<double>() == 2 * 4 * elements);   // read, write
  CHECK(x["backward_data"]["bytes"].get<double>() == 3 * 4 * elements);  // gradient and output in, gradient out
  CHECK(layers(one_layer_net(relu, {2, 10, 10, 8}), "paleo2017")["layers"][2]["forward"]["total_ms"].get<double>() == 0);
  const Json concat_net = {
      {"layers",
       {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {2, 4, 4, 3}}}},
        {"a", {{"parents", {"data"}}, {"type", "Generic"}}},
        {"b", {{"parents", {"data"}}, {"type", "Generic"}}},
        {"c", {{"parents", {"a", "b"}}, {"type", "Concatenate"}, {"dim", 3}}}}}};
  const Json c = layers(concat_net, "paleo2026")["layers"][3];
  CHECK(c["name"] == "c");
  CHECK(c["forward"]["bytes"].get<double>() == 4.0 * (2 * 96 + 192));
}

TEST_CASE("paleo2026: the update runs at the chosen PPP, with the optimizer's traffic") {
  const Json fc = {{"type", "InnerProduct"}, {"num_outputs", 1000}};
  const Json net = one_layer_net(fc, {8, 1000});
  const double params_bytes = 4.0 * (1000 * 1000 + 1000);
  for (const auto& [optimizer, flops_per_param, passes] :
       {std::tuple<const char*, double, double>{"sgd", 2, 3}, {"momentum", 4, 5}, {"adam", 12, 7}}) {
    Json r = {{"command", "estimate"}, {"net", net}, {"device", "TITAN_X"}, {"profile", "paleo2026"},
              {"ppp_comp", 0.5}, {"optimizer", optimizer}};
    const Json t = paleo::handle_request(r)["totals"];
    INFO(optimizer);
    CHECK(t["update_comp_ms"].get<double>() == Approx(flops_per_param * params_bytes / 4 / 1e9 / 6144 * 1e3 / 0.5));
    CHECK(t["update_mem_ms"].get<double>() == Approx(passes * params_bytes / 1e9 / 336.5 * 1e3 / 0.5));
  }
}

TEST_CASE("roofline: a pass takes max(compute, memory)") {
  const Json conv = {{"type", "Convolution"}, {"filter", {3, 3, 64, 64}}, {"strides", {1, 1, 1, 1}},
                     {"padding", "SAME"}, {"activation_fn", nullptr}};
  const Json net = one_layer_net(conv, {16, 28, 28, 64});
  // The option belongs to the PPP formula (a software era takes a roofline per kernel anyway).
  const Json plain = layers(net, "paleo2026", {{"ppp_comp", 1.0}})["layers"][2]["forward"];
  const Json roof = layers(net, "paleo2026", {{"ppp_comp", 1.0}, {"roofline", true}})["layers"][2]["forward"];
  CHECK(roof["total_ms"].get<double>() ==
        Approx(std::max(plain["comp_ms"].get<double>(), plain["mem_ms"].get<double>())));
  CHECK(roof["total_ms"].get<double>() < plain["total_ms"].get<double>());
}

TEST_CASE("a convolution may pin its own algorithm in the spec") {
  const Json conv = {{"type", "Convolution"}, {"filter", {3, 3, 64, 64}}, {"strides", {1, 1, 1, 1}},
                     {"padding", "SAME"}, {"conv_algorithm", "fft"}};
  const Json x = layers(one_layer_net(conv, {8, 32, 32, 64}), "paleo2017")["layers"][2];
  CHECK(x["forward"]["algorithm"] == "fft");
  CHECK(x["backward_filter"]["algorithm"] == "fft");
  Json bad = one_layer_net({{"type", "Convolution"}, {"filter", {3, 3, 64, 64}}, {"strides", {1, 1, 1, 1}},
                       {"padding", "SAME"}, {"conv_algorithm", "magic"}}, {8, 32, 32, 64});
  const Json out = paleo::handle_request(Json{{"command", "layers"}, {"net", bad}});
  CHECK_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["layer"] == "x");
  CHECK(out["error"]["field"] == "conv_algorithm");
}
