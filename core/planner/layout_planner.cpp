#include "core/planner/layout_planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/base/error.h"
#include "core/base/request_limits.h"

namespace paleo {
namespace {

std::vector<std::int64_t> divisors(std::int64_t n, std::int64_t at_most) {
  std::vector<std::int64_t> out;
  for (std::int64_t d = 1; d <= n && d <= at_most; ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

std::string layout_text(const TrainingOptions& o) {
  const ParallelLayout& p = o.parallel;
  std::string s = "tp " + std::to_string(p.tp) + ", pp " + std::to_string(p.pp) + ", dp " + std::to_string(p.dp);
  if (p.cp > 1) s += ", cp " + std::to_string(p.cp);
  if (p.virtual_stages > 1) s += ", " + std::to_string(p.virtual_stages) + " virtual stages";
  s += ", micro-batch " + std::to_string(o.micro_batch) + ", " +
       (o.recompute == Recompute::kNone ? std::string("no") : recompute_name(o.recompute)) + " recompute, ZeRO " +
       std::to_string(o.zero);
  return s;
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f ms", std::fabs(ms));
  return buf;
}

// The two parts of the step that differ most between a layout and the best one.
std::string differences(const StepBreakdown& best, const StepBreakdown& other) {
  struct Part {
    const char* name;
    double delta;
  };
  std::vector<Part> parts = {
      {"compute (incl. recompute)", other.compute_ms - best.compute_ms},
      {"tensor-parallel communication", other.tp_comm_ms - best.tp_comm_ms},
      {"pipeline bubble", other.bubble_ms - best.bubble_ms},
      {"pipeline sends", other.pp_comm_ms - best.pp_comm_ms},
      {"exposed data-parallel communication", (other.dp_exposed_ms + other.zero3_exposed_ms) -
                                                  (best.dp_exposed_ms + best.zero3_exposed_ms)},
      {"optimizer", other.optimizer_ms - best.optimizer_ms},
      {"context/expert communication", (other.cp_comm_ms + other.ep_comm_ms) - (best.cp_comm_ms + best.ep_comm_ms)}};
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return std::fabs(a.delta) > std::fabs(b.delta); });
  std::string s;
  for (std::size_t i = 0; i < 2 && i < parts.size(); ++i) {
    if (std::fabs(parts[i].delta) < 0.5) break;
    s += (s.empty() ? "" : ", ") + std::string(parts[i].delta > 0 ? "+" : "-") + ms_text(parts[i].delta) + " " +
         parts[i].name;
  }
  return s.empty() ? "about the same parts" : s;
}

std::string percent_slower(double best_ms, double other_ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %% slower", (other_ms / best_ms - 1) * 100);
  return buf;
}

void explain(LayoutPlan& plan, const std::vector<PlanCandidate>& all, std::int64_t rejected_memory) {
  plan.why.push_back(std::to_string(plan.evaluated) + " layouts divide the problem; " + std::to_string(plan.feasible) +
                     " fit in memory (" + std::to_string(rejected_memory) + " do not).");
  if (all.empty()) return;
  const PlanCandidate& best = all.front();
  plan.why.push_back("Fastest: " + layout_text(best.options) + ".");
  // The best layout that differs in each choice: what the winner's choice buys.
  std::vector<const PlanCandidate*> told;
  auto best_other = [&](auto differs, const char* what) {
    for (const PlanCandidate& c : all)
      if (differs(c.options)) {
        if (std::find(told.begin(), told.end(), &c) != told.end()) return;  // already explained
        told.push_back(&c);
        plan.why.push_back(std::string("Best with another ") + what + " (" + layout_text(c.options) + "): " +
                           percent_slower(best.step_ms, c.step_ms) + ": " + differences(best.breakdown, c.breakdown) + ".");
        return;
      }
  };
  const TrainingOptions& b = best.options;
  best_other([&](const TrainingOptions& o) { return o.parallel.tp != b.parallel.tp; }, "tensor parallelism");
  best_other([&](const TrainingOptions& o) { return o.parallel.pp != b.parallel.pp; }, "pipeline depth");
  best_other([&](const TrainingOptions& o) { return o.micro_batch != b.micro_batch; }, "micro-batch");
  best_other([&](const TrainingOptions& o) { return o.recompute != b.recompute; }, "recompute policy");
  best_other([&](const TrainingOptions& o) { return o.zero != b.zero; }, "ZeRO stage");
}

// Every layout the planner considers, in its order; stops as soon as `visit` returns false. A
// ZeRO-3 layout starts from `zero3_base` where given (the stack a ZeRO-3 estimate would take).
template <typename Visit>
void for_each_layout(const TransformerConfig& c, const TrainingOptions& base, const TrainingOptions* zero3_base,
                     std::int64_t devices, std::int64_t per_node, Visit visit) {
  std::vector<std::int64_t> cps = {1};
  if (base.seq_len >= 32768)
    for (std::int64_t cp : {2, 4, 8}) cps.push_back(cp);
  for (std::int64_t tp : divisors(per_node, per_node)) {
    if (c.heads % tp != 0 || (c.kv_heads % tp != 0 && tp % c.kv_heads != 0)) continue;
    for (std::int64_t cp : cps) {
      if (devices % (tp * cp) != 0 || base.seq_len % cp != 0) continue;
      for (std::int64_t pp : divisors(devices / (tp * cp), c.layers)) {
        const std::int64_t dp = devices / (tp * cp * pp);
        for (std::int64_t micro : {1, 2, 4, 8, 16}) {
          if (base.global_batch % (dp * micro) != 0) continue;
          for (std::int64_t v : {1, 2, 4, 8}) {
            if (v > 1 && (pp == 1 || c.layers % (pp * v) != 0)) continue;
            for (Recompute r : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
              for (int zero = 0; zero <= (dp * cp > 1 ? 3 : 0); ++zero) {
                TrainingOptions o = zero == 3 && zero3_base ? *zero3_base : base;
                o.parallel = ParallelLayout{tp, pp, dp, cp, 1, v, tp > 1};
                o.micro_batch = micro;
                o.recompute = r;
                o.zero = zero;
                o.schedule = "1f1b";
                if (!visit(o)) return;
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

LayoutPlan plan_layouts(const TransformerConfig& c, const TrainingOptions& base, const Device& device,
                        const Cluster& cluster, std::int64_t top, const TrainingOptions* zero3_base) {
  const std::int64_t devices = cluster.devices();
  const std::int64_t per_node = cluster.devices_per_node;
  // Counted before any is priced: a device count with many divisors makes millions of layouts.
  std::int64_t layouts = 0;
  for_each_layout(c, base, zero3_base, devices, per_node,
                  [&](const TrainingOptions&) { return ++layouts <= kMaxPlanLayouts; });
  if (layouts > kMaxPlanLayouts)
    throw Error("more than " + std::to_string(kMaxPlanLayouts) + " layouts divide " + std::to_string(devices) +
                    " devices (the limit, docs/api.md): ask for a device count with fewer divisors",
                "", "devices");
  LayoutPlan plan;
  std::vector<PlanCandidate> all;
  std::int64_t rejected_memory = 0;
  for_each_layout(c, base, zero3_base, devices, per_node, [&](const TrainingOptions& o) {
    ++plan.evaluated;
    const TransformerMemory mem = estimate_training_memory(c, o, device.memory_bytes);
    if (!mem.fits()) {
      ++rejected_memory;
      return true;
    }
    const TrainingEstimate e = estimate_training(c, o, device, cluster, false);
    all.push_back({o, e.step_ms, e.tokens_per_s, e.mfu, mem.total_bytes(), e.breakdown});
    return true;
  });
  plan.feasible = static_cast<std::int64_t>(all.size());
  std::stable_sort(all.begin(), all.end(), [](const PlanCandidate& a, const PlanCandidate& b) { return a.step_ms < b.step_ms; });
  explain(plan, all, rejected_memory);
  all.resize(std::min<std::size_t>(all.size(), static_cast<std::size_t>(top)));
  plan.ranked = std::move(all);
  return plan;
}

}  // namespace paleo
