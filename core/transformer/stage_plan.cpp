#include "core/transformer/stage_plan.h"

namespace paleo {

double ops_params(const std::vector<TransformerOp>& ops) {
  double p = 0;
  for (const TransformerOp& op : ops) p += op.params;
  return p;
}

ModelOps model_ops(const TransformerConfig& c, const OpContext& x) {
  ModelOps m;
  m.dense_layer = layer_ops(c, x, false);
  if (c.moe.enabled()) m.moe_layer = layer_ops(c, x, true);
  m.embedding = embedding_ops(c, x);
  m.head = head_ops(c, x);
  return m;
}

std::vector<StagePlan> stage_plans(const TransformerConfig& c, const ParallelLayout& p, const ModelOps& ops) {
  const std::int64_t chunks = p.pp * p.virtual_stages;
  std::vector<StagePlan> stages(static_cast<std::size_t>(p.pp));
  std::int64_t layer = 0;
  for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
    const std::int64_t n = c.layers / chunks + (chunk < c.layers % chunks ? 1 : 0);
    StagePlan& s = stages[static_cast<std::size_t>(chunk % p.pp)];
    for (std::int64_t i = 0; i < n; ++i, ++layer) {
      s.layers += 1;
      if (c.moe_layer(layer)) s.moe_layers += 1;
    }
  }
  stages.front().embedding = true;
  stages.back().head = true;
  const double embedding_params = ops_params(ops.embedding);
  for (StagePlan& s : stages) {
    s.params = static_cast<double>(s.layers - s.moe_layers) * ops_params(ops.dense_layer) +
               static_cast<double>(s.moe_layers) * ops_params(ops.moe_layer);
    for (const TransformerOp& op : ops.moe_layer)
      if (op.moe) s.expert_params += static_cast<double>(s.moe_layers) * op.params;
    if (s.embedding) s.params += embedding_params;
    if (s.head) {
      s.params += ops_params(ops.head);
      // A tied head on another stage than the embedding keeps its own copy of the weights.
      if (c.tied_embeddings && p.pp > 1)
        for (const TransformerOp& op : ops.head)
          if (op.name == "head.logits") s.params += op.n * op.k;
    }
  }
  return stages;
}

}  // namespace paleo
