#pragma once
// The JSON type of the core, and checked readers that name the layer and field on bad input.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/dims.h"

namespace paleo {

// Insertion-ordered: a network's layer order is part of its meaning (see core/api.h).
using Json = nlohmann::ordered_json;

// Readers of `obj[field]`; throw paleo::Error(layer, field) when missing or of the wrong kind.
const Json& require_field(const Json& obj, const std::string& field, const std::string& layer);
std::string read_string(const Json& obj, const std::string& field, const std::string& layer);
bool read_bool(const Json& obj, const std::string& field, const std::string& layer);
Dim read_dim(const Json& value, const std::string& field, const std::string& layer);
// A list of integers of the given length (0 = any length >= 1).
Shape read_dims(const Json& obj, const std::string& field, const std::string& layer,
                std::size_t length = 0);
double read_number(const Json& obj, const std::string& field, const std::string& layer);
std::vector<std::string> read_strings(const Json& obj, const std::string& field,
                                      const std::string& layer);

// The text of a value; never throws: invalid UTF-8 in a string becomes U+FFFD.
std::string dump_json(const Json& value, int indent = -1);
// A value quoted back in an error message: dump_json, cut short (core/base/request_limits.h).
std::string echo(const Json& value);

// JSON text from outside (a request, a spec or config file, a CSV cell): its size and nesting
// depth are checked on the text (core/base/request_limits.h) before a tree is built, since parsing,
// copying and printing a tree recurse once per level. Throws paleo::Error naming `field`.
Json parse_json_text(const std::string& text, const std::string& field);
// The checks of parse_json_text alone.
void check_json_text(const std::string& text, const std::string& field);
// The same nesting check on a tree built in memory; the check recurses at most the cap deep.
void check_nesting(const Json& value, const std::string& field);

}  // namespace paleo
