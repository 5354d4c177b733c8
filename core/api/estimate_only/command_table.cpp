// The estimate-only module's commands (PALEO_ESTIMATE_ONLY, docs/embed.md), in place of
// core/api/command_table.cpp: what the <paleo-estimate> element (a CNN, a transformer trained or
// served) and a first estimate ask for.
// The other commands stay in the table, answered with an error that names where they are, so
// that `schema` and the unknown-command error list the API as it is; their code is not linked.
#include "core/api/command_handlers.h"
#include "core/api/command_registry.h"
#include "core/api/transformer_response.h"
#include "core/base/error.h"

namespace paleo {
namespace {

Json left_out_answer(const Json& request) {
  throw Error("command '" + request.at("command").get<std::string>() +
                  "' is not in this estimate-only build (it answers estimate, layers, summary, inference, presets, "
                  "version and schema): the page, the CLI and the npm package answer it",
              "", "command");
}

}  // namespace

const std::vector<CommandSpec>& command_specs() {
  // The unknown-command error lists these in this order (core/api/command_table.cpp's).
  static const std::vector<CommandSpec> commands = {
      {"estimate", "a step's time per layer and in total, with the cluster, scaling and time to train asked for",
       nullptr, estimate_answer, false, true, transformer_estimate_answer},
      {"simulate", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"layers", "each layer's shapes, work and time on one device", nullptr, layers_answer, false, true,
       transformer_estimate_answer},
      {"summary", "each layer's output shape and parameters, without a device", nullptr, summary_answer, false, false,
       transformer_summary_answer},
      {"collective", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"search", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"plan", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      // A served LLM is an element's answer too (<paleo-estimate task="serve">).
      {"inference", "a transformer's prefill and decode times", nullptr, transformer_only_answer, false, false,
       transformer_inference_answer},
      {"validate", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"calibrate", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"presets", "the preset nets, devices, clusters, eras and names a request may use", nullptr, presets_answer, true,
       false, nullptr},
      {"version", "the core's version and its model profiles", nullptr, version_answer, true, false, nullptr},
      {"schema", "this description of every command and its fields", schema_answer, nullptr, false, false, nullptr},
  };
  return commands;
}

}  // namespace paleo
