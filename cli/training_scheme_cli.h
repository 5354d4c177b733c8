#pragma once
// The training-scheme options of `paleo estimate` (docs/training-schemes.md): --consistency,
// --staleness, --jitter, --slow_worker, --compression, --exchange, --server_layout, --ps_servers,
// --push, --offload_fc, --averaging, --averaging_every, --gossip_peers, --batch_norm; the
// request's `training_scheme` they make, and its section printed.
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/options.h"
#include "cli/output.h"

namespace paleo::cli {

const std::vector<std::string>& training_scheme_valued_options();
const std::vector<std::string>& training_scheme_flag_options();

// Adds `training_scheme` to an estimate request when any of the options is given.
void add_training_scheme_options(const Arguments& args, nlohmann::ordered_json& request);

void print_training_scheme(std::ostream& out, const nlohmann::ordered_json& section, Format format);

}  // namespace paleo::cli
