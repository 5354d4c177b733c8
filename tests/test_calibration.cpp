// Calibration (`calibrate`, docs/calibration.md): the minimiser and loss on their own; kernel
// efficiencies recovered from measurements the model itself generated; the acceptance check (a
// fit to half of one device's noisy layer times lowers the other half's median error); bad input
// naming its field; and the fitted profile, passed back as request fields, reproducing the
// predictions after the fit exactly.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "core/api.h"
#include "core/calibration/measurement_csv.h"
#include "core/calibration/nelder_mead.h"
#include "core/calibration/robust_loss.h"
#include "core/validation/validation_case.h"

namespace {

using paleo::Json;

// Small transformers on one A100 (default era megatron_lm_2021), `layers` responses.
std::vector<Json> synthetic_requests() {
  return {
      {{"command", "layers"}, {"net", "gpt3_125m"}, {"device", "A100_80GB_SXM"}, {"micro_batch", 4}, {"seq_len", 1024}},
      {{"command", "layers"}, {"net", "gpt3_350m"}, {"device", "A100_80GB_SXM"}, {"micro_batch", 1}, {"seq_len", 2048}},
      {{"command", "layers"}, {"net", "gpt3_1_3b"}, {"device", "A100_80GB_SXM"}, {"micro_batch", 2}, {"seq_len", 512}},
  };
}

Json with_efficiency(Json request, const Json& efficiency) {
  request["efficiency"] = efficiency;
  return request;
}

// One measurement per layer row and pass, plus the step time, of each request under the "true"
// efficiencies, each time multiplied by noise(index).
template <class Noise>
Json model_measurements(const Json& truth, Noise noise) {
  Json list = Json::array();
  for (const Json& request : synthetic_requests()) {
    const Json r = paleo::handle_request(with_efficiency(request, truth));
    REQUIRE(r["ok"].get<bool>());
    for (const Json& row : r["layers"])
      for (const char* pass : {"forward", "backward"}) {
        const double ms = row[pass]["total_ms"].get<double>();
        if (!(ms > 0)) continue;
        list.push_back({{"request", request}, {"compare", {{"layer", row["name"]}, {"pass", pass}}},
                        {"measured_ms", ms * noise(list.size())}});
      }
    list.push_back({{"request", request}, {"measured_ms", r["step_ms"].get<double>() * noise(list.size())}});
  }
  return list;
}

// The prediction a request with the profile's fields gives for an `after` row's measurement.
double predicted_with_profile(const Json& measurement, const Json& profile) {
  Json request = measurement["request"];
  for (auto it = profile.begin(); it != profile.end(); ++it) request[it.key()] = it.value();
  const Json r = paleo::handle_request(request);
  REQUIRE(r["ok"].get<bool>());
  if (!measurement.contains("compare")) return r["step_ms"].get<double>();
  for (const Json& row : r["layers"])
    if (row["name"] == measurement["compare"]["layer"])
      return row[measurement["compare"]["pass"].get<std::string>()]["total_ms"].get<double>();
  FAIL("layer not found");
  return 0;
}

Json calibrate(Json extra) {
  Json request = {{"command", "calibrate"}};
  request.update(extra);
  return paleo::handle_request(request);
}

std::string error_field(const Json& response) {
  REQUIRE_FALSE(response["ok"].get<bool>());
  return response["error"]["field"].get<std::string>();
}

}  // namespace

TEST_CASE("Nelder-Mead finds the minimum of a bounded bowl and stays in the cube", "[calibration]") {
  const auto bowl = [](const std::vector<double>& x) {
    return (x[0] - 0.3) * (x[0] - 0.3) + 10 * (x[1] - 0.7) * (x[1] - 0.7) + (x[0] - 0.3) * (x[1] - 0.7);
  };
  const paleo::MinimizeResult r = paleo::minimize_in_unit_cube(bowl, {0.9, 0.1});
  CHECK(r.converged);
  CHECK(std::fabs(r.x[0] - 0.3) < 1e-4);
  CHECK(std::fabs(r.x[1] - 0.7) < 1e-4);
  // A minimum outside the cube: the search ends on its face.
  const auto outside = [](const std::vector<double>& x) { return (x[0] + 0.5) * (x[0] + 0.5) + (x[1] - 0.5) * (x[1] - 0.5); };
  const paleo::MinimizeResult b = paleo::minimize_in_unit_cube(outside, {0.5, 0.9});
  CHECK(b.x[0] == 0.0);
  CHECK(std::fabs(b.x[1] - 0.5) < 1e-4);
}

TEST_CASE("The robust losses are r^2/2 near zero and grow linearly far out", "[calibration]") {
  for (paleo::LossKind kind : {paleo::LossKind::kLinear, paleo::LossKind::kSoftL1, paleo::LossKind::kHuber}) {
    const paleo::RobustLoss loss{kind, 0.1};
    CHECK(paleo::robust_loss(loss, 1e-3) == Approx(0.5e-6).epsilon(1e-3));
  }
  const paleo::RobustLoss soft{paleo::LossKind::kSoftL1, 0.1}, huber{paleo::LossKind::kHuber, 0.1};
  // Far out the slope is scale * |r| / |r| = scale: doubling r adds about scale * r.
  CHECK(paleo::robust_loss(soft, 2.0) - paleo::robust_loss(soft, 1.0) == Approx(0.1).epsilon(0.01));
  CHECK(paleo::robust_loss(huber, 2.0) - paleo::robust_loss(huber, 1.0) == Approx(0.1).epsilon(1e-9));
}

TEST_CASE("CSV measurements: header, comments, quoting, request columns", "[calibration]") {
  const Json list = paleo::measurements_from_csv(
      "# PyTorch per-module times, ms\n"
      "layer,pass,measured_ms,micro_batch,label\n"
      "attention.qkv,forward,0.5,2,\"qkv, first\"\n"
      "\n"
      "mlp.fc1, backward ,1.25,,\n",
      "measurements");
  REQUIRE(list.size() == 2);
  CHECK(list[0]["compare"] == Json({{"layer", "attention.qkv"}, {"pass", "forward"}}));
  CHECK(list[0]["measured_ms"] == 0.5);
  CHECK(list[0]["request"]["micro_batch"] == 2);
  CHECK(list[0]["label"] == "qkv, first");
  CHECK(list[1]["compare"]["pass"] == "backward");
  CHECK_FALSE(list[1].contains("request"));
  CHECK_THROWS(paleo::measurements_from_csv("layer,pass\nx,forward\n", "measurements"));
  CHECK_THROWS(paleo::measurements_from_csv("layer,measured_ms\nx,1,2\n", "measurements"));
}

TEST_CASE("Calibration recovers the efficiencies that generated the measurements", "[calibration]") {
  const Json truth = {{"matmul_ceiling", 0.55}, {"memory_fraction", 0.6}, {"kernel_overhead_ms", 0.01}};
  const Json list = model_measurements(truth, [](std::size_t) { return 1.0; });
  // Started from another era (Megatron-LM 2019: 0.36, 0.5, 0.02), not the requests' own.
  const Json r = calibrate({{"measurements", list}, {"software_era", "megatron_lm_2019"}});
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["start"]["software_era"] == "megatron_lm_2019");
  CHECK(r["measurements"]["requests"] == 3);
  const Json& fitted = r["profile"]["efficiency"];
  INFO(r["profile"].dump() << " after " << r["search"].dump());
  CHECK(std::fabs(fitted["matmul_ceiling"].get<double>() - 0.55) < 1e-2);
  CHECK(std::fabs(fitted["memory_fraction"].get<double>() - 0.6) < 1e-2);
  CHECK(std::fabs(fitted["kernel_overhead_ms"].get<double>() - 0.01) < 1e-3);
  CHECK(r["before"]["median_abs_error"].get<double>() > 0.2);
  CHECK(r["after"]["max_abs_error"].get<double>() < 1e-2);
  CHECK(r["search"]["converged"].get<bool>());
}

TEST_CASE("Calibration recovers a CNN software era from layer times", "[calibration][cnn]") {
  const Json truth = {{"conv_ceiling", 0.6}, {"memory_fraction", 0.4}, {"kernel_overhead_ms", 0.05}};
  Json list = Json::array();
  for (const Json& request : {Json{{"command", "layers"}, {"net", "vgg16"}, {"device", "TITAN_X"}, {"batch_size", 32}},
                              Json{{"command", "layers"}, {"net", "alex_v2"}, {"device", "TITAN_X"}, {"batch_size", 64}}}) {
    const Json r = paleo::handle_request(with_efficiency(request, truth));
    REQUIRE(r["ok"].get<bool>());
    for (const Json& row : r["layers"])
      if (row["forward"]["total_ms"].get<double>() > 0)
        list.push_back({{"request", request}, {"compare", {{"layer", row["name"]}, {"pass", "forward_backward"}}},
                        {"measured_ms", row["forward"]["total_ms"].get<double>() + row["backward"]["total_ms"].get<double>()}});
    list.push_back({{"request", request}, {"measured_ms", r["totals"]["step_ms"].get<double>()}});
  }
  const Json r = calibrate({{"measurements", list}});
  REQUIRE(r["ok"].get<bool>());
  INFO(r["profile"].dump());
  const Json& fitted = r["profile"]["efficiency"];
  CHECK(std::fabs(fitted["conv_ceiling"].get<double>() - 0.6) < 1e-2);
  CHECK(std::fabs(fitted["memory_fraction"].get<double>() - 0.4) < 1e-2);
  CHECK(std::fabs(fitted["kernel_overhead_ms"].get<double>() - 0.05) < 1e-3);
  CHECK(r["after"]["max_abs_error"].get<double>() < 1e-2);
  // A CNN request priced by a PPP has no efficiencies to fit.
  Json ppp = list[0];
  ppp["request"]["software"] = "tensorflow";
  CHECK(error_field(calibrate({{"measurements", {ppp}}})) == "measurements[0].request");
}

TEST_CASE("Fitted to half of one device's noisy layer times, the other half's median error drops",
          "[calibration][acceptance]") {
  // The "true" device: efficiencies unlike the A100's default era (0.7, 0.7, 0.004), each time
  // then multiplied by 1 + u with u uniform in [-0.1, 0.1] from mt19937 seeded 20261123 (raw
  // 32-bit draws scaled by hand, the same on every standard library).
  const Json truth = {{"matmul_ceiling", 0.5}, {"memory_fraction", 0.55}, {"kernel_overhead_ms", 0.008}};
  std::mt19937 rng(20261123u);
  const Json list = model_measurements(truth, [&rng](std::size_t) {
    return 1 + (static_cast<double>(rng()) / 4294967295.0 * 0.2 - 0.1);
  });
  const Json r = calibrate({{"measurements", list}, {"holdout", "alternate"}});
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["start"]["software_era"] == "megatron_lm_2021");
  const double before = r["holdout"]["before"]["median_abs_error"].get<double>();
  const double after = r["holdout"]["after"]["median_abs_error"].get<double>();
  INFO("held-out median |error| before " << before << ", after " << after << "; profile " << r["profile"].dump());
  CHECK(r["measurements"]["held_out"].get<long>() == static_cast<long>(list.size() / 2));
  CHECK(before > after);
  CHECK(before > 0.15);
  CHECK(after < 0.07);  // about the noise: |u| has median 0.05
  CHECK(r["after"]["median_abs_error"].get<double>() < r["before"]["median_abs_error"].get<double>());

  SECTION("the profile passed back as request fields reproduces the predictions exactly") {
    const Json profile = Json::parse(r["profile"].dump());  // through its text, as a user passes it
    for (const char* set : {"after", "holdout"}) {
      const Json& rows = std::string(set) == "after" ? r["after"]["rows"] : r["holdout"]["after"]["rows"];
      for (const Json& row : rows) {
        const Json& m = list[row["index"].get<std::size_t>()];
        CHECK(predicted_with_profile(m, profile) == row["predicted"].get<double>());
      }
    }
  }
}

TEST_CASE("Bad calibration input names its field", "[calibration]") {
  const Json request = {{"command", "layers"}, {"net", "gpt3_125m"}, {"device", "A100_80GB_SXM"}};
  const Json good = {{"request", request}, {"compare", {{"layer", "attention.qkv"}}}, {"measured_ms", 1.0}};
  CHECK(error_field(calibrate({{"measurements", Json::array()}})) == "measurements");
  CHECK(error_field(calibrate(Json::object())) == "measurements");
  Json no_time = good;
  no_time.erase("measured_ms");
  CHECK(error_field(calibrate({{"measurements", {good, no_time}}})) == "measurements[1].measured_ms");
  Json negative = good;
  negative["measured_ms"] = -2;
  CHECK(error_field(calibrate({{"measurements", {negative}}})) == "measurements[0].measured_ms");
  negative["measured_ms"] = 0;
  CHECK(error_field(calibrate({{"measurements", {negative}}})) == "measurements[0].measured_ms");
  Json unknown_layer = good;
  unknown_layer["compare"]["layer"] = "attention.qkvz";
  const Json r = calibrate({{"measurements", {good, unknown_layer}}});
  CHECK(error_field(r) == "measurements[1].compare.layer");
  CHECK(r["error"]["message"].get<std::string>().find("attention.qkvz") != std::string::npos);
  Json bad_pass = good;
  bad_pass["compare"]["pass"] = "sideways";
  CHECK(error_field(calibrate({{"measurements", {bad_pass}}})) == "measurements[0].compare.pass");
  Json no_request = good;
  no_request.erase("request");
  CHECK(error_field(calibrate({{"measurements", {no_request}}})) == "measurements[0].request");
  Json bad_request = good;
  bad_request["request"]["seq_len"] = -1;
  CHECK(error_field(calibrate({{"measurements", {bad_request}}})) == "measurements[0].request.seq_len");
  CHECK(error_field(calibrate({{"measurements", {good}}, {"parameters", {"tile"}}})) == "parameters");
  CHECK(error_field(calibrate({{"measurements", {good}}, {"holdout", 1.5}})) == "holdout");
  CHECK(error_field(calibrate({{"measurements", {good}}, {"holdout", "alternate"}})) == "holdout");
  CHECK(error_field(calibrate({{"measurements", {good}}, {"loss", "cubic"}})) == "loss");
  CHECK(error_field(calibrate({{"measurements", {good}}, {"speed", 1}})) == "speed");
  CHECK(error_field(calibrate({{"measurements", "layer,pass\nattention.qkv,forward\n"}})) == "measurements");
  // Two devices' software at once.
  Json other_era = good;
  other_era["request"]["software_era"] = "megatron_lm_2019";
  CHECK(error_field(calibrate({{"measurements", {good, other_era}}})) == "measurements[1].request");
}

TEST_CASE("paleo calibrate reads a CSV of layer times and prints the profile", "[calibration][cli]") {
  const Json request = {{"command", "layers"}, {"net", "gpt3_125m"}, {"device", "A100_80GB_SXM"}, {"micro_batch", 4}};
  const Json r = paleo::handle_request(with_efficiency(request, {{"matmul_ceiling", 0.6}}));
  REQUIRE(r["ok"].get<bool>());
  std::string csv = "layer,pass,measured_ms\n";
  for (const Json& row : r["layers"])
    for (const char* pass : {"forward", "backward"})
      if (row[pass]["total_ms"].get<double>() > 0)
        csv += row["name"].get<std::string>() + "," + pass + "," + Json(row[pass]["total_ms"]).dump() + "\n";
  const auto data = paleo_test::write_temp_file("layers", ".csv", csv);
  const auto base = paleo_test::write_temp_file("request", ".json", request.dump());
  const paleo_test::CliResult table =
      paleo_test::run_cli("calibrate " + paleo_test::quoted(data.string()) + " --request " +
                          paleo_test::quoted(base.string()) + " --holdout alternate --parameters matmul_ceiling");
  INFO(table.err);
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("matmul_ceiling") != std::string::npos);
  CHECK(table.out.find("holdout\tafter") != std::string::npos);
  CHECK(table.out.find("{\"software_era\":\"megatron_lm_2021\",\"efficiency\":{") != std::string::npos);
  const paleo_test::CliResult json =
      paleo_test::run_cli("calibrate " + paleo_test::quoted(data.string()) + " --request " +
                          paleo_test::quoted(base.string()) + " --parameters matmul_ceiling --format json");
  REQUIRE(json.exit_code == 0);
  const Json out = Json::parse(json.out);
  CHECK(out["profile"]["efficiency"]["matmul_ceiling"].get<double>() == Approx(0.6).margin(1e-3));
  // The profile file passed to another command.
  const auto profile = paleo_test::write_temp_file("profile", ".json", json.out);
  const paleo_test::CliResult estimate = paleo_test::run_cli(
      "estimate gpt3_125m --device_name A100_80GB_SXM --micro_batch 4 --format json --calibration " +
      paleo_test::quoted(profile.string()));
  REQUIRE(estimate.exit_code == 0);
  CHECK(Json::parse(estimate.out)["software_era"]["efficiency"]["matmul_ceiling"] ==
        out["profile"]["efficiency"]["matmul_ceiling"]);
  const paleo_test::CliResult missing = paleo_test::run_cli("calibrate " + paleo_test::quoted(data.string()));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("measurements[0].request") != std::string::npos);
}

TEST_CASE("Narayanan et al. 2021 Table 1: fitted on alternate rows from the untuned defaults, the others improve",
          "[calibration][validation]") {
  Json list = Json::array();
  for (const paleo::ValidationCase& c : paleo::load_validation_cases()) {
    if (c.id.rfind("NR21-T1-", 0) != 0) continue;
    REQUIRE(c.compare.size() == 1);
    Json request = c.request;
    request.erase("software_era");  // the era fitted to these very rows
    list.push_back({{"request", request}, {"compare", c.compare[0]}, {"measured", c.measured}, {"label", c.id}});
  }
  REQUIRE(list.size() == 10);
  const Json r = calibrate({{"measurements", list}, {"software_era", "untuned"}, {"holdout", "alternate"}});
  REQUIRE(r["ok"].get<bool>());
  CHECK(r["start"]["software_era"] == "untuned");
  CHECK_FALSE(r["profile"].contains("software_era"));
  const double before = r["holdout"]["before"]["median_abs_error"].get<double>();
  const double after = r["holdout"]["after"]["median_abs_error"].get<double>();
  INFO("held-out median |error| before " << before << ", after " << after << "; profile " << r["profile"].dump());
  CHECK(after < before);
  CHECK(after < 0.05);
}

TEST_CASE("A compare list sums the numbers at its pointers", "[calibration]") {
  const Json request = {{"command", "estimate"}, {"net", "alex_v2"}, {"device", "TITAN_X"}, {"batch_size", 32}};
  const Json estimate = paleo::handle_request(request);
  REQUIRE(estimate["ok"].get<bool>());
  const double forward_backward =
      estimate["totals"]["forward_ms"].get<double>() + estimate["totals"]["backward_ms"].get<double>();
  const Json list = {{{"request", request}, {"compare", {"/totals/forward_ms", "totals/backward_ms"}}, {"measured_ms", 50.0}},
                     {{"request", request}, {"measured_ms", 80.0}}};
  const Json r = calibrate({{"measurements", list}, {"parameters", {"conv_ceiling"}}});
  REQUIRE(r["ok"].get<bool>());
  const Json& row = r["before"]["rows"][0];
  CHECK(row["predicted"].get<double>() == Approx(forward_backward).epsilon(1e-12));
  CHECK(row["compare"] == Json({"/totals/forward_ms", "/totals/backward_ms"}));
  CHECK(row["label"] == "/totals/forward_ms+/totals/backward_ms");
  CHECK(error_field(calibrate({{"measurements", {{{"request", request}, {"compare", Json::array()}, {"measured_ms", 1.0}}}}})) ==
        "measurements[0].compare");
  CHECK(error_field(calibrate({{"measurements", {{{"request", request}, {"compare", {"/totals/forward_ms", 3}},
                                                  {"measured_ms", 1.0}}}}})) == "measurements[0].compare[1]");
}

TEST_CASE("Calibration fits a CNN era to layer-wise search step times", "[calibration][search]") {
  // Measurements generated by the model itself at known efficiencies: the search's layer-wise and
  // data-parallel steps of VGG-16 on 1 and 4 P100s; the fit recovers the conv ceiling.
  const Json truth = {{"conv_ceiling", 0.45}};
  Json list = Json::array();
  for (int devices : {1, 4}) {
    const Json request = {{"command", "search"}, {"net", "vgg16"}, {"device", "P100_SXM2"}, {"batch_size", 32},
                          {"devices", devices}, {"devices_per_node", 4}, {"software_era", "legion_cudnn7_2018"}};
    const Json r = paleo::handle_request(with_efficiency(request, truth));
    REQUIRE(r["ok"].get<bool>());
    CHECK(r["software_era"]["key"] == "legion_cudnn7_2018");
    for (const char* pointer : {"/step_ms", "/data_parallel_step_ms"})
      list.push_back({{"request", request}, {"compare", pointer},
                      {"measured", r[Json::json_pointer(pointer)].get<double>()}});
  }
  const Json r = calibrate({{"measurements", list}, {"parameters", {"conv_ceiling"}}});
  REQUIRE(r["ok"].get<bool>());
  INFO(r["profile"].dump());
  CHECK(std::fabs(r["profile"]["efficiency"]["conv_ceiling"].get<double>() - 0.45) < 1e-2);
  // A search measurement says which of the search's figures it is.
  Json no_pointer = list[0];
  no_pointer.erase("compare");
  no_pointer.erase("measured");
  no_pointer["measured_ms"] = 100;
  CHECK(error_field(calibrate({{"measurements", {no_pointer}}})) == "measurements[0].compare");
}

TEST_CASE("Calibration fits how a runtime moves a layer-wise strategy's transfers", "[calibration][search]") {
  // OWT's steps of AlexNet on 8 and 16 P100s (its fully-connected layers gather every GPU's
  // features), generated by the model with transfers half in turn: the fit from 0 recovers 0.5.
  const Json truth = {{"transfer_serialization", 0.5}};
  Json list = Json::array();
  for (int devices : {8, 16}) {
    const Json request = {{"command", "search"},    {"net", "alexnet_owt"}, {"device", "P100_SXM2"},
                          {"batch_size", 32},       {"devices", devices},   {"devices_per_node", 4},
                          {"software_era", "legion_cudnn7_2018"}};
    const Json r = paleo::handle_request(with_efficiency(request, truth));
    REQUIRE(r["ok"].get<bool>());
    list.push_back({{"request", request}, {"compare", "/one_weird_trick_step_ms"},
                    {"measured", r["one_weird_trick_step_ms"].get<double>()}});
  }
  const Json r = calibrate({{"measurements", list}, {"parameters", {"transfer_serialization"}},
                            {"efficiency", {{"transfer_serialization", 0}}}});
  REQUIRE(r["ok"].get<bool>());
  INFO(r["profile"].dump());
  CHECK(std::fabs(r["profile"]["efficiency"]["transfer_serialization"].get<double>() - 0.5) < 1e-2);
}
