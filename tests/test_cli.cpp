// The `paleo` command line: the original's published case-study output, a golden run as CSV, and
// `--format json` being exactly the response document of the equivalent request.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "core/api.h"
#include "csv_table.h"
#include "golden_compare.h"

namespace {

using paleo_test::CsvRow;
using paleo_test::CsvTable;
using paleo_test::Json;
using paleo_test::number;

const std::string kDataParallelHeader =
    "workers,batch_size,iter,time_fwd,time_bwd,time_apply,time_comp,OneToAll,TreeAllReduce,ButterflyAllReduce,"
    "ButterflyMixing";

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

CsvTable run_csv(const std::string& arguments) {
  const paleo_test::CliResult r = paleo_test::run_cli(arguments);
  INFO("paleo " << arguments << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(first_line(r.out) == kDataParallelHeader);
  return paleo_test::parse_csv(r.out);
}

Json run_json(const std::string& arguments) {
  const paleo_test::CliResult r = paleo_test::run_cli(arguments);
  INFO("paleo " << arguments << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  Json parsed = Json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(parsed.is_discarded());
  return parsed;
}

}  // namespace

TEST_CASE("CLI: Inception v3 weak scaling on K40 matches the original's published output", "[cli]") {
  // The original (master 984bbf5, the case-study options plus --use_only_gemm) printed for this
  // run: time_comp 3959.566 (fwd 1257.565, bwd 2701.069, apply 0.932); Tree 0 / 210.972 /
  // 421.943 / 632.915 / 843.887 / 1265.830 / 1476.802; weak Tree speed-ups 1 / 1.90 / 3.61 /
  // 6.90 / 13.19 / 37.89 / 72.83; Butterfly ... 43.11 / 84.28; OneToAll ... 13.85 / 15.94.
  // Published to 3 (times) and 2 (speed-ups) decimals.
  const CsvTable t = run_csv(
      "simulate inception_v3 --batch_size=256 --network_name=ethernet --device_name=K40 "
      "--num_workers=1,2,4,8,16,50,100 --ppp_comp=0.62 --ppp_comm=0.72 --scaling=weak --use_only_gemm --format csv");
  REQUIRE(t.rows.size() == 7);
  const std::vector<double> workers = {1, 2, 4, 8, 16, 50, 100};
  const std::vector<double> tree = {0, 210.972, 421.943, 632.915, 843.887, 1265.830, 1476.802};
  const std::vector<double> tree_speedup = {1, 1.90, 3.61, 6.90, 13.19, 37.89, 72.83};
  auto printed = [](double v) { return Approx(v).margin(5e-4); };
  auto printed2 = [](double v) { return Approx(v).margin(5e-3); };
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const CsvRow& row = t.rows[k];
    INFO("workers " << workers[k]);
    CHECK(number(row, "workers") == workers[k]);
    CHECK(number(row, "batch_size") == 256 * workers[k]);  // weak: effective batch
    CHECK(number(row, "iter") == 1);
    CHECK(number(row, "time_fwd") == printed(1257.565));
    CHECK(number(row, "time_bwd") == printed(2701.069));
    CHECK(number(row, "time_apply") == printed(0.932));
    CHECK(number(row, "time_comp") == printed(3959.566));
    CHECK(number(row, "TreeAllReduce") == printed(tree[k]));
    // Weak speed-up n * T(1) / T(n), T = time_comp + scheme time, from the printed columns.
    auto speedup = [&](const char* scheme) {
      const double t1 = number(t.rows[0], "time_comp") + number(t.rows[0], scheme);
      const double tn = number(row, "time_comp") + number(row, scheme);
      return workers[k] * t1 / tn;
    };
    CHECK(speedup("TreeAllReduce") == printed2(tree_speedup[k]));
    if (workers[k] == 50) {
      CHECK(speedup("ButterflyAllReduce") == printed2(43.11));
      CHECK(speedup("OneToAll") == printed2(13.85));
    }
    if (workers[k] == 100) {
      CHECK(speedup("ButterflyAllReduce") == printed2(84.28));
      CHECK(speedup("OneToAll") == printed2(15.94));
    }
  }
}

TEST_CASE("CLI: the FireCaffe NiN run as CSV matches cli_tables.csv to 1e-9", "[cli][golden]") {
  const CsvTable golden = paleo_test::read_csv(paleo_test::data_path("cli_tables.csv"));
  std::vector<const CsvRow*> rows;
  for (const CsvRow& row : golden.rows)
    if (paleo_test::cell(row, "run_id") == "firecaffe_b256") rows.push_back(&row);
  REQUIRE(rows.size() == 8);
  // The run's command: simulate nets/nin.json --batch_size=256 --network_name=infiniband
  // --device_name=K20X --use_only_gemm --ppp_comp=0.21 --ppp_comm=0.56 --scaling=strong
  REQUIRE(paleo_test::cell(*rows[0], "command").find("--batch_size=256 --network_name=infiniband --device_name=K20X") !=
          std::string::npos);
  const CsvTable t = run_csv(
      "simulate nin --batch_size=256 --network_name=infiniband --device_name=K20X --use_only_gemm --ppp_comp=0.21 "
      "--ppp_comm=0.56 --scaling=strong --format csv");
  REQUIRE(t.rows.size() == rows.size());
  paleo_test::GoldenTally tally;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::string where = "paleo simulate nin (firecaffe_b256) --format csv, row " + std::to_string(k);
    for (const std::string& column : t.header)
      paleo_test::check_golden_value(tally, where, "", column, number(*rows[k], column), number(t.rows[k], column));
  }
  CHECK(tally.values == 8 * 11);
  WARN("golden: cli_tables.csv firecaffe_b256 through the CLI: " << rows.size() << " rows checked (" << tally.values
                                                                 << " values, " << tally.mismatches << " mismatches)");
}

TEST_CASE("CLI: --format json prints exactly the response of the equivalent request", "[cli]") {
  SECTION("estimate with a training scheme") {
    const Json printed = run_json(
        "estimate resnet50_v1_5 --cluster dgx1_v100_edr --nodes 4 --consistency ssp --staleness 4 "
        "--jitter lognormal:0.2 --slow_worker 0.1 --compression topk:0.01 --batch_norm global --format json");
    const Json expected = paleo::handle_request(
        Json{{"command", "estimate"}, {"net", "resnet50_v1_5"}, {"cluster", "dgx1_v100_edr"}, {"nodes", 4},
             {"training_scheme", {{"consistency", "ssp"}, {"staleness", 4}, {"jitter", "lognormal:0.2"},
                                  {"slow_worker", 0.1}, {"compression", "topk:0.01"}, {"batch_norm", "global"}}}});
    REQUIRE(expected.value("ok", false));
    CHECK(printed == expected);
    // --averaging_every alone means local SGD.
    const Json local = run_json("estimate resnet50_v1_5 --cluster dgx1_v100_edr --nodes 4 --averaging_every 8 --format json");
    CHECK(local["training_scheme"]["exchange"].get<std::string>().rfind("local_sgd", 0) == 0);
  }
  SECTION("search with OptCNN's parameter server and overlap") {
    const Json printed = run_json(
        "search vgg16 --device_name P100_SXM2 --devices 8 --per_node 4 --batch_size 32 --collective parameter_server "
        "--overlap --software_era legion_cudnn7_2018 --format json");
    const Json expected = paleo::handle_request(
        Json{{"command", "search"}, {"net", "vgg16"}, {"device", "P100_SXM2"}, {"devices", 8}, {"devices_per_node", 4},
             {"batch_size", 32}, {"collective", "parameter_server"}, {"overlap", true},
             {"software_era", "legion_cudnn7_2018"}});
    REQUIRE(expected.value("ok", false));
    CHECK(expected["overlap"].get<bool>());
    CHECK(printed == expected);
  }
  SECTION("a device of one's own, from a .json file, for a CNN and a transformer") {
    const Json device = {{"name", "Mine"}, {"generation", "hopper"}, {"clock_mhz", 1700}, {"peak_gflops", 50000},
                         {"peak_tensor_gflops", {{"bf16", 700000}}}, {"mem_bandwidth_gb_per_s", 2500},
                         {"memory_bytes", 64e9}, {"sm_count", 100},
                         // The node it is built into: the links of a multi-device layout.
                         {"node", "dgx_h100_ndr"}};
    const std::filesystem::path file = paleo_test::write_temp_file("device", ".json", device.dump());
    const Json cnn = run_json("estimate resnet50_v1_5 --device_name " + file.string() + " --precision bf16 --format json");
    const Json expected = paleo::handle_request(
        Json{{"command", "estimate"}, {"net", "resnet50_v1_5"}, {"device", device}, {"precision", "bf16"}});
    REQUIRE(expected.value("ok", false));
    CHECK(cnn == expected);
    CHECK(cnn["device"]["name"] == "Mine");
    const Json llm = run_json("estimate llama3_8b --device_name " + file.string() + " --tp 8 --per_node 8 --format json");
    CHECK(llm["device"]["name"] == "Mine");
    CHECK(llm["peak_tflops_per_gpu"].get<double>() == 700);
    CHECK(llm["cluster"]["intra"] == "nvlink4_h100");
    // A file it cannot read is an error naming it, not a preset lookup.
    const paleo_test::CliResult missing = paleo_test::run_cli("estimate alex_v2 --device_name no_such_device.json");
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.err, Catch::Contains("no_such_device.json"));
    std::filesystem::remove(file);
  }
  SECTION("inference with an older engine's runtime, decode attention and MoE routing skew") {
    const Json printed = run_json(
        "inference llama2_70b --device_name A100_80GB_SXM --tp 4 --batch_size 8 --prompt_len 128 --generate_len 128 "
        "--runtime tensorrt --decode_attention per_query_head --moe_routing_skew 0.5 --format json");
    const Json expected = paleo::handle_request(Json{{"command", "inference"},
                                                     {"net", "llama2_70b"},
                                                     {"device", "A100_80GB_SXM"},
                                                     {"tp", 4},
                                                     {"batch_size", 8},
                                                     {"prompt_len", 128},
                                                     {"generate_len", 128},
                                                     {"runtime", "tensorrt"},
                                                     {"decode_attention", "per_query_head"},
                                                     {"moe_routing_skew", 0.5}});
    REQUIRE(expected.value("ok", false));
    CHECK(printed == expected);
    CHECK(printed["serving"]["runtime"] == "tensorrt");
    CHECK(printed["serving"]["decode_attention"] == "per_query_head");
    CHECK(printed["serving"]["moe_routing_skew"].get<double>() == 0.5);
  }
  SECTION("layers vgg16") {
    // `layers` follows the API's defaults (only the drop-in `simulate` stands in "auto" for
    // the original's cuDNN heuristics).
    const Json printed = run_json("layers vgg16 --format json");
    const Json expected = paleo::handle_request(Json{{"command", "layers"}, {"net", "vgg16"}});
    REQUIRE(expected.value("ok", false));
    CHECK(printed == expected);
  }
  SECTION("layers vgg16 --use_only_gemm") {
    const Json printed = run_json("layers vgg16 --use_only_gemm --format json");
    const Json expected =
        paleo::handle_request(Json{{"command", "layers"}, {"net", "vgg16"}, {"conv_algorithm", "gemm"}});
    REQUIRE(expected.value("ok", false));
    CHECK(printed == expected);
  }
  SECTION("layers with options") {
    const Json printed =
        run_json("layers alex_v2 --use_only_gemm --device_name=K40 --batch_size=32 --ppp_comp=0.5 --format json");
    const Json expected = paleo::handle_request(Json{{"command", "layers"},
                                                     {"net", "alex_v2"},
                                                     {"conv_algorithm", "gemm"},
                                                     {"device", "K40"},
                                                     {"batch_size", 32},
                                                     {"ppp_comp", 0.5}});
    REQUIRE(expected.value("ok", false));
    CHECK(printed == expected);
  }
  SECTION("simulate with the original's defaults (paleo2017, batch 128, workers 1..128, weak then strong)") {
    const Json printed = run_json("simulate alex_v2 --use_only_gemm --format json");
    const Json expected = paleo::handle_request(Json{{"command", "simulate"},
                                                     {"profile", "paleo2017"},
                                                     {"net", "alex_v2"},
                                                     {"batch_size", 128},
                                                     {"conv_algorithm", "gemm"},
                                                     {"workers", {1, 2, 4, 8, 16, 32, 64, 128}}});
    REQUIRE(expected.value("ok", false));
    CHECK(printed == expected);
  }
  SECTION("paleo api answers a request file with handle_request_json") {
    const std::string request = R"({"command": "estimate", "net": "nin", "device": "K80", "workers": [1, 4]})";
    const auto file = paleo_test::write_temp_file("request", ".json", request);
    const Json printed = run_json("api " + paleo_test::quoted(file.string()));
    CHECK(printed == Json::parse(paleo::handle_request_json(request)));
    std::filesystem::remove(file);
  }
}
