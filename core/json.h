#pragma once
// The JSON type of the core, and checked readers that name the layer and field on bad input.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/shape.h"

namespace paleo {

// Insertion-ordered: a network's layer order is part of its meaning (see core/api.h).
using Json = nlohmann::ordered_json;

// Readers of `obj[field]`; throw paleo::Error(layer, field) when missing or of the wrong kind.
const Json& require_field(const Json& obj, const std::string& field, const std::string& layer);
std::string read_string(const Json& obj, const std::string& field, const std::string& layer);
Dim read_dim(const Json& value, const std::string& field, const std::string& layer);
// A list of integers of the given length (0 = any length >= 1).
Shape read_dims(const Json& obj, const std::string& field, const std::string& layer,
                std::size_t length = 0);
double read_number(const Json& obj, const std::string& field, const std::string& layer);
std::vector<std::string> read_strings(const Json& obj, const std::string& field,
                                      const std::string& layer);

}  // namespace paleo
