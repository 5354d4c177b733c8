// Every command of the JSON API (core/api/command_registry.h). The estimate-only module links
// core/api/estimate_only/command_table.cpp in its place.
#include "core/api.h"
#include "core/api/command_handlers.h"
#include "core/api/command_registry.h"
#include "core/api/estimate_path_commands.h"
#include "core/api/transformer_response.h"
#include "core/calibration/calibration.h"
#include "core/validation/validation_suite.h"

namespace paleo {
namespace {

// validate and calibrate run whole requests of their own: through the API, handed down to them so
// that the layers below include nothing of it.
Json validate_answer(const Json& request) { return validation_response(request, handle_request); }
Json calibrate_answer(const Json& request) { return calibration_response(request, handle_request); }

}  // namespace

const std::vector<CommandSpec>& command_specs() {
  // The unknown-command error lists these in this order.
  static const std::vector<CommandSpec> commands = {
      estimate_command(),
      {"simulate", "the original's data-, model- or hybrid-parallel simulation of a CNN", nullptr, simulate_answer,
       false, true, nullptr},
      layers_command(),
      summary_command(),
      {"collective", "the time of one collective operation on a link or cluster", nullptr, collective_answer, false,
       true, nullptr},
      {"search", "the fastest layer-wise parallelization of a CNN over devices", nullptr, search_answer, false, true,
       nullptr},
      {"plan", "a transformer's layouts that fit, fastest first", nullptr, transformer_only_answer, false, false,
       transformer_plan_answer},
      inference_command(),
      {"validate", "the estimates of the validation cases against their published measurements", validate_answer,
       nullptr, false, false, nullptr},
      {"calibrate", "kernel-efficiency parameters fitted to measured times", calibrate_answer, nullptr, false, false,
       nullptr},
      presets_command(),
      version_command(),
      schema_command(),
  };
  return commands;
}

}  // namespace paleo
