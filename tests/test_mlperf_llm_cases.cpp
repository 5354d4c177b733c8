// MLPerf Training's LLM logs in the validation suite (presets/validation/
// transformer_unseen_cases.json): NVIDIA's GPT-3 175B (v4.0, v4.1) and Llama 3.1 405B (v5.0)
// submissions. Each case is held out of every fit, asks for the global batch of its quoted
// MLLOG line with a layout whose data parallelism its gradient accumulation line gives, and
// compares the figure its quoted records give: a block's tokens over its time (v4.x) or a
// train_step_time record (v5.0), the one at the median of the log's.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "tests/unfitted_cases.h"

namespace {

using Json = nlohmann::ordered_json;
using paleo_test::check_unfitted_cases;
using paleo_test::number_after;

// The value of the quoted MLLOG line of `key` (its '"key": "K", "value": N').
double logged(const std::string& quote, const std::string& key) {
  return number_after(quote, "\"key\": \"" + key + "\", \"value\": ");
}

// The quoted layout: global batch = data parallelism x micro-batch x gradient accumulation, with
// data parallelism the GPUs over tp x pp x cp.
void check_layout(const Json& c, const Json& r) {
  const std::string quote = c["source"]["quote"].get<std::string>();
  const double gpus = r["nodes"].get<double>() * r["devices_per_node"].get<double>();
  const double dp = gpus / (r["tp"].get<double>() * r["pp"].get<double>() * r.value("cp", 1.0));
  CHECK(logged(quote, "global_batch_size") == r["global_batch"].get<double>());
  CHECK(dp * r["micro_batch"].get<double>() * logged(quote, "gradient_accumulation_steps") ==
        r["global_batch"].get<double>());
  CHECK(logged(quote, "max_sequence_length") == r["seq_len"].get<double>());
}

}  // namespace

TEST_CASE("MLPerf GPT-3 cases ask for the logged batch and compare a median block's tokens per second",
          "[validation]") {
  const std::size_t count =
      check_unfitted_cases("MLPERF4", "-GPT3-", [](const Json& c, const std::string&, const Json& r) {
        check_layout(c, r);
        // The quoted block: its epoch_count tokens between block_start and block_stop.
        const std::string quote = c["source"]["quote"].get<std::string>();
        const auto start = quote.find("\"key\": \"block_start\"");
        const auto stop = quote.find("\"key\": \"block_stop\"");
        REQUIRE(start != std::string::npos);
        REQUIRE(stop != std::string::npos);
        auto time_before = [&](std::size_t at) {
          return number_after(quote.substr(quote.rfind("\"time_ms\": ", at)), "\"time_ms\": ");
        };
        const double seconds = (time_before(stop) - time_before(start)) / 1e3;
        const double tokens = number_after(quote.substr(start), "\"epoch_count\": ");
        CHECK(std::fabs(tokens / seconds / c["measured"].get<double>() - 1) < 2e-3);
        CHECK(c["compare"] == "tokens_per_s");
      });
  CHECK(count == 6);
}

TEST_CASE("MLPerf Llama 3.1 405B cases ask for the logged batch and compare a median step time", "[validation]") {
  const std::size_t count =
      check_unfitted_cases("MLPERF50", "-LLAMA3.1-405B-", [](const Json& c, const std::string&, const Json& r) {
        check_layout(c, r);
        const std::string quote = c["source"]["quote"].get<std::string>();
        const double step_s = number_after(quote, "\"train_step_time\": ");
        CHECK(std::fabs(step_s * 1e3 / c["measured"].get<double>() - 1) < 1e-3);
        CHECK(c["compare"] == "step_ms");
      });
  CHECK(count == 7);
}
