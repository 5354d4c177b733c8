#pragma once
// The transformer cut into pipeline stages: L layers over pp x v chunks (interleaved 1F1B gives
// each device v chunks, stage i holding chunks i, i + pp, ...), the embedding on the first stage,
// the output head and loss on the last. A tied head keeps its copy of the embedding on the last
// stage when pp > 1 (Megatron-LM).
#include <cstdint>
#include <vector>

#include "core/transformer/layer_ops.h"

namespace paleo {

struct OpGroup {
  std::vector<TransformerOp> ops;
  double count = 0;  // how many times the group occurs on the stage (layers) or in the model
};

struct StagePlan {
  std::int64_t layers = 0;          // transformer layers on this device (all its chunks)
  std::int64_t moe_layers = 0;
  bool embedding = false;
  bool head = false;
  double params = 0;        // parameters on this device
  double expert_params = 0; // of which MoE experts' (replicated over dp x cp / ep ranks only)
};

// One layer's ops (dense and MoE variants), the embedding and the head under a context.
struct ModelOps {
  std::vector<TransformerOp> dense_layer, moe_layer, embedding, head;
};

ModelOps model_ops(const TransformerConfig& c, const OpContext& x);

// Layers per device for every pipeline stage; uneven splits give the first chunks one more.
std::vector<StagePlan> stage_plans(const TransformerConfig& c, const ParallelLayout& p, const ModelOps& ops);

double ops_params(const std::vector<TransformerOp>& ops);

}  // namespace paleo
