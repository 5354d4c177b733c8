// MLPerf Training's ResNet-50 logs in the validation suite (presets/validation/
// cnn_scale_unseen_cases.json): each case is held out of every fit, asks for the per-GPU batch
// its quoted log line's global batch gives on the GPUs it counts, and compares the speedometer
// reading (or MLLOG throughput record) its quote shows: the one at the median of the log's.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "tests/unfitted_cases.h"

namespace {

using Json = nlohmann::ordered_json;
using paleo_test::check_unfitted_cases;
using paleo_test::number_after;

}  // namespace

TEST_CASE("MLPerf ResNet-50 cases ask for the batch and speed their log lines give", "[validation]") {
  const std::size_t count =
      check_unfitted_cases("MLPERF", "-RN50-", [](const Json& c, const std::string& id, const Json& r) {
        const Json& cl = r["cluster"];
        const long gpus = cl["nodes"].get<long>() * cl["devices_per_node"].get<long>();
        // The id names the GPUs the log's platform counts.
        CHECK(id.find("-" + std::to_string(gpus) + "GPU") != std::string::npos);
        const std::string quote = c["source"]["quote"].get<std::string>();
        // The global batch is the value of the quoted global_batch_size line, whichever the order of
        // its fields (v0.6 logs print 'global_batch_size: {"metadata": ..., "value": N}' or the value first).
        const auto key = quote.find("global_batch_size");
        REQUIRE(key != std::string::npos);
        const double global = number_after(quote.substr(key), "\"value\": ");
        CHECK(global == r["batch_size"].get<long>() * gpus);
        // The quoted reading is the median one: within a thousandth of the compared value. A
        // speedometer line ("Speed: N samples/sec") or, where the scripts print none, an MLLOG
        // throughput record ('"key": "throughput", "value": N').
        double speed = number_after(quote, "Speed: ");
        if (speed == 0) speed = number_after(quote, "\"key\": \"throughput\", \"value\": ");
        CHECK(std::fabs(speed / c["measured"].get<double>() - 1) < 1e-3);
        // Every run_and_time.sh behind them passes both fusion flags; the notes quote them.
        CHECK(r.value("fused_batchnorm_activation", false));
        const std::string notes = c["notes"].get<std::string>();
        CHECK(notes.find("'--fuse-bn-relu       \"1\"'") != std::string::npos);
        CHECK(notes.find("'--fuse-bn-add-relu   \"1\"'") != std::string::npos);
      });
  CHECK(count == 20);
}

TEST_CASE("DLPerf's MXNet ResNet-50 rows fuse batch norms where runner.sh does: fp16, not fp32", "[validation]") {
  const std::size_t count =
      check_unfitted_cases("DLPERF-MXNET", "", [](const Json&, const std::string& id, const Json& r) {
        const bool fp16 = r["precision"] == "fp16";
        CHECK(fp16 == (id.find("FP16") != std::string::npos));
        CHECK(r.value("fused_batchnorm_activation", false) == fp16);
        CHECK(r["batch_size"] == (fp16 ? 256 : 128));
      });
  CHECK(count == 6);
}
