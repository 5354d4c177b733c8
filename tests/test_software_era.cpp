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

}  // namespace

TEST_CASE("A device's generation picks its software era", "[transformer][era]") {
  const paleo::Presets& p = paleo::Presets::instance();
  CHECK(paleo::default_software_era(p.device("V100_SXM2_32GB")).key == "megatron_lm_2019");
  CHECK(paleo::default_software_era(p.device("A100_80GB_SXM")).key == "megatron_lm_2021");
  CHECK(paleo::default_software_era(p.device("H100_SXM")).key == "megatron_lm_2021");
  CHECK(paleo::default_software_era(p.device("TITAN_X")).key == "untuned");
  // CNN requests pick among the CNN eras (test_cnn_precision_era.cpp).
  CHECK(paleo::default_software_era(p.device("V100_SXM2_32GB"), "cnn").key == "pytorch_cudnn8_2021");
  CHECK(paleo::default_software_era(p.device("TITAN_X"), "cnn").key == "cudnn_r4_2016");
  const paleo::Json r = estimate({{"device", "A100_80GB_SXM"}});
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["software_era"]["key"] == "megatron_lm_2021");
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
    REQUIRE(era.contains("residuals"));
    REQUIRE(era.contains("cv_residuals"));
    CHECK(era["residuals"].size() == era["fitted_on"].size());
    CHECK(era["cv_residuals"].size() == era["fitted_on"].size());
    for (auto it = era["residuals"].begin(); it != era["residuals"].end(); ++it) {
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

TEST_CASE("Each era is fitted only to cases that state it, and states no fitted knob", "[cnn][era][validation]") {
  const std::vector<paleo::ValidationCase> cases = paleo::load_validation_cases();
  for (const paleo::Json& era : paleo::Presets::instance().software_eras()) {
    INFO(era["key"].get<std::string>());
    REQUIRE(era.contains("applies_to"));
    for (const paleo::Json& id : era["fitted_on"]) {
      INFO(id.get<std::string>());
      bool found = false;
      for (const paleo::ValidationCase& c : cases)
        if (c.id == id.get<std::string>()) {
          found = true;
          CHECK(c.expressible);
          CHECK(c.request.value("software_era", "") == era["key"].get<std::string>());
          // A case sets what its source states; the era's parameters are never set per case.
          CHECK_FALSE(c.request.contains("efficiency"));
          CHECK_FALSE(c.request.contains("ppp_comp"));
          CHECK_FALSE(c.request.contains("software"));
        }
      CHECK(found);
    }
  }
}
