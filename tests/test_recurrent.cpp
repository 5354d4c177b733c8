// Recurrent layers (docs/model.md, "Recurrent layers"): LSTM, GRU and Elman RNN over T steps by
// hand (parameters, FLOPs of each pass, BPTT memory), fused against unfused cells, and the
// 2-layer LSTM language model preset.
#include <catch2/catch.hpp>

#include "core/api.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

// data [N, T, I] -> rnn (H units) -> rnn2 (H units)
Json spec(const std::string& type, int n, int t, int in, int h, bool fused = true) {
  Json s = {{"name", "rnn"}, {"layers", Json::object()}};
  s["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {n, t, in}}};
  s["layers"]["pre"] = {{"parents", {"data"}}, {"type", "Generic"}};  // so rnn computes its input gradient
  s["layers"]["rnn"] = {{"parents", {"pre"}}, {"type", type}, {"num_units", h}, {"fused", fused}};
  return s;
}

Json layers(const Json& net, const std::string& profile = "paleo2026") {
  const Json out = paleo::handle_request({{"command", "layers"}, {"net", net}, {"device", "V100_SXM2_16GB"},
                                          {"profile", profile}});
  INFO(out.dump());
  REQUIRE(out["ok"].get<bool>());
  return out;
}

const Json& layer(const Json& out, const std::string& name) { return layer_row(out, name); }

}  // namespace

TEST_CASE("LSTM, GRU and Elman RNN: parameters and FLOPs of each pass by hand") {
  const double n = 8, t = 10, in = 32, h = 64;
  struct Case { const char* type; double gates, elementwise; };
  for (const Case& c : {Case{"LSTM", 4, 13}, Case{"GRU", 3, 11}, Case{"RNN", 1, 2}}) {
    INFO(c.type);
    const Json l = layer(layers(spec(c.type, 8, 10, 32, 64)), "rnn");
    const double gh = c.gates * h;
    CHECK(l["params"].get<double>() == gh * (in + h) + 2 * gh);  // cuDNN's two bias vectors
    CHECK(l["output"] == Json({8, 10, 64}));
    // Forward: x W_x for all steps, h W_h per step, the gates.
    CHECK(l["forward"]["flops"].get<double>() == 2 * n * t * in * gh + t * 2 * n * h * gh + n * t * h * c.elementwise);
    // Data gradient: the gates twice, d(gates) W_h^T per step, dx for all steps.
    CHECK(l["backward_data"]["flops"].get<double>() ==
          2 * n * t * h * c.elementwise + t * 2 * n * gh * h + 2 * n * t * gh * in);
    // Filter gradients over all steps.
    CHECK(l["backward_filter"]["flops"].get<double>() == 2 * in * n * t * gh + 2 * h * n * t * gh);
  }
}

TEST_CASE("an unfused cell launches more kernels and moves more bytes than a fused one") {
  const Json fused = layer(layers(spec("LSTM", 20, 35, 650, 650, true)), "rnn");
  const Json unfused = layer(layers(spec("LSTM", 20, 35, 650, 650, false)), "rnn");
  CHECK(unfused["forward"]["flops"] == fused["forward"]["flops"]);
  CHECK(unfused["forward"]["bytes"].get<double>() > fused["forward"]["bytes"].get<double>());
  CHECK(unfused["forward"]["total_ms"].get<double>() > fused["forward"]["total_ms"].get<double>());
  // Fused: per unit and step, read 4 gates and the cell, write h and the cell (7 values) beyond
  // the products; unfused: 9 kernels reading two operands and writing one (27 values).
  const double units = 20.0 * 35 * 650;
  CHECK(unfused["forward"]["bytes"].get<double>() - fused["forward"]["bytes"].get<double>() == (27 - 7) * units * 4);
}

TEST_CASE("BPTT keeps every step's gates: activation memory by hand") {
  const Json out = paleo::handle_request({{"command", "estimate"}, {"net", spec("LSTM", 8, 10, 32, 64)},
                                          {"device", "V100_SXM2_16GB"}, {"cluster", "dgx1_v100_edr"}, {"nodes", 1}});
  REQUIRE(out["ok"].get<bool>());
  // data and pre: 8 x 10 x 32 each; the LSTM: its output 8 x 10 x 64 plus 4 gates and the cell.
  const double expected = (2 * 8 * 10 * 32 + 8 * 10 * 64 * (1 + 4 + 1)) * 4.0;
  CHECK(out["cluster"]["memory"][0]["activations_bytes"].get<double>() == expected);
}

TEST_CASE("the 2-layer LSTM language model preset (Zaremba et al. 2014, medium)") {
  const Json out = layers("lstm_lm_2layer");
  // Two LSTMs of 4 x 650 x (650 + 650) + 2 x 2600 and the 650 x 10000 decoder with its bias.
  CHECK(out["totals"]["params"].get<double>() == 2 * (4.0 * 650 * 1300 + 2 * 2600) + 650.0 * 10000 + 10000);
  // The first LSTM reads the net's input: no input gradient.
  CHECK(layer(out, "lstm1")["backward_data"]["flops"].get<double>() <
        layer(out, "lstm2")["backward_data"]["flops"].get<double>());
  // paleo2017 prices it too.
  CHECK(layers("lstm_lm_2layer", "paleo2017")["totals"]["step_ms"].get<double>() > 0);
}

TEST_CASE("bad recurrent layers name the layer and field") {
  auto error = [](const Json& net) {
    return paleo::handle_request({{"command", "layers"}, {"net", net}})["error"];
  };
  Json four_d = spec("LSTM", 8, 10, 32, 64);
  four_d["layers"]["data"]["tensor"] = {8, 10, 32, 3};
  CHECK(error(four_d)["field"] == "parents");
  Json no_units = spec("GRU", 8, 10, 32, 64);
  no_units["layers"]["rnn"].erase("num_units");
  CHECK(error(no_units)["field"] == "num_units");
  Json bad_fused = spec("RNN", 8, 10, 32, 64);
  bad_fused["layers"]["rnn"]["fused"] = "yes";
  CHECK(error(bad_fused)["field"] == "fused");
  CHECK(error(bad_fused)["layer"] == "rnn");
}
