// The estimate-only module's commands (PALEO_ESTIMATE_ONLY, docs/embed.md), in place of
// core/api/command_table.cpp: what the <paleo-estimate> element (a CNN, a transformer trained or
// served) and a first estimate ask for.
// The other commands stay in the table, answered with an error that names where they are, so
// that `schema` and the unknown-command error list the API as it is; their code is not linked.
#include "core/api/command_registry.h"
#include "core/api/estimate_path_commands.h"
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
      estimate_command(),
      {"simulate", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      layers_command(),
      summary_command(),
      {"collective", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"search", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"plan", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      inference_command(),  // a served LLM is an element's answer too (<paleo-estimate task="serve">)
      {"validate", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      {"calibrate", "not in this build", left_out_answer, nullptr, false, false, nullptr},
      presets_command(),
      version_command(),
      schema_command(),
  };
  return commands;
}

}  // namespace paleo
