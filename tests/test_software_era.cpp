// Software eras (transformer and CNN): the era a device's generation picks, a request's own era
// or efficiency, and the fitted eras of presets/software_eras.json reproducing the residuals
// recorded beside them (so that a change of the model or of the data cannot leave the recorded
// fit stale).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/api.h"
#include "core/efficiency/software_era.h"
#include "core/spec/presets.h"
#include "core/validation/validation_case.h"

namespace {

paleo::Json estimate(paleo::Json extra) {
  paleo::Json r = {{"command", "estimate"}, {"net", "gpt3_1_3b"}, {"tp", 1}, {"global_batch", 8}};
  r.update(extra);
  return paleo::handle_request(r);
}

std::string generation_of(const paleo::Json& request) {
  const paleo::Json& device = request.at("device");
  if (device.is_object()) return device.value("generation", "");
  return paleo::Presets::instance().device(device.get<std::string>()).generation;
}

}  // namespace

TEST_CASE("An era refitted on a generation runs with that fit on its devices only", "[cnn][era]") {
  const paleo::Json* era = nullptr;
  for (const paleo::Json& e : paleo::Presets::instance().software_eras())
    if (e.at("key") == "tensorflow_2017") era = &e;
  REQUIRE(era != nullptr);
  const paleo::Json& own = era->at("efficiency");
  const paleo::Json& kepler = era->at("by_generation").at("kepler").at("efficiency");
  auto run = [](const char* device, paleo::Json extra = paleo::Json::object()) {
    paleo::Json r = {{"command", "estimate"}, {"net", "vgg16"}, {"batch_size", 32}, {"device", device},
                     {"software_era", "tensorflow_2017"}};
    r.update(extra);
    const paleo::Json out = paleo::handle_request(r);
    REQUIRE(out.at("ok").get<bool>());
    return out;
  };
  const paleo::Json k80 = run("K80_GK210"), p100 = run("P100_SXM2");
  const paleo::Json &k80_era = k80.at("software_era"), &p100_era = p100.at("software_era");
  CHECK(k80_era.at("key") == "tensorflow_2017");
  CHECK(k80_era.at("name").get<std::string>().find("refitted on kepler") != std::string::npos);
  CHECK(p100_era.at("name").get<std::string>().find("refitted") == std::string::npos);
  for (const char* parameter : {"conv_ceiling", "vector_ceiling"}) {
    INFO(parameter);
    CHECK(k80_era.at("efficiency").at(parameter) == kepler.at(parameter));
    CHECK(p100_era.at("efficiency").at(parameter) == own.at(parameter));
  }
  // The parameters the refit leaves alone are the era's.
  CHECK(k80_era.at("efficiency").at("memory_fraction") == own.at("memory_fraction"));
  // Lower ceilings than the era's own (Kepler reaches less of its peak): a slower step.
  const paleo::Json as_pascal = run("K80_GK210", {{"efficiency", {{"conv_ceiling", own.at("conv_ceiling")},
                                                                  {"vector_ceiling", own.at("vector_ceiling")}}}});
  CHECK(kepler.at("conv_ceiling").get<double>() < own.at("conv_ceiling").get<double>());
  CHECK(k80.at("totals").at("step_ms").get<double>() > as_pascal.at("totals").at("step_ms").get<double>());
  // A request's own efficiency still has the last word.
  CHECK(run("K80_GK210", {{"efficiency", {{"conv_ceiling", 0.5}}}})["software_era"]["efficiency"]["conv_ceiling"] == 0.5);
}

TEST_CASE("A malformed by_generation is an error naming the presets file and the generation", "[era]") {
  paleo::Json era = {{"key", "tensorflow_2017"}, {"by_generation", paleo::Json::array()}};
  CHECK_THROWS_WITH(paleo::era_fits(era), Catch::Contains("software_eras.json") && Catch::Contains("by_generation"));
  era["by_generation"] = {{"kepler", {{"fit", {"conv_ceiling"}}}}};
  CHECK_THROWS_WITH(paleo::era_fits(era), Catch::Contains("by_generation.kepler"));
  era["by_generation"] = {{"kepler", {{"efficiency", {{"conv_ceiling", 0.3}}}}}};
  const std::vector<paleo::EraFit> fits = paleo::era_fits(era);
  REQUIRE(fits.size() == 2);
  CHECK(fits[0].generation.empty());
  CHECK(fits[0].fit == &era);
  CHECK(fits[1].generation == "kepler");
  CHECK(fits[1].fit->at("efficiency").at("conv_ceiling") == 0.3);
}

TEST_CASE("A device's generation picks its software era", "[transformer][era]") {
  const paleo::Presets& p = paleo::Presets::instance();
  CHECK(paleo::default_software_era(p.device("V100_SXM2_32GB")).key == "megatron_lm_2019");
  CHECK(paleo::default_software_era(p.device("A100_80GB_SXM")).key == "megatron_lm_2021");
  // Hopper has its own, fitted to Hopper runs of Megatron-Core and NeMo (Blackwell extrapolates it).
  CHECK(paleo::default_software_era(p.device("H100_SXM")).key == "megatron_core_hopper_2024");
  CHECK(paleo::default_software_era(p.device("B200")).key == "megatron_core_hopper_2024");
  CHECK(paleo::default_software_era(p.device("TITAN_X")).key == "untuned");
  // CNN requests pick among the CNN eras (test_cnn_precision_era.cpp).
  CHECK(paleo::default_software_era(p.device("V100_SXM2_32GB"), "cnn").key == "pytorch_cudnn8_2021");
  CHECK(paleo::default_software_era(p.device("TITAN_X"), "cnn").key == "cudnn_r4_2016");
  const paleo::Json r = estimate({{"device", "A100_80GB_SXM"}});
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["software_era"]["key"] == "megatron_lm_2021");
}

TEST_CASE("A ZeRO-3 request that names no stack runs on its generation's FSDP stack", "[transformer][era]") {
  const paleo::Presets& p = paleo::Presets::instance();
  // Megatron's distributed optimizer shards no parameters: a ZeRO-3 request runs on PyTorch's FSDP.
  CHECK(paleo::default_software_era(p.device("H100_SXM"), "transformer", true).key == "pytorch_fsdp_hopper_2024");
  CHECK(paleo::default_software_era(p.device("B200"), "transformer", true).key == "pytorch_fsdp_hopper_2024");
  CHECK(paleo::default_software_era(p.device("A100_80GB_SXM"), "transformer", true).key == "pytorch_fsdp_a100_2023");
  // No FSDP era on Volta: its default stays; CNNs and serving have no ZeRO stage.
  CHECK(paleo::default_software_era(p.device("V100_SXM2_32GB"), "transformer", true).key == "megatron_lm_2019");
  CHECK(paleo::default_software_era(p.device("H100_SXM"), "cnn", true).key == "pytorch_cudnn9_2025");
  CHECK(paleo::default_software_era(p.device("H100_SXM"), "inference", true).chosen_by == "generation");
  // Through the API, the response says why: a ZeRO-3 request, another stage, a named era.
  const paleo::Json zero3 = estimate({{"device", "H100_SXM"}, {"zero", 3}});
  REQUIRE(zero3["ok"].get<bool>());
  CHECK(zero3["software_era"]["key"] == "pytorch_fsdp_hopper_2024");
  CHECK(zero3["software_era"]["chosen_by"] == "zero3");
  bool said = false;
  for (const paleo::Json& w : zero3["warnings"])
    said = said || w.get<std::string>().find("ZeRO 3 with no software_era: priced on") == 0;
  CHECK(said);
  const paleo::Json zero1 = estimate({{"device", "H100_SXM"}, {"zero", 1}});
  CHECK(zero1["software_era"]["key"] == "megatron_core_hopper_2024");
  CHECK(zero1["software_era"]["chosen_by"] == "generation");
  const paleo::Json named =
      estimate({{"device", "H100_SXM"}, {"zero", 3}, {"software_era", "megatron_core_hopper_2024"}});
  CHECK(named["software_era"]["key"] == "megatron_core_hopper_2024");
  CHECK_FALSE(named["software_era"].contains("chosen_by"));
  // The presets list says which eras are the ZeRO-3 defaults of which generations.
  const paleo::Json presets = paleo::handle_request({{"command", "presets"}});
  for (const paleo::Json& era : presets["software_eras"]) {
    INFO(era["key"]);
    const bool fsdp = era["key"] == "pytorch_fsdp_hopper_2024" || era["key"] == "pytorch_fsdp_a100_2023";
    CHECK(era["zero3_generations"].empty() == !fsdp);
  }
}

TEST_CASE("presets lists the software eras a request may name, and each runs as named", "[era]") {
  const paleo::Json r = paleo::handle_request({{"command", "presets"}});
  REQUIRE(r["ok"].get<bool>());
  const paleo::Json& eras = r["software_eras"];
  REQUIRE(eras.size() == paleo::Presets::instance().software_eras().size());
  bool found_2022 = false;
  for (const paleo::Json& era : eras) {
    const std::string key = era["key"].get<std::string>();
    INFO(key);
    CHECK(!era["name"].get<std::string>().empty());
    const bool transformer = era["applies_to"][0] == "transformer";
    paleo::Json request = transformer ? paleo::Json{{"command", "estimate"}, {"net", "gpt3_125m"}, {"global_batch", 8}}
                                      : paleo::Json{{"command", "estimate"}, {"net", "alex_v2"}};
    request["device"] = "A100_80GB_SXM";
    request["software_era"] = key;
    const paleo::Json priced = paleo::handle_request(request);
    REQUIRE(priced["ok"].get<bool>());
    CHECK(priced["software_era"]["key"] == key);
    if (key == "megatron_lm_2022") {
      found_2022 = true;
      CHECK(transformer);
      CHECK(era["generations"].empty());  // named by a request, the default of no generation
    }
    // TensorFlow 2017 is fitted on Pascal and refitted on Kepler; no other era is refitted.
    CHECK(era["refitted_on"] == (key == "tensorflow_2017" ? paleo::Json{"kepler"} : paleo::Json::array()));
  }
  CHECK(found_2022);
}

TEST_CASE("A request's era and efficiency override the default", "[transformer][era]") {
  const paleo::Json base = estimate({{"device", "A100_80GB_SXM"}});
  const paleo::Json older = estimate({{"device", "A100_80GB_SXM"}, {"software_era", "megatron_lm_2019"}});
  REQUIRE(older["ok"].get<bool>());
  CHECK(older["step_ms"].get<double>() > base["step_ms"].get<double>());
  // Halving the matrix-product ceiling slows the step, but less than twice (not all is GEMM).
  const double ceiling = base["software_era"]["efficiency"]["matmul_ceiling"].get<double>();
  const paleo::Json slower = estimate({{"device", "A100_80GB_SXM"}, {"efficiency", {{"matmul_ceiling", ceiling / 2}}}});
  REQUIRE(slower["ok"].get<bool>());
  const double ratio = slower["step_ms"].get<double>() / base["step_ms"].get<double>();
  CHECK(ratio > 1.3);
  CHECK(ratio < 2.0);
  CHECK(slower["software_era"]["efficiency"]["matmul_ceiling"].get<double>() == ceiling / 2);
  CHECK(estimate({{"software_era", "2031"}})["error"]["field"] == "software_era");
  CHECK(estimate({{"efficiency", {{"matmul_ceiling", 1.5}}}})["error"]["field"] == "efficiency.matmul_ceiling");
  CHECK(estimate({{"efficiency", {{"speed", 1}}}})["error"]["field"] == "efficiency");
}

TEST_CASE("Each fitted era reproduces the residuals recorded with it", "[transformer][cnn][era][validation]") {
  const paleo::Presets& p = paleo::Presets::instance();
  // Every family: the transformer eras' cases and the CNN eras' (cnn_single_gpu, cnn_data_parallel).
  const paleo::Json validation = paleo::handle_request({{"command", "validate"}});
  REQUIRE(validation["ok"].get<bool>());
  for (const paleo::Json& era : p.software_eras()) {
    INFO(era["key"].get<std::string>());
    for (const paleo::EraFit& f : paleo::era_fits(era)) {
      const paleo::Json* fit = f.fit;
      INFO(f.generation);
      REQUIRE(fit->contains("residuals"));
      REQUIRE(fit->contains("cv_residuals"));
      CHECK((*fit)["residuals"].size() == (*fit)["fitted_on"].size());
      CHECK((*fit)["cv_residuals"].size() == (*fit)["fitted_on"].size());
      for (auto it = (*fit)["residuals"].begin(); it != (*fit)["residuals"].end(); ++it) {
        bool found = false;
        for (const paleo::Json& c : validation["cases"])
          if (c["id"] == it.key()) {
            found = true;
            INFO(it.key());
            CHECK(std::fabs(c["error"].get<double>() - it.value().get<double>()) < 1e-3);
          }
        CHECK(found);
      }
    }
  }
}

TEST_CASE("Each era is fitted only to cases that state it, and states no fitted knob", "[cnn][era][validation]") {
  const std::vector<paleo::ValidationCase> cases = paleo::load_validation_cases();
  for (const paleo::Json& era : paleo::Presets::instance().software_eras()) {
    INFO(era["key"].get<std::string>());
    REQUIRE(era.contains("applies_to"));
    // The era's own fit leaves out the generations it was refitted on; each refit takes only its own.
    const std::vector<paleo::EraFit> fits = paleo::era_fits(era);
    auto refitted = [&](const std::string& generation) {
      for (const paleo::EraFit& f : fits)
        if (!f.generation.empty() && f.generation == generation) return true;
      return false;
    };
    for (const auto& [generation, fit] : fits) {
      if (!generation.empty()) {  // a generation device presets name, not a misspelling
        INFO(generation);
        bool named = false;
        for (const paleo::Json& d : paleo::Presets::instance().devices()) named = named || d.value("generation", "") == generation;
        CHECK(named);
      }
      for (const paleo::Json& id : fit->at("fitted_on")) {
        INFO(id.get<std::string>());
        bool found = false;
        for (const paleo::ValidationCase& c : cases)
          if (c.id == id.get<std::string>()) {
            found = true;
            CHECK(c.expressible);
            CHECK(c.request.value("software_era", "") == era["key"].get<std::string>());
            if (generation.empty())
              CHECK_FALSE(refitted(generation_of(c.request)));
            else
              CHECK(generation_of(c.request) == generation);
            // A case sets what its source states; the era's parameters are never set per case.
            CHECK_FALSE(c.request.contains("efficiency"));
            CHECK_FALSE(c.request.contains("ppp_comp"));
            CHECK_FALSE(c.request.contains("software"));
          }
        CHECK(found);
      }
    }
  }
}
