#include "core/api/estimate_path_commands.h"

#include "core/api/command_handlers.h"
#include "core/api/transformer_response.h"

namespace paleo {

CommandSpec estimate_command() {
  return {"estimate",
          "a step's time per layer and in total, with the cluster, scaling and time to train asked for",
          nullptr,
          estimate_answer,
          false,
          true,
          transformer_estimate_answer};
}

CommandSpec layers_command() {
  return {"layers",
          "each layer's shapes, work and time on one device",
          nullptr,
          layers_answer,
          false,
          true,
          transformer_estimate_answer};
}

CommandSpec summary_command() {
  return {"summary",
          "each layer's output shape and parameters, without a device",
          nullptr,
          summary_answer,
          false,
          false,
          transformer_summary_answer};
}

CommandSpec inference_command() {
  return {"inference",
          "a transformer's prefill and decode times",
          nullptr,
          transformer_only_answer,
          false,
          false,
          transformer_inference_answer};
}

CommandSpec presets_command() {
  return {"presets", "the preset nets, devices, clusters, eras and names a request may use",
          nullptr,   presets_answer,
          true,      false,
          nullptr};
}

CommandSpec version_command() {
  return {"version", "the core's version and its model profiles", nullptr, version_answer, true, false, nullptr};
}

CommandSpec schema_command() {
  return {"schema", "this description of every command and its fields", schema_answer, nullptr, false, false, nullptr};
}

}  // namespace paleo
