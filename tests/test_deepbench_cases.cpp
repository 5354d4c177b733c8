// DeepBench's README rows in the validation suite (presets/validation/kernel_cases.json): each
// request is the shape its quoted row states, and the measured time is the row's.
#include <catch2/catch.hpp>

#include <iomanip>
#include <sstream>
#include <string>

#include "core/spec/presets.h"

namespace {

using Json = nlohmann::ordered_json;

bool quotes(const std::string& quote, const std::string& text) { return quote.find(text) != std::string::npos; }

std::string two_decimals(double ms) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << ms;
  return s.str();
}

}  // namespace

TEST_CASE("DeepBench's kernel cases ask for the shape and give the time of the row they quote", "[validation]") {
  int gemms = 0, convolutions = 0;
  for (const auto& [file, doc] : paleo::Presets::instance().validation_files())
    for (const Json& c : (*doc)["cases"]) {
      const std::string id = c["id"].get<std::string>();
      if (id.rfind("DB-GEMM-", 0) != 0 && id.rfind("DB-CONV-", 0) != 0) continue;
      INFO(id);
      const std::string quote = c["source"]["quote"].get<std::string>();
      const Json& layers = c["request"]["net"]["layers"];
      CHECK(quotes(quote, "| " + two_decimals(c["measured"].get<double>()) + " "));
      if (id.rfind("DB-GEMM-", 0) == 0) {
        ++gemms;
        // [N, K] input, M outputs: the row's M, N, K.
        const Json& input = layers["data"]["tensor"];
        CHECK(quotes(quote, "M=" + std::to_string(layers["gemm"]["num_outputs"].get<long>()) + ", N=" +
                                std::to_string(input[0].get<long>()) + ", K=" + std::to_string(input[1].get<long>())));
      } else {
        ++convolutions;
        // An [N, H, W, C] input and an [R, S, C, K] filter: the row's W, H, C, N, R, S and K.
        const Json& input = layers["data"]["tensor"];
        const Json& filter = layers["conv"]["filter"];
        CHECK(quotes(quote, "W = " + std::to_string(input[2].get<long>()) + ", H = " + std::to_string(input[1].get<long>())));
        CHECK(quotes(quote, "C = " + std::to_string(input[3].get<long>()) + ", N = " + std::to_string(input[0].get<long>())));
        CHECK(quotes(quote, "R = " + std::to_string(filter[0].get<long>()) + ", S = " + std::to_string(filter[1].get<long>())));
        CHECK(quotes(quote, "| " + std::to_string(filter[3].get<long>()) + " "));
        CHECK(filter[2] == input[3]);
      }
    }
  CHECK(gemms == 8);
  CHECK(convolutions == 5);
}
