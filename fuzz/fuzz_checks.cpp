#include "fuzz/fuzz_checks.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/api.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/spec/layer_graph.h"
#include "core/spec/model_profile.h"
#include "core/spec/net_spec.h"
#include "core/spec/network.h"

namespace paleo_fuzz {
namespace {

using Json = nlohmann::ordered_json;

std::string printed(const Json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).substr(0, 2000); }

std::string non_finite_problem(const Json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) return "non-finite number in the response";
  if (j.is_structured())
    for (const Json& v : j) {
      std::string problem = non_finite_problem(v);
      if (!problem.empty()) return problem;
    }
  return "";
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::string response_problem(const Json& response) {
  if (!response.is_object() || !response.contains("ok") || !response["ok"].is_boolean())
    return "response without a boolean 'ok': " + printed(response);
  std::string problem = non_finite_problem(response);
  if (!problem.empty()) return problem;
  if (response["ok"].get<bool>()) return "";
  const Json error = response.value("error", Json());
  if (!error.is_object() || !error.value("message", Json()).is_string())
    return "error response without a message: " + printed(response);
  const std::string message = error["message"].get<std::string>();
  // A std::exception other than paleo::Error reached handle_request: a defect, not a clear error.
  if (starts_with(message, "internal error")) return message;
  // The last guard of core/api/api.cpp caught a NaN or infinity that no field check stopped.
  if (starts_with(message, "the inputs lead to a non-finite result")) return message;
  return "";
}

std::string response_text_problem(const std::string& response_text) {
  Json response;
  try {
    response = Json::parse(response_text);
  } catch (const nlohmann::json::exception& e) {
    return std::string("the response is not JSON: ") + e.what();
  }
  return response_problem(response);
}

std::string api_input_problem(const std::string& request_text) {
  return response_text_problem(paleo::handle_request_json(request_text));
}

std::string net_spec_input_problem(const std::string& spec_text) {
  Json spec;
  try {
    spec = paleo::parse_json_text(spec_text, "net");
    const paleo::NetSpec net = paleo::expand_net_spec(spec);
    const paleo::LayerGraph graph = paleo::build_layer_graph(net);
    for (const paleo::ModelProfile* profile : {&paleo::paleo2017_profile(), &paleo::paleo2026_profile()}) {
      paleo::build_network(net, graph, 1, *profile);
      paleo::build_network(net, graph, paleo::spec_batch_size(net), *profile);
    }
  } catch (const paleo::Error&) {
    return "";  // a clear error naming the layer and field: what bad specs should get
  }
  // A spec the reader accepts is priced, as the page does with a pasted spec.
  for (const char* profile : {"paleo2017", "paleo2026"}) {
    std::string problem = response_problem(paleo::handle_request({{"command", "layers"}, {"profile", profile}, {"net", spec}}));
    if (!problem.empty()) return std::string(profile) + ": " + problem;
  }
  return "";
}

void require_good_response(const std::string& problem) {
  if (problem.empty()) return;
  std::fprintf(stderr, "paleo fuzz: %s\n", problem.c_str());
  std::abort();
}

}  // namespace paleo_fuzz
