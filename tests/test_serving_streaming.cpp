// Serving on a training stack's era streams at the device's measured streaming rate
// (stream_bandwidth_gb_per_s): the memory fraction it takes by hand, what keeps the era's own
// (a device without the measurement, a training request, the request's efficiency), and a
// measurement above the peak refused with the field named.
#include <catch2/catch.hpp>

#include <string>

#include "api_answer.h"
#include "core/api.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& answer = ok_answer;  // tests/api_answer.h

Json serving(const Json& device, const Json& extra = Json::object()) {
  Json r = {{"command", "inference"}, {"net", "llama3_8b"}, {"device", device},    {"tp", 1},
            {"batch_size", 8},        {"prompt_len", 512},  {"generate_len", 128}, {"precision", "bf16"}};
  r.update(extra);
  return r;
}

double memory_fraction(const Json& out) { return out["software_era"]["efficiency"]["memory_fraction"].get<double>(); }

// The H100 SXM preset as a user's device object, with or without its streaming measurement.
Json h100_object(double stream_gb_per_s) {
  Json d = {{"name", "H100 SXM (a copy)"},
            {"generation", "hopper"},
            {"clock_mhz", 1980},
            {"peak_gflops", 67000},
            {"mem_bandwidth_gb_per_s", 3350},
            {"memory_bytes", 85899345920.0},
            {"sm_count", 132},
            {"peak_tensor_gflops", {{"bf16", 989000}, {"fp8", 1979000}}}};
  if (stream_gb_per_s > 0) d["stream_bandwidth_gb_per_s"] = stream_gb_per_s;
  return d;
}

}  // namespace

TEST_CASE("serving on Hopper streams at the H100's and H200's measured rates, not the training era's") {
  // presets/devices.json: a 822 MB fp32 ReLU read and written in 0.5502 ms (H100), 0.3920 ms (H200).
  const Json h100 = answer(serving("H100_SXM"));
  CHECK(memory_fraction(h100) == Approx(2988.0 / 3350).epsilon(1e-9));
  CHECK(h100["software_era"]["name"].get<std::string>().find("measured streaming rate") != std::string::npos);
  CHECK(memory_fraction(answer(serving("H200_SXM"))) == Approx(4195.0 / 4800).epsilon(1e-9));
  // Training on the same device keeps the era's fitted fraction (megatron_core_hopper_2024: 0.7).
  const Json train = answer({{"command", "estimate"},
                             {"net", "llama3_8b"},
                             {"device", "H100_SXM"},
                             {"devices_per_node", 8},
                             {"precision", "bf16"},
                             {"global_batch", 8}});
  CHECK(memory_fraction(train) == Approx(0.7));
}

TEST_CASE("the streaming rate is the whole difference: the same step as that fraction stated") {
  const Json by_default = answer(serving("H100_SXM"));
  const Json stated = answer(serving("H100_SXM", {{"efficiency", {{"memory_fraction", 2988.0 / 3350}}}}));
  CHECK(by_default["decode_ms_per_token"].get<double>() == Approx(stated["decode_ms_per_token"].get<double>()));
  CHECK(by_default["prefill_ms"].get<double>() == Approx(stated["prefill_ms"].get<double>()));
  // A user's device streaming at half its peak serves as a stated fraction of 0.5 does.
  const Json half = answer(serving(h100_object(1675)));
  CHECK(memory_fraction(half) == Approx(0.5));
  const Json half_stated = answer(serving(h100_object(0), {{"efficiency", {{"memory_fraction", 0.5}}}}));
  CHECK(half["decode_ms_per_token"].get<double>() == Approx(half_stated["decode_ms_per_token"].get<double>()));
  // Streaming faster than 0.7 of the peak makes a weight-bound decode step faster.
  CHECK(by_default["decode_ms_per_token"].get<double>() <
        answer(serving(h100_object(0)))["decode_ms_per_token"].get<double>());
}

TEST_CASE("what keeps the era's memory fraction: no measurement, or the request's own efficiency") {
  CHECK(memory_fraction(answer(serving(h100_object(0)))) == Approx(0.7));
  CHECK(memory_fraction(answer(serving("A100_80GB_SXM"))) == Approx(0.7));  // no Ampere measurement
  CHECK(memory_fraction(answer(serving("H100_SXM", {{"efficiency", {{"memory_fraction", 0.6}}}}))) == Approx(0.6));
}

TEST_CASE("a streaming rate above the device's peak bandwidth is refused, naming the field") {
  const Json out = paleo::handle_request(serving(h100_object(4000)));
  REQUIRE_FALSE(out.value("ok", true));
  const std::string error = out.dump();
  CHECK(error.find("stream_bandwidth_gb_per_s") != std::string::npos);
  CHECK(error.find("device") != std::string::npos);
  Json below_zero = h100_object(0);
  below_zero["stream_bandwidth_gb_per_s"] = -1;
  const Json negative = paleo::handle_request(serving(below_zero));
  CHECK_FALSE(negative.value("ok", true));
}
