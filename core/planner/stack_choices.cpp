#include "core/planner/stack_choices.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "core/transformer/training_step.h"

namespace paleo {
namespace {

// Interleavings Megatron-Core can run: chunks of whole layers (the last chunks one layer short
// when the layers do not divide), and micro-batches in whole rounds of the pipeline.
std::vector<std::int64_t> interleavings(const TransformerConfig& c, const TrainingOptions& o) {
  const ParallelLayout& p = o.parallel;
  std::vector<std::int64_t> out = {1};
  if (p.pp <= 1 || o.schedule != "1f1b" || o.micro_batches() % p.pp != 0) return out;
  const std::int64_t per_stage = (c.layers + p.pp - 1) / p.pp;
  for (std::int64_t v = 2; v <= per_stage && p.pp * v <= c.layers; ++v)
    if (per_stage % v == 0) out.push_back(v);
  return out;
}

}  // namespace

TrainingOptions resolve_stack_choices(const TransformerConfig& c, TrainingOptions o, const Device& device,
                                      const Cluster& cluster, StackChoices which) {
  const std::vector<Recompute> recomputes =
      which.recompute ? std::vector<Recompute>{Recompute::kNone, Recompute::kSelective, Recompute::kFull}
                      : std::vector<Recompute>{o.recompute};
  const std::vector<std::int64_t> vs =
      which.virtual_stages ? interleavings(c, o) : std::vector<std::int64_t>{o.parallel.virtual_stages};
  for (Recompute r : recomputes) {
    bool found = false;
    TrainingOptions best = o;
    double best_ms = 0;
    for (std::int64_t v : vs) {
      TrainingOptions trial = o;
      trial.recompute = r;
      trial.parallel.virtual_stages = v;
      if (device.memory_bytes > 0 && !estimate_training_memory(c, trial, device.memory_bytes).fits()) continue;
      const double ms = estimate_training(c, trial, device, cluster, false).step_ms;
      if (!found || ms < best_ms) {
        found = true;
        best = trial;
        best_ms = ms;
      }
    }
    if (found) return best;
  }
  o.recompute = which.recompute ? Recompute::kFull : o.recompute;
  if (which.virtual_stages) o.parallel.virtual_stages = 1;
  return o;
}

TrainingOptions smallest_tp_that_fits(const TransformerConfig& c, TrainingOptions o, const Device& device,
                                      const Cluster& cluster, StackChoices which, bool sequence_parallel_follows,
                                      bool derive_global_batch) {
  const std::int64_t devices = cluster.devices();
  std::optional<TrainingOptions> largest;
  for (std::int64_t tp = 1; tp <= std::max<std::int64_t>(cluster.devices_per_node, 1); tp *= 2) {
    ParallelLayout p = o.parallel;
    const std::int64_t model_parallel = tp * p.pp * p.cp;
    if (c.heads % tp != 0 || devices % model_parallel != 0) continue;
    TrainingOptions trial = o;
    trial.parallel.tp = tp;
    trial.parallel.dp = devices / model_parallel;
    if (sequence_parallel_follows) trial.parallel.sequence_parallel = tp > 1;
    if (derive_global_batch) trial.global_batch = trial.parallel.dp * trial.micro_batch;
    if (trial.global_batch % (trial.parallel.dp * trial.micro_batch) != 0) continue;  // no whole micro-batches
    trial = resolve_stack_choices(c, trial, device, cluster, which);
    if (device.memory_bytes <= 0 || estimate_training_memory(c, trial, device.memory_bytes).fits()) return trial;
    largest = trial;
  }
  return largest ? *largest : o;
}

}  // namespace paleo
