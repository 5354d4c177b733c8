// The validation suite (presets/validation/*.json, docs/validation.md): every published case is
// in it, every case marked expressible runs, and the median |error| of each family and overall
// stays within tests/data/validation_baseline.json (today's uncalibrated figures, rounded up).
// The table is printed so that the ctest log shows where the model stands.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "core/api.h"
#include "core/spec/presets.h"
#include "core/base/error.h"
#include "core/validation/validation_suite.h"

namespace {

using Json = nlohmann::ordered_json;

Json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

const Json& suite() {
  static const Json response = paleo::handle_request(Json{{"command", "validate"}});
  return response;
}

std::string percent(const Json& v, bool sign = true) {
  if (v.is_null()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f%%" : "%.1f%%", v.get<double>() * 100);
  return buf;
}

void print_table(const Json& r) {
  std::cout << "validation suite (error = predicted / measured - 1)\n";
  for (const Json& c : r["cases"])
    std::cout << c["id"].get<std::string>() << "\t" << c["family"].get<std::string>() << "\tpredicted "
              << (c["predicted"].is_number() ? std::to_string(c["predicted"].get<double>()) : c["predicted"].dump())
              << "\tmeasured " << c["measured"].dump() << "\terror " << percent(c["error"])
              << (c["expressible"].get<bool>() ? "" : "\t(not expressible)") << "\n";
  for (const Json& f : r["families"])
    std::cout << f["family"].get<std::string>() << "\tcases " << f["cases"] << "\tscored " << f["scored"]
              << "\tmedian |error| " << percent(f["median_abs_error"], false) << "\tmax |error| "
              << percent(f["max_abs_error"], false)
              << "\tmean error " << percent(f["mean_error"]) << "\n";
  const Json& o = r["overall"];
  std::cout << "overall\tcases " << o["cases"] << "\tscored " << o["scored"] << "\tmedian |error| "
            << percent(o["median_abs_error"], false) << "\tmax |error| " << percent(o["max_abs_error"], false) << "\tmean error "
            << percent(o["mean_error"]) << "\n";
}

const Json& family_row(const Json& r, const std::string& family) {
  for (const Json& f : r["families"])
    if (f["family"] == family) return f;
  FAIL("no family " << family);
  static const Json none;
  return none;
}

}  // namespace

TEST_CASE("The validation suite holds every published case once, and cites each case it adds", "[validation]") {
  const Json& r = suite();
  REQUIRE(r["ok"].get<bool>());
  std::set<std::string> published, seen;
  for (const Json& c : read_json(std::string(PALEO_TEST_DATA_DIR) + "/validation/public_cases.json"))
    published.insert(c["id"].get<std::string>());
  std::map<std::string, Json> sources;
  for (const auto& [file, doc] : paleo::Presets::instance().validation_files())
    for (const Json& c : (*doc)["cases"]) sources[c["id"].get<std::string>()] = c["source"];
  std::size_t added = 0;
  for (const Json& c : r["cases"]) {
    const std::string id = c["id"];
    INFO(id);
    CHECK(seen.insert(id).second);
    if (published.count(id)) continue;
    // A case beyond the published set names where its figure comes from and quotes it.
    ++added;
    for (const char* field : {"title", "url", "location", "quote"})
      CHECK_FALSE(sources[id].value(field, "").empty());
  }
  CHECK(seen.size() == published.size() + added);
}

TEST_CASE("Every expressible validation case runs and every other says why", "[validation]") {
  const Json& r = suite();
  REQUIRE(r["ok"].get<bool>());
  for (const Json& c : r["cases"]) {
    INFO(c["id"].get<std::string>() << ": " << c.value("message", ""));
    if (c["expressible"].get<bool>()) {
      CHECK(c["ok"].get<bool>());
      if (c["measured"].is_boolean()) {  // a statement: a true/false answer, no error
        CHECK(c["predicted"].is_boolean());
        CHECK(c["error"].is_null());
        CHECK(c["agrees"] == (c["predicted"] == c["measured"]));
      } else {
        CHECK(c["predicted"].get<double>() > 0);
      }
    } else {
      CHECK(!c.value("why", "").empty());
    }
  }
  CHECK(r["overall"]["failed"].get<long>() == 0);
}

TEST_CASE("Median errors stay within the recorded baseline", "[validation]") {
  const Json& r = suite();
  REQUIRE(r["ok"].get<bool>());
  print_table(r);
  const Json baseline = read_json(std::string(PALEO_TEST_DATA_DIR) + "/validation_baseline.json");
  auto check = [](const std::string& name, const Json& now, const Json& recorded) {
    INFO(name << ": median |error| " << now["median_abs_error"] << ", baseline " << recorded["median_abs_error"]);
    CHECK(now["median_abs_error"].get<double>() <= recorded["median_abs_error"].get<double>());
    // Fewer scored cases would let a regression hide.
    CHECK(now["scored"].get<long>() >= recorded["scored"].get<long>());
  };
  for (auto it = baseline["families"].begin(); it != baseline["families"].end(); ++it)
    check(it.key(), family_row(r, it.key()), it.value());
  check("overall", r["overall"], baseline["overall"]);
}

TEST_CASE("validate filters by family and rejects bad requests", "[validation]") {
  const Json kernels = paleo::handle_request(Json{{"command", "validate"}, {"family", "kernels"}});
  REQUIRE(kernels["ok"].get<bool>());
  CHECK(kernels["families"].size() == 1);
  for (const Json& c : kernels["cases"]) CHECK(c["family"] == "kernels");
  CHECK(kernels["overall"]["cases"] == kernels["families"][0]["cases"]);

  const Json unknown = paleo::handle_request(Json{{"command", "validate"}, {"family", "gpus"}});
  CHECK_FALSE(unknown["ok"].get<bool>());
  CHECK(unknown["error"]["field"] == "family");
  const Json typo = paleo::handle_request(Json{{"command", "validate"}, {"famly", "kernels"}});
  CHECK_FALSE(typo["ok"].get<bool>());
  CHECK(typo["error"]["field"] == "famly");
}

TEST_CASE("A validation case whose request fails is an error row, not run", "[validation]") {
  const Json good = {{"id", "good"}, {"family", "f"}, {"source", {{"url", "https://example.org"}}},
                     {"request", {{"command", "collective"}, {"op", "allreduce"}, {"algorithm", "ring"}, {"workers", 4},
                                  {"bytes", 1e6}, {"link", {{"bandwidth_gb_per_s", 10}, {"latency_us", 0}}}}},
                     {"compare", "time_ms"}, {"measured", 0.1}};
  Json bad = good;
  bad["id"] = "bad";
  bad["request"]["net"] = "no_such_net";
  Json missing = good;
  missing["id"] = "missing";
  missing["compare"] = "/totals/step_ms";
  const std::vector<paleo::ValidationCase> cases = {paleo::parse_validation_case(good, "t"),
                                                    paleo::parse_validation_case(bad, "t"),
                                                    paleo::parse_validation_case(missing, "t")};
  const Json r = paleo::validation_response(Json{{"command", "validate"}}, cases, paleo::handle_request);
  REQUIRE(r["cases"].size() == 3);
  CHECK(r["cases"][0]["ok"].get<bool>());
  CHECK(r["cases"][0]["error"].get<double>() == Approx(r["cases"][0]["predicted"].get<double>() / 0.1 - 1));
  CHECK_FALSE(r["cases"][1]["ok"].get<bool>());
  CHECK(r["cases"][1]["predicted"].is_null());
  CHECK_FALSE(r["cases"][1]["message"].get<std::string>().empty());
  CHECK_FALSE(r["cases"][2]["ok"].get<bool>());
  CHECK(r["overall"]["run"] == 1);
  CHECK(r["overall"]["failed"] == 2);
  CHECK(r["overall"]["scored"] == 1);

  Json no_why = good;
  no_why["expressible"] = false;
  CHECK_THROWS_AS(paleo::parse_validation_case(no_why, "t"), paleo::Error);
  Json recursive = good;
  recursive["request"] = {{"command", "validate"}};
  CHECK_THROWS_AS(paleo::parse_validation_case(recursive, "t"), paleo::Error);
}

TEST_CASE("A true/false statement case agrees or not, and is counted apart from the errors", "[validation]") {
  // The same estimate stated to fit and stated not to: whatever the model answers, exactly one of
  // the two agrees; neither has an error, and neither is scored.
  const Json request = {{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"tp", 1},
                        {"global_batch", 1}, {"seq_len", 1024}};
  const Json fits = {{"id", "fits"}, {"family", "f"}, {"source", {{"url", "https://example.org"}}}, {"request", request},
                     {"compare", "fits"}, {"measured", true}};
  Json oom = fits;
  oom["id"] = "oom";
  oom["measured"] = false;
  Json figure = fits;
  figure["id"] = "figure";
  figure["compare"] = "memory_per_device_bytes";
  figure["measured"] = 1e11;
  Json not_flag = oom;  // a statement compared with a number fails to run
  not_flag["id"] = "not_flag";
  not_flag["compare"] = "memory_per_device_bytes";
  const std::vector<paleo::ValidationCase> cases = {
      paleo::parse_validation_case(fits, "t"), paleo::parse_validation_case(oom, "t"),
      paleo::parse_validation_case(figure, "t"), paleo::parse_validation_case(not_flag, "t")};
  CHECK(cases[0].statement);
  CHECK(cases[0].stated);
  CHECK_FALSE(cases[1].stated);
  CHECK_FALSE(cases[2].statement);
  const Json r = paleo::validation_response(Json{{"command", "validate"}}, cases, paleo::handle_request);
  REQUIRE(r["ok"].get<bool>());
  const Json& a = r["cases"][0];
  const Json& b = r["cases"][1];
  REQUIRE(a["ok"].get<bool>());
  REQUIRE(b["ok"].get<bool>());
  CHECK(a["predicted"].is_boolean());
  CHECK(a["predicted"] == b["predicted"]);
  CHECK(a["error"].is_null());
  CHECK(a["agrees"].get<bool>() != b["agrees"].get<bool>());
  CHECK(a["agrees"].get<bool>() == a["predicted"].get<bool>());
  CHECK_FALSE(r["cases"][3]["ok"].get<bool>());
  const Json& o = r["overall"];
  CHECK(o["statements"] == 2);
  CHECK(o["statements_agreed"] == 1);
  CHECK(o["scored"] == 1);  // the figure only
  CHECK(o["failed"] == 1);
  CHECK(o["median_abs_error"].get<double>() == Approx(std::fabs(r["cases"][2]["error"].get<double>())));

  Json two = fits;  // a statement compares one field
  two["compare"] = Json::array({"fits", "fits"});
  CHECK_THROWS_AS(paleo::parse_validation_case(two, "t"), paleo::Error);
}

TEST_CASE("paleo validate prints one line per case and the family summary", "[validation][cli]") {
  const paleo_test::CliResult r = paleo_test::run_cli("validate --family collectives --format csv");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::istringstream lines(r.out);
  std::string line;
  int case_lines = 0;
  bool summary = false;
  while (std::getline(lines, line)) {
    if (line.rfind("DB-ALLREDUCE", 0) == 0) ++case_lines;
    if (line.rfind("collectives,6,6,0,6,0,", 0) == 0) summary = true;
  }
  CHECK(case_lines == 6);
  CHECK(summary);
  CHECK(paleo_test::run_cli("validate --family nothing").exit_code == 2);
}

TEST_CASE("OptCNN's layer-wise speed-ups over data parallelism at 16 GPUs, from the suite's cases", "[validation][search]") {
  // Speed-up = data-parallel step / layer-wise step, predicted and as read off the paper's Figure 7
  // (the cases' measured figures): AlexNet 160 / 56.7 = 2.82, VGG-16 310.3 / 188.9 = 1.64,
  // Inception-v3 304.8 / 211.6 = 1.44. AlexNet's and VGG-16's are reproduced within the 20 % the
  // issue asks; Inception-v3's is not: the search finds nothing better than data parallelism for
  // it (speed-up 1.0, docs/validation.md), and the test says so, so that a model that gets it
  // fails here first.
  const Json r = paleo::handle_request(Json{{"command", "validate"}, {"family", "cnn_layer_wise"}});
  REQUIRE(r["ok"].get<bool>());
  std::map<std::string, const Json*> rows;
  for (const Json& c : r["cases"]) rows[c["id"].get<std::string>()] = &c;
  auto speedup = [&](const std::string& net, const char* field) {
    const Json* dp = rows.at("OPTCNN-" + net + "-16xP100-DP");
    const Json* lw = rows.at("OPTCNN-" + net + "-16xP100-LW");
    return (*dp)[field].get<double>() / (*lw)[field].get<double>();
  };
  CHECK(speedup("AlexNet", "measured") == Approx(2.82).epsilon(0.01));
  CHECK(speedup("VGG16", "measured") == Approx(1.64).epsilon(0.01));
  CHECK(speedup("InceptionV3", "measured") == Approx(1.44).epsilon(0.01));
  for (const char* net : {"AlexNet", "VGG16"}) {
    INFO(net << ": predicted " << speedup(net, "predicted") << ", measured " << speedup(net, "measured"));
    CHECK(std::abs(speedup(net, "predicted") / speedup(net, "measured") - 1) <= 0.20);
  }
  // Never slower than data parallelism, which is one of the strategies searched.
  CHECK(speedup("InceptionV3", "predicted") >= 1.0 - 1e-9);
  CHECK(speedup("InceptionV3", "predicted") < 1.1);  // the gap the docs describe
}

TEST_CASE("An estimate case asks only for the members it compares, and other commands run as written", "[validation]") {
  const Json estimate = {
      {"id", "est"},
      {"family", "f"},
      {"source", {{"url", "https://example.org"}}},
      {"request",
       {{"command", "estimate"},
        {"net", "alexnet_owt"},
        {"device", "V100_SXM2_16GB"},
        {"batch_size", 32},
        {"cluster", {{"nodes", 2}, {"devices_per_node", 8}, {"intra", "nvlink2_v100"}, {"inter", "infiniband_edr"}}}}},
      {"compare", Json::array({"/totals/forward_ms", "/totals/backward_ms", "/cluster/step_ms"})},
      {"measured", 1.0}};
  Json own = estimate;  // a case that names its sections keeps them
  own["id"] = "own";
  own["request"]["omit_sections"] = Json::array({"layers"});
  Json collective = estimate;
  collective["id"] = "collective";
  collective["request"] = {{"command", "collective"}, {"op", "allreduce"}, {"workers", 4}, {"bytes", 1e6}};
  collective["compare"] = "time_ms";
  const std::vector<paleo::ValidationCase> cases = {paleo::parse_validation_case(estimate, "t"),
                                                    paleo::parse_validation_case(own, "t"),
                                                    paleo::parse_validation_case(collective, "t")};
  std::vector<Json> seen;
  const auto record = [&seen](const Json& q) {
    seen.push_back(q);
    return Json{{"ok", false}, {"error", {{"message", "recorded"}}}};
  };
  paleo::validation_response(Json{{"command", "validate"}}, cases, record);
  REQUIRE(seen.size() == 3);
  CHECK(seen[0]["sections"] == Json::array({"totals", "cluster"}));
  CHECK(seen[0]["net"] == "alexnet_owt");
  CHECK(seen[1] == cases[1].request);
  CHECK(seen[2] == cases[2].request);
  CHECK_FALSE(seen[2].contains("sections"));

  // The lean request prices the same: the compared figure equals the full answer's.
  const Json full = paleo::handle_request(cases[0].request);
  const Json lean = paleo::handle_request(seen[0]);
  REQUIRE(full["ok"].get<bool>());
  REQUIRE(lean["ok"].get<bool>());
  CHECK(lean["totals"]["forward_ms"] == full["totals"]["forward_ms"]);
  CHECK(lean["cluster"]["step_ms"] == full["cluster"]["step_ms"]);
  CHECK_FALSE(lean.contains("layers"));
}
