// The expected error every estimate carries (core/validation/expected_error.h): the figures
// recorded in presets/error_bands.json must be what `validate` computes today, so that a change
// of the model, the cases or the eras that moves them fails here until the file is refreshed
// (scripts/refresh_error_bands.py, docs/validation.md).
#include <iomanip>
#include <sstream>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/api.h"
#include "core/efficiency/software_era.h"
#include "core/spec/presets.h"
#include "core/validation/expected_error.h"

namespace {

using Json = nlohmann::ordered_json;
constexpr double kTolerance = 1e-3;
const char* const kRefresh = "presets/error_bands.json is stale: run scripts/build.sh native && "
                             "scripts/refresh_error_bands.py, then rebuild (docs/validation.md)";

const Json& suite() {
  static const Json response = paleo::handle_request(Json{{"command", "validate"}});
  return response;
}

// Leave-one-out and in-sample residuals of every era and of its refits on device generations
// ("by_generation"), and of the core's constants fitted to validation cases (the "fits" beside a
// validation file's "cases"), by case id.
std::map<std::string, double> era_residuals(const char* field) {
  std::map<std::string, double> out;
  auto add = [&](const Json& fit) {
    if (fit.contains(field))
      for (auto it = fit[field].begin(); it != fit[field].end(); ++it) out[it.key()] = it.value().get<double>();
  };
  for (const Json& era : paleo::Presets::instance().software_eras())
    for (const paleo::EraFit& f : paleo::era_fits(era)) add(*f.fit);
  for (const auto& file : paleo::Presets::instance().validation_files())
    for (const Json& fit : file.second->value("fits", Json::array())) add(fit);
  return out;
}

std::vector<const Json*> scored(const std::string& family) {
  std::vector<const Json*> out;
  for (const Json& c : suite()["cases"])
    // Scored: expressible, run, and a figure (a true/false statement has no error).
    if (c["family"] == family && c["ok"].get<bool>() && c["expressible"].get<bool>() && c["error"].is_number())
      out.push_back(&c);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

// The figures of a family and their kind, by the rule of scripts/refresh_error_bands.py: each
// case predicted without its own source where every fitted case has a leave-one-source-out
// residual, else without itself where every one has a leave-one-case-out residual, else as
// validate prices it; residuals count only while the fit is current.
struct Band {
  std::vector<double> errors;
  std::string kind;
};

Band family_band(const std::vector<const Json*>& cases, const std::map<std::string, double>& fitted,
                 const std::map<std::string, double>& cv, const std::map<std::string, double>& loso) {
  std::vector<const Json*> in_fit;
  bool stale = false;
  for (const Json* c : cases) {
    const std::string id = (*c)["id"];
    if (!fitted.count(id)) continue;
    in_fit.push_back(c);
    stale = stale || std::fabs(fitted.at(id) - (*c)["error"].get<double>()) > kTolerance;
  }
  Band band;
  auto validate_errors = [&] {
    for (const Json* c : cases) band.errors.push_back(std::fabs((*c)["error"].get<double>()));
  };
  if (in_fit.empty()) {
    validate_errors();
    band.kind = "out_of_sample";
    return band;
  }
  for (const auto& kind_table : {std::make_pair("leave_one_source_out", &loso), std::make_pair("leave_one_case_out", &cv)}) {
    const char* kind = kind_table.first;
    const std::map<std::string, double>* table = kind_table.second;
    const bool all = std::all_of(in_fit.begin(), in_fit.end(), [&](const Json* c) { return table->count((*c)["id"]) > 0; });
    if (stale || !all) continue;
    for (const Json* c : cases) {
      const std::string id = (*c)["id"];
      band.errors.push_back(std::fabs(table->count(id) ? table->at(id) : (*c)["error"].get<double>()));
    }
    band.kind = kind;
    return band;
  }
  validate_errors();
  band.kind = "in_sample";
  return band;
}

TEST_CASE("presets/error_bands.json holds what validate computes for every family", "[validation][expected_error]") {
  REQUIRE(suite()["ok"].get<bool>());
  const Json& recorded = paleo::error_bands()["families"];
  const std::map<std::string, double> cv = era_residuals("cv_residuals"), fitted = era_residuals("residuals"),
                                      loso = era_residuals("loso_residuals");
  std::size_t families = 0;
  for (const Json& f : suite()["families"]) {
    const std::string name = f["family"];
    const std::vector<const Json*> cases = scored(name);
    if (cases.empty()) continue;
    ++families;
    INFO("family " << name << ": " << kRefresh);
    REQUIRE(recorded.contains(name));
    const Json& r = recorded[name];
    const Band band = family_band(cases, fitted, cv, loso);
    CHECK(r["cases"].get<long>() == static_cast<long>(cases.size()));
    CHECK(r["cases"].get<long>() == f["scored"].get<long>());
    CHECK(r["cross_validation"].get<std::string>() == band.kind);
    CHECK(r["cross_validated"].get<bool>() == (band.kind == "leave_one_source_out" || band.kind == "leave_one_case_out"));
    CHECK(r["median_abs_error"].get<double>() == Approx(median(band.errors)).margin(kTolerance));
    CHECK(r["max_abs_error"].get<double>() == Approx(*std::max_element(band.errors.begin(), band.errors.end())).margin(kTolerance));
    if (band.kind == "in_sample" || band.kind == "out_of_sample") {  // then the same figures as validate's own summary
      CHECK(r["median_abs_error"].get<double>() == Approx(f["median_abs_error"].get<double>()).margin(kTolerance));
      CHECK(r["max_abs_error"].get<double>() == Approx(f["max_abs_error"].get<double>()).margin(kTolerance));
    }
  }
  INFO(kRefresh);
  CHECK(recorded.size() == families);  // no family the suite no longer scores
}

TEST_CASE("The transformer band is predicted without each case's source", "[validation][expected_error]") {
  // Every transformer case fitted to an era has a leave-one-source-out residual, so an estimate's
  // band is the error of a case whose source no fit saw (issue: an honest band).
  const Json& t = paleo::error_bands()["families"]["transformers"];
  CHECK(t["cross_validation"] == "leave_one_source_out");
}

TEST_CASE("Every estimate carries the expected error of its family", "[api][expected_error]") {
  const auto check = [](const Json& request, const std::string& family) {
    INFO(request.dump());
    const Json r = paleo::handle_request(request);
    REQUIRE(r["ok"].get<bool>());
    REQUIRE(r.contains("expected_error"));
    const Json& e = r["expected_error"];
    const Json& recorded = paleo::error_bands()["families"][family];
    CHECK(e["family"] == family);
    CHECK(e["median_abs_error"] == recorded["median_abs_error"]);
    CHECK(e["max_abs_error"] == recorded["max_abs_error"]);
    CHECK(e["cases"] == recorded["cases"]);
    CHECK(e["cross_validated"] == recorded["cross_validated"]);
    CHECK(e["cross_validation"] == recorded["cross_validation"]);
    CHECK(e["source"] == "docs/validation.md");
    CHECK(e["median_abs_error"].get<double>() <= e["max_abs_error"].get<double>());
    // The sentence the CLI and the page print states the recorded figures, one decimal each.
    const auto percent = [](const Json& fraction) {
      std::ostringstream text;
      text << std::fixed << std::setprecision(1) << fraction.get<double>() * 100 << " %";
      return text.str();
    };
    const std::string summary = e["summary"].get<std::string>();
    CHECK(summary.find("within \u00b1" + percent(recorded["median_abs_error"])) != std::string::npos);
    CHECK(summary.find("up to \u00b1" + percent(recorded["max_abs_error"])) != std::string::npos);
    CHECK(summary.find("(" + std::to_string(recorded["cases"].get<long long>()) + " " + family + " cases") !=
          std::string::npos);
    if (recorded["cross_validation"] == "leave_one_source_out")
      CHECK(summary.find("each predicted without its own source") != std::string::npos);
  };
  check({{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"cluster", "dgx_h100_ndr"}, {"tp", 2},
         {"global_batch", 64}, {"seq_len", 8192}}, "transformers");
  check({{"command", "layers"}, {"net", "llama3_8b"}}, "transformers");
  // A mixture of experts' training has its own band (nothing fitted to it), not the dense runs'.
  check({{"command", "estimate"},
         {"net", "mixtral_8x7b"},
         {"device", "H100_SXM"},
         {"cluster", "dgx_h100_ndr"},
         {"ep", 8},
         {"global_batch", 64},
         {"seq_len", 4096}},
        "moe_training");
  check({{"command", "layers"}, {"net", "mixtral_8x7b"}}, "moe_training");
  check({{"command", "estimate"}, {"net", "vgg16"}}, "cnn_single_gpu");
  check({{"command", "layers"}, {"net", "alexnet_owt"}, {"device", "V100_SXM2_16GB"}}, "cnn_single_gpu");
  check({{"command", "estimate"}, {"net", "resnet50_v1_5"}, {"cluster", "dgx1_v100_edr"}}, "cnn_data_parallel");
  // Not an estimate: no band.
  CHECK_FALSE(paleo::handle_request(Json{{"command", "summary"}, {"net", "vgg16"}}).contains("expected_error"));
}
