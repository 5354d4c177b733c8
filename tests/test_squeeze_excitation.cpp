// Squeeze-and-excitation: an Elementwise product whose second input, [N, 1, 1, C], is broadcast
// over the image; its traffic each way, the layer-wise search's transfers of the broadcast input,
// and the SE-ResNeXt-101 preset's size.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "core/api.h"
#include "core/api/request.h"
#include "core/cluster/cluster_step.h"
#include "core/search/strategy_search.h"
#include "core/search/strategy_transfer.h"
#include "one_layer_net.h"

namespace {

using Json = nlohmann::ordered_json;

// data [8, 14, 14, 64] -> pre -> pool (the global average, [8, 1, 1, 64]), and twin (another free
// layer of pre's shape); x: an Elementwise of pre and pool, or of `parents` as given.
Json broadcast_net(const std::string& operation, const Json& parents = {"pre", "pool"}) {
  Json x = {{"parents", parents}, {"type", "Elementwise"}};
  if (!operation.empty()) x["operation"] = operation;
  return {{"name", "se"},
          {"layers",
           {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 14, 14, 64}}}},
            {"pre", {{"parents", {"data"}}, {"type", "Generic"}}},
            {"twin", {{"parents", {"data"}}, {"type", "Generic"}}},
            {"pool", {{"parents", {"pre"}}, {"type", "AvgPool"}, {"ksize", {1, 14, 14, 1}},
                      {"strides", {1, 1, 1, 1}}, {"padding", "VALID"}}},
            {"x", x}}}};
}

Json layers_request(const Json& net) {
  return {{"command", "layers"}, {"net", net}, {"device", "H100_SXM"}, {"precision", "fp32"}};
}

double num(const Json& j) { return j.get<double>(); }

// The position of layer `name` in the built network (its topological order).
int index_of(const paleo::Network& n, const std::string& name) {
  for (std::size_t i = 0; i < n.layers.size(); ++i)
    if (n.layers[i].name == name) return static_cast<int>(i);
  FAIL("no layer " << name);
  return -1;
}

// The search on one node of 4 devices (links of 20 and 10 GB/s); it points at `n`, which must outlive it.
paleo::StrategyProblem four_device_problem(const paleo::Network& n, const paleo::Request& r) {
  paleo::Cluster c;
  c.nodes = 1;
  c.devices_per_node = 4;
  c.intra.bandwidth_gb_per_s = 20;
  c.inter.bandwidth_gb_per_s = 10;
  return paleo::make_strategy_problem(n, r.scenario.cost_model(), r.scenario.cost, c,
                                      paleo::collective_settings(r.scenario.device, 1));
}

constexpr double kImage = 8.0 * 14 * 14 * 64;  // elements of the features
constexpr double kScale = 8.0 * 64;            // elements of the per-channel scale

}  // namespace

TEST_CASE("An Elementwise product broadcasts a per-channel scale over the image", "[squeeze_excitation][cost]") {
  const Json x = x_row(layers_request(broadcast_net("product")));
  CHECK(x["output"] == Json({8, 14, 14, 64}));
  // Forward: read the features and the scale, write the product (fp32: 4 bytes an element).
  CHECK(num(x["forward"]["bytes"]) == 4 * (kImage + kScale + kImage));
  CHECK(num(x["forward"]["flops"]) == kImage);
  // Backward, as PyTorch computes x * s: dX = dY * s reads dY and s and writes dX; ds = sum(dY * x)
  // reads dY and x and writes ds.
  CHECK(num(x["backward_data"]["bytes"]) == 4 * ((kImage + kScale + kImage) + (kImage + kImage + kScale)));
  // One multiply an element for dX; a multiply and an add an element for ds.
  CHECK(num(x["backward_data"]["flops"]) == 3 * kImage);
  // The broadcast input first: the same shape and the same costs.
  const Json swapped = x_row(layers_request(broadcast_net("product", {"pool", "pre"})));
  CHECK(swapped["output"] == Json({8, 14, 14, 64}));
  CHECK(num(swapped["forward"]["bytes"]) == num(x["forward"]["bytes"]));
  CHECK(num(swapped["backward_data"]["bytes"]) == num(x["backward_data"]["bytes"]));
}

TEST_CASE("A broadcast sum reduces its gradient over the broadcast dimensions", "[squeeze_excitation][cost]") {
  const Json sum = x_row(layers_request(broadcast_net("")));
  CHECK(num(sum["forward"]["bytes"]) == 4 * (kImage + kScale + kImage));
  // Read dY once; write dX (the gradient itself) and ds, which reads dY again to sum it.
  CHECK(num(sum["backward_data"]["bytes"]) == 4 * (kImage + kImage + kImage + kScale));
  CHECK(num(sum["backward_data"]["flops"]) == kImage);
  // Of inputs of one shape, "sum" is the default and costs as before: read dY, write each input's.
  const Json same = x_row(layers_request(broadcast_net("sum", {"pre", "twin"})));
  CHECK(num(same["backward_data"]["bytes"]) == 4 * 3 * kImage);
  CHECK(num(same["backward_data"]["flops"]) == 0);
}

TEST_CASE("Elementwise inputs that neither match nor broadcast are refused", "[squeeze_excitation][bad_input]") {
  Json net = broadcast_net("product");
  // [8, 7, 7, 64]: 7 against 14 rows, and neither is 1.
  net["layers"]["pool"]["ksize"] = {1, 2, 2, 1};
  net["layers"]["pool"]["strides"] = {1, 2, 2, 1};
  Json out = paleo::handle_request(layers_request(net));
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["layer"] == "x");
  CHECK(out["error"]["field"] == "parents");
  INFO(out.dump());
  CHECK(out["error"]["message"].get<std::string>().find("[8x7x7x64]") != std::string::npos);
  // Three inputs: the shape so far ([8, 14, 14, 64], the first two broadcast) against the third.
  net = broadcast_net("product", {"pool", "pre", "pool7"});
  net["layers"]["pool7"] = {{"parents", {"pre"}}, {"type", "AvgPool"}, {"ksize", {1, 2, 2, 1}},
                            {"strides", {1, 2, 2, 1}}, {"padding", "VALID"}};
  out = paleo::handle_request(layers_request(net));
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["message"].get<std::string>().find("[8x14x14x64] and [8x7x7x64]") != std::string::npos);
  out = paleo::handle_request(layers_request(broadcast_net("mean")));
  REQUIRE_FALSE(out["ok"].get<bool>());
  CHECK(out["error"]["layer"] == "x");
  CHECK(out["error"]["field"] == "operation");
}

TEST_CASE("The layer-wise search moves a broadcast scale whole to every image part", "[squeeze_excitation][search]") {
  // On one node of 4 devices: pool's [8, 1, 1, 64] output whole on device 0 (n1 c1 h1 w1), x split
  // into 2 x 2 image parts. Each part needs its samples' whole scale, 512 values; device 0 holds
  // them, the other three lack all of them: 3 x 512 x 4 bytes (fp32).
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", broadcast_net("product")},
                                                     {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  const paleo::StrategyProblem p = four_device_problem(n, r);
  const int pre = index_of(n, "pre"), pool = index_of(n, "pool"), x = index_of(n, "x");
  CHECK(paleo::transfer_entry_bytes(p, pool, {1, 1, 1, 1}, x, {1, 1, 2, 2}) == 3 * kScale * 4);
  // Split by samples on both sides, every device already holds its samples' scale.
  CHECK(paleo::transfer_entry_bytes(p, pool, {4, 1, 1, 1}, x, {4, 1, 1, 1}) == 0);
  // The features (pre, split by samples) reach x's image parts a quarter at a time: device q holds
  // samples 2q, 2q + 1 and needs a quarter of the image of all 8, of which it lacks 6 samples.
  CHECK(paleo::transfer_entry_bytes(p, pre, {4, 1, 1, 1}, x, {1, 1, 2, 2}) == 4 * (6 * 7 * 7 * 64) * 4);
}

TEST_CASE("The layer-wise search moves a channel-broadcast or flat broadcast input by its own size",
          "[squeeze_excitation][search]") {
  // A one-channel gate [8, 14, 14, 1] (a 1x1 convolution of pre) times pre [8, 14, 14, 64].
  Json gated = broadcast_net("product", {"pre", "gate"});
  gated["layers"]["gate"] = {{"parents", {"pre"}}, {"type", "Convolution"}, {"filter", {1, 1, 64, 1}},
                             {"strides", {1, 1, 1, 1}}, {"padding", "VALID"}, {"activation_fn", nullptr}};
  const paleo::Request r = paleo::parse_request(Json{{"command", "layers"}, {"net", gated}, {"profile", "paleo2026"}});
  const paleo::Network n = paleo::build_network(r.scenario.spec, r.scenario.graph, r.scenario.batch_size);
  const paleo::StrategyProblem p = four_device_problem(n, r);
  const int gate = index_of(n, "gate"), x = index_of(n, "x");
  // Both split by samples: each device holds its samples' gate.
  CHECK(paleo::transfer_entry_bytes(p, gate, {4, 1, 1, 1}, x, {4, 1, 1, 1}) == 0);
  // x split 4 ways by channels: each part needs the whole single channel, 8 x 14 x 14 values, which
  // three devices lack.
  CHECK(paleo::transfer_entry_bytes(p, gate, {1, 1, 1, 1}, x, {1, 4, 1, 1}) == 3 * 8 * 14 * 14 * 4);

  // Flat: [8, 64] times [8, 1] (an InnerProduct to one output), both split by samples.
  const Json flat = {{"name", "flat"},
                     {"layers",
                      {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {8, 64}}}},
                       {"pre", {{"parents", {"data"}}, {"type", "Generic"}}},
                       {"g", {{"parents", {"pre"}}, {"type", "InnerProduct"}, {"num_outputs", 1}}},
                       {"x", {{"parents", {"pre", "g"}}, {"type", "Elementwise"}, {"operation", "product"}}}}}};
  const paleo::Request rf = paleo::parse_request(Json{{"command", "layers"}, {"net", flat}, {"profile", "paleo2026"}});
  const paleo::Network nf = paleo::build_network(rf.scenario.spec, rf.scenario.graph, rf.scenario.batch_size);
  const paleo::StrategyProblem pf = four_device_problem(nf, rf);
  CHECK(paleo::transfer_entry_bytes(pf, index_of(nf, "g"), {4, 1, 1, 1}, index_of(nf, "x"), {4, 1, 1, 1}) == 0);
}
