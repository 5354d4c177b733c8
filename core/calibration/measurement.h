#pragma once
// calibration/: one measured time of a user's own run and the response field it is compared with
// (docs/calibration.md): a request of docs/api.md (`estimate` or `layers`), the measured figure,
// and what to compare — the step time by default, a JSON pointer into the response, or a layer
// row chosen by name and pass.
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/json.h"

namespace paleo {

struct Measurement {
  std::size_t index = 0;
  std::string field;     // "measurements[i]", for error messages
  Json request;          // the whole request (the document's shared "request" under its own)
  std::vector<std::string> pointers;  // JSON pointers into the response, their numbers summed;
                                      // empty for a layer or the step
  std::string layer;     // a layer row's name; empty for a pointer or the step
  std::string pass;      // with a layer: forward, backward, backward_data, backward_filter, forward_backward
  double measured = 0;   // > 0
  bool measured_ms = true;  // a time ("measured_ms"), or another positive figure ("measured")
  double weight = 1;
  std::string label;

  // {"layer", "pass"}, the pointer (a list of them when several), or "step" — as responses report it.
  Json compare_json() const;
};

// A list of measurement objects, each under the shared `base` request (may be null). Throws
// paleo::Error naming the field ("measurements[2].measured_ms") for bad input.
std::vector<Measurement> parse_measurements(const Json& list, const Json& base, const std::string& field);

// A response's "layers" rows by name, built once per response: a layer-time file compares
// hundreds of rows of one response, and a scan per row made that quadratic.
class ResponseLayers {
 public:
  explicit ResponseLayers(const Json& response);  // keeps pointers into `response`
  const Json* find(const std::string& name) const;  // the first row of that name, or nullptr
  std::string listed_names() const;                 // the first 12, for an error message

 private:
  std::unordered_map<std::string, const Json*> by_name_;
  std::vector<std::string> names_;
  std::size_t count_ = 0;
};

// The model's figure for a measurement in a response of its request: the step time ("/step_ms"
// of a transformer, "/totals/step_ms" of a CNN), the sum of the numbers at the pointers, or the
// layer row's pass total_ms. Throws paleo::Error naming the measurement's compare field when absent.
double predicted_value(const Measurement& m, const Json& response);
// The same with the response's layers indexed beforehand (`layers` built from `response`).
double predicted_value(const Measurement& m, const Json& response, const ResponseLayers& layers);

}  // namespace paleo
