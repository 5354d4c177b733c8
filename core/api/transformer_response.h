#pragma once
// The JSON of transformer requests: estimate (step time, throughput, FLOPs, MFU, memory, the
// per-operator table), layers, summary, plan and inference (docs/api.md, docs/transformer.md).
#include "core/api/request.h"
#include "core/base/json.h"

namespace paleo {

// A transformer's answer to each command that takes one (the registry's handle_transformer,
// core/api/command_registry.h): estimate and layers give the same answer.
Json transformer_estimate_answer(const Request& request);
Json transformer_summary_answer(const Request& request);
Json transformer_plan_answer(const Request& request);
Json transformer_inference_answer(const Request& request);

}  // namespace paleo
