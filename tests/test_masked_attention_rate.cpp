// The masked multi-head attention's rate per SM cycle (core/transformer/masked_attention_rate.h):
// its time by hand, and the constant the same as the fit recorded beside the cases it was fitted
// to (presets/validation/inference_cases.json, "fits"), whose residuals the error band reads.
#include <catch2/catch.hpp>

#include "core/base/json.h"
#include "core/spec/presets.h"
#include "core/transformer/masked_attention_rate.h"

TEST_CASE("The masked attention's SMs consume 13 cache elements a cycle", "[serving][attention]") {
  paleo::Device a100;
  a100.sm_count = 108;
  a100.clock_mhz = 1410;
  // 90.6 G elements (Llama 2 70B's fp16 cache at 240 sequences of 1,152 tokens on 4 A100s, read by
  // 8 query heads) over 108 x 1.41 G cycles/s x 13: 45.8 ms.
  CHECK(paleo::masked_attention_sm_ms(a100, 90.6e9) == Approx(45.766).epsilon(1e-4));
  paleo::Device unknown;
  unknown.clock_mhz = 1410;
  CHECK(paleo::masked_attention_sm_ms(unknown, 90.6e9) == 0);
}

TEST_CASE("The masked attention's rate is the one its fit records", "[serving][attention][validation]") {
  int found = 0;
  for (const auto& file : paleo::Presets::instance().validation_files())
    for (const paleo::Json& fit : file.second->value("fits", paleo::Json::array()))
      if (fit.at("constant") == "kMaskedAttentionElementsPerSmCycle") {
        ++found;
        CHECK(fit.at("value").get<double>() == paleo::kMaskedAttentionElementsPerSmCycle);
        CHECK(fit.at("residuals").size() == 11);
      }
  CHECK(found == 1);
}
