// Every command of the JSON API (core/api/command_registry.h). The estimate-only module links
// core/api/estimate_only/command_table.cpp in its place.
#include "core/api.h"
#include "core/api/command_handlers.h"
#include "core/api/command_registry.h"
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
      {"estimate", "a step's time per layer and in total, with the cluster, scaling and time to train asked for",
       nullptr, estimate_answer, false, true, transformer_estimate_answer},
      {"simulate", "the original's data-, model- or hybrid-parallel simulation of a CNN", nullptr, simulate_answer,
       false, true, nullptr},
      {"layers", "each layer's shapes, work and time on one device", nullptr, layers_answer, false, true,
       transformer_estimate_answer},
      {"summary", "each layer's output shape and parameters, without a device", nullptr, summary_answer, false, false,
       transformer_summary_answer},
      {"collective", "the time of one collective operation on a link or cluster", nullptr, collective_answer, false,
       true, nullptr},
      {"search", "the fastest layer-wise parallelization of a CNN over devices", nullptr, search_answer, false, true,
       nullptr},
      {"plan", "a transformer's layouts that fit, fastest first", nullptr, transformer_only_answer, false, false,
       transformer_plan_answer},
      {"inference", "a transformer's prefill and decode times", nullptr, transformer_only_answer, false, false,
       transformer_inference_answer},
      {"validate", "the estimates of the validation cases against their published measurements", validate_answer,
       nullptr, false, false, nullptr},
      {"calibrate", "kernel-efficiency parameters fitted to measured times", calibrate_answer, nullptr, false, false,
       nullptr},
      {"presets", "the preset nets, devices, clusters, eras and names a request may use", nullptr, presets_answer, true,
       false, nullptr},
      {"version", "the core's version and its model profiles", nullptr, version_answer, true, false, nullptr},
      {"schema", "this description of every command and its fields", schema_answer, nullptr, false, false, nullptr},
  };
  return commands;
}

}  // namespace paleo
