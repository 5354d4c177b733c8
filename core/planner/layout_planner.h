#pragma once
// planner/: for a model, a cluster and a global batch, every parallel layout (TP, PP, DP,
// micro-batch, interleaving, recompute, ZeRO stage; context parallelism for long sequences)
// that divides the problem, those that fit in memory ranked by step time, with the reasons the
// best one wins.
#include <cstdint>
#include <string>
#include <vector>

#include "core/transformer/training_step.h"

namespace paleo {

struct PlanCandidate {
  TrainingOptions options;
  double step_ms = 0;
  double tokens_per_s = 0;
  double mfu = 0;
  double memory_bytes = 0;
  StepBreakdown breakdown;
};

struct LayoutPlan {
  std::int64_t evaluated = 0;      // layouts that divide the problem
  std::int64_t feasible = 0;       // of which fit in memory
  std::vector<PlanCandidate> ranked;  // the fastest `top`, fastest first
  std::vector<std::string> why;
};

// `base` carries what is fixed: precision, sequence, global batch, attention kernel, optimizer,
// overlap. Everything else is searched. `zero3_base`, when given, is the stack a ZeRO-3 layout
// runs on instead (its kernels, collective library, gathers and memory choices): the stack a
// ZeRO-3 estimate of the same request would take (core/efficiency/software_era.h).
LayoutPlan plan_layouts(const TransformerConfig& c, const TrainingOptions& base, const Device& device,
                        const Cluster& cluster, std::int64_t top, const TrainingOptions* zero3_base = nullptr);

}  // namespace paleo
