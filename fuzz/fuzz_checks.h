#pragma once
// What the fuzz targets and the regression tests of their findings demand of a response of the JSON entry point
// (core/api.h): valid JSON, an object with a boolean "ok", finite numbers, and on failure an error
// of the core's own kind (paleo::Error), not an escaped library exception ("internal error") nor
// the last guard's non-finite error, which names no field.
#include <string>

#include <nlohmann/json.hpp>

namespace paleo_fuzz {

// The first problem found, or "" when the response is as it should be.
std::string response_problem(const nlohmann::ordered_json& response);
std::string response_text_problem(const std::string& response_text);

// One input of each fuzz target (fuzz_api.cpp, fuzz_net_spec.cpp), as the targets and the
// regression tests of their findings (tests/test_fuzz_findings.cpp) run it. A C++ exception
// other than paleo::Error from the spec reader escapes.
std::string api_input_problem(const std::string& request_text);
std::string net_spec_input_problem(const std::string& spec_text);

// For the fuzz targets: prints the problem and aborts, so that libFuzzer keeps the input.
void require_good_response(const std::string& problem);

}  // namespace paleo_fuzz
