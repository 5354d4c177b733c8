#pragma once
// `paleo calibrate FILE`: the request built from a measurement file (JSON or CSV,
// docs/calibration.md) and the printed response: fitted parameters, errors before and after,
// per-measurement rows, and the profile JSON to pass to other commands.
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/options.h"
#include "cli/output.h"

namespace paleo::cli {

// Throws std::invalid_argument for an unreadable file or bad option.
nlohmann::ordered_json build_calibrate_request(const Arguments& args);
void print_calibration(std::ostream& out, const nlohmann::ordered_json& response, Format format);

}  // namespace paleo::cli
