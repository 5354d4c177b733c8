#pragma once
// api/: the command rows of the estimate path (estimate, layers, summary, inference, presets,
// version, schema), shared by the full command table (command_table.cpp) and the estimate-only
// one (estimate_only/command_table.cpp), so that both answer and describe them the same way.
#include "core/api/command_registry.h"

namespace paleo {

CommandSpec estimate_command();
CommandSpec layers_command();
CommandSpec summary_command();
CommandSpec inference_command();
CommandSpec presets_command();
CommandSpec version_command();
CommandSpec schema_command();

}  // namespace paleo
