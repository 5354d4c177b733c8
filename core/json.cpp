#include "core/json.h"

#include <cmath>

#include "core/error.h"

namespace paleo {

const Json& require_field(const Json& obj, const std::string& field, const std::string& layer) {
  if (!obj.is_object()) throw Error("expected a JSON object", layer, field);
  auto it = obj.find(field);
  if (it == obj.end()) throw Error("is missing", layer, field);
  return *it;
}

std::string read_string(const Json& obj, const std::string& field, const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_string()) throw Error("must be a string, got " + v.dump(), layer, field);
  return v.get<std::string>();
}

Dim read_dim(const Json& value, const std::string& field, const std::string& layer) {
  if (value.is_number_integer()) return value.get<Dim>();
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) return static_cast<Dim>(d);
  }
  throw Error("must be an integer, got " + value.dump(), layer, field);
}

Shape read_dims(const Json& obj, const std::string& field, const std::string& layer,
                std::size_t length) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_array() || v.empty() || (length && v.size() != length)) {
    std::string want = length ? "a list of " + std::to_string(length) + " integers"
                              : "a non-empty list of integers";
    throw Error("must be " + want + ", got " + v.dump(), layer, field);
  }
  Shape out;
  for (const Json& d : v) out.push_back(read_dim(d, field, layer));
  return out;
}

double read_number(const Json& obj, const std::string& field, const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_number()) throw Error("must be a number, got " + v.dump(), layer, field);
  double d = v.get<double>();
  if (!std::isfinite(d)) throw Error("must be finite", layer, field);
  return d;
}

std::vector<std::string> read_strings(const Json& obj, const std::string& field,
                                      const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_array()) throw Error("must be a list of names, got " + v.dump(), layer, field);
  std::vector<std::string> out;
  for (const Json& s : v) {
    if (!s.is_string()) throw Error("must be a list of names, got " + v.dump(), layer, field);
    out.push_back(s.get<std::string>());
  }
  return out;
}

}  // namespace paleo
