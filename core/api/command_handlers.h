#pragma once
// api/: the answer of each command, as the registry (core/api/command_registry.h) calls it.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

struct Request;

// Commands answered from the parsed request (core/api/request.h).
Json version_answer(const Request& r, std::vector<std::string>& warnings);
Json presets_answer(const Request& r, std::vector<std::string>& warnings);
Json estimate_answer(const Request& r, std::vector<std::string>& warnings);
Json layers_answer(const Request& r, std::vector<std::string>& warnings);
Json summary_answer(const Request& r, std::vector<std::string>& warnings);
Json simulate_answer(const Request& r, std::vector<std::string>& warnings);
Json search_answer(const Request& r, std::vector<std::string>& warnings);
Json collective_answer(const Request& r, std::vector<std::string>& warnings);
// `plan` and `inference` of a CNN: an error (a transformer's are core/api/transformer_response.h's).
Json transformer_only_answer(const Request& r, std::vector<std::string>& warnings);

// Commands that read their own fields from the request document.
Json schema_answer(const Json& request);

}  // namespace paleo
