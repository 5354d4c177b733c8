#include "core/transformer/step_flops.h"

namespace paleo {
namespace {

double forward_flops(const std::vector<TransformerOp>& ops) {
  double f = 0;
  for (const TransformerOp& op : ops) f += op.model_flops_fwd();
  return f;
}

double recomputed_flops(const std::vector<TransformerOp>& ops, Recompute r) {
  double f = 0;
  for (const TransformerOp& op : ops)
    f += recompute_share(op, r) * op.model_flops_fwd();
  return f;
}

}  // namespace

StepFlops step_flops(const TransformerConfig& c, const TrainingOptions& o, const ModelOps& ops) {
  // The ops are per device and micro-batch: x the TP and CP shards x every micro-batch of the step.
  const ParallelLayout& p = o.parallel;
  const double scale = static_cast<double>(p.tp * p.cp) * static_cast<double>(o.global_batch / o.micro_batch);
  const double moe_layers = static_cast<double>(c.moe_layer_count());
  const double dense_layers = static_cast<double>(c.layers) - moe_layers;
  const double fwd = dense_layers * forward_flops(ops.dense_layer) + moe_layers * forward_flops(ops.moe_layer) +
                     forward_flops(ops.embedding) + forward_flops(ops.head);
  const double redo = dense_layers * recomputed_flops(ops.dense_layer, o.recompute) +
                      moe_layers * recomputed_flops(ops.moe_layer, o.recompute);
  StepFlops f;
  f.model = 3 * fwd * scale;
  f.hardware = f.model + redo * scale;
  return f;
}

}  // namespace paleo
