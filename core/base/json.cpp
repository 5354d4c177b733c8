#include "core/base/json.h"

#include <cmath>

#include "core/base/error.h"
#include "core/base/request_limits.h"
#include "core/base/utf8.h"

namespace paleo {
namespace {

constexpr std::size_t kMaxEchoedValueBytes = 256;

std::string too_deep(const std::string& what) {
  return what + " nests arrays and objects more than " + std::to_string(kMaxNestingDepth) +
         " levels deep (the limit, docs/api.md)";
}

// Whether `value` nests deeper than `levels_left` more levels.
bool deeper_than(const Json& value, int levels_left) {
  if (!value.is_structured()) return false;
  if (levels_left == 0) return true;
  for (const Json& child : value)
    if (deeper_than(child, levels_left - 1)) return true;
  return false;
}

}  // namespace

const Json& require_field(const Json& obj, const std::string& field, const std::string& layer) {
  if (!obj.is_object()) throw Error("expected a JSON object", layer, field);
  auto it = obj.find(field);
  if (it == obj.end()) throw Error("is missing", layer, field);
  return *it;
}

std::string read_string(const Json& obj, const std::string& field, const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_string()) throw Error("must be a string, got " + echo(v), layer, field);
  return v.get<std::string>();
}

bool read_bool(const Json& obj, const std::string& field, const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_boolean()) throw Error("must be true or false, got " + echo(v), layer, field);
  return v.get<bool>();
}

Dim read_dim(const Json& value, const std::string& field, const std::string& layer) {
  if (value.is_number_integer()) return value.get<Dim>();
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) return static_cast<Dim>(d);
  }
  throw Error("must be an integer, got " + echo(value), layer, field);
}

Shape read_dims(const Json& obj, const std::string& field, const std::string& layer,
                std::size_t length) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_array() || v.empty() || (length && v.size() != length)) {
    std::string want = length ? "a list of " + std::to_string(length) + " integers"
                              : "a non-empty list of integers";
    throw Error("must be " + want + ", got " + echo(v), layer, field);
  }
  Shape out;
  for (const Json& d : v) out.push_back(read_dim(d, field, layer));
  return out;
}

double read_number(const Json& obj, const std::string& field, const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_number()) throw Error("must be a number, got " + echo(v), layer, field);
  double d = v.get<double>();
  if (!std::isfinite(d)) throw Error("must be finite", layer, field);
  return d;
}

std::vector<std::string> read_strings(const Json& obj, const std::string& field,
                                      const std::string& layer) {
  const Json& v = require_field(obj, field, layer);
  if (!v.is_array()) throw Error("must be a list of names, got " + echo(v), layer, field);
  std::vector<std::string> out;
  for (const Json& s : v) {
    if (!s.is_string()) throw Error("must be a list of names, got " + echo(v), layer, field);
    out.push_back(s.get<std::string>());
  }
  return out;
}

std::string dump_json(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

std::string echo(const Json& value) { return shortened_utf8(dump_json(value), kMaxEchoedValueBytes); }

void check_json_text(const std::string& text, const std::string& field) {
  const std::string what = field.empty() ? "the request" : "the text";
  if (text.size() > kMaxRequestBytes)
    throw Error(what + " is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(kMaxRequestBytes) +
                    " (docs/api.md)", "", field);
  // Brackets outside strings; the parser reports any other malformation afterwards.
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNestingDepth) throw Error(too_deep(what), "", field);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

Json parse_json_text(const std::string& text, const std::string& field) {
  check_json_text(text, field);
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range for a number too large for a double (1e400).
    throw Error(std::string("malformed JSON: ") + e.what(), "", field);
  }
}

void check_nesting(const Json& value, const std::string& field) {
  if (deeper_than(value, kMaxNestingDepth)) throw Error(too_deep(field.empty() ? "the request" : "the value"), "", field);
}

}  // namespace paleo
