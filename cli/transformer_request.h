#pragma once
// The transformer options of the CLI (--precision --tp --pp --micro_batch --global_batch
// --seq_len --recompute --zero ...) as a request document of the JSON API (docs/transformer.md).
#include <string>

#include <nlohmann/json.hpp>

#include "cli/options.h"

namespace paleo::cli {

// The option names (valued, and flags) the transformer commands take.
const std::vector<std::string>& transformer_valued_options();
const std::vector<std::string>& transformer_flag_options();

// estimate / layers / summary / plan / inference of a transformer net.
nlohmann::ordered_json build_transformer_request(const std::string& command, const Arguments& args,
                                                 const nlohmann::ordered_json& net);

}  // namespace paleo::cli
