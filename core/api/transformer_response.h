#pragma once
// The JSON of transformer requests: estimate (step time, throughput, FLOPs, MFU, memory, the
// per-operator table), layers, summary, plan and inference (docs/api.md, docs/transformer.md).
#include "core/api/request.h"
#include "core/base/json.h"

namespace paleo {

Json transformer_response(const Request& request);

}  // namespace paleo
