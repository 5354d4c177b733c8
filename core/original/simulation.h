#pragma once
// The original's three parallel modes (simulation.py): data parallelism with weak and strong
// scaling, model parallelism (branch bounds), and hybrid ("one weird trick").
#include <cstdint>
#include <array>
#include <string>
#include <vector>

#include "core/original/original_schemes.h"
#include "core/cost/scenario.h"

namespace paleo {

struct ScalingRow {
  std::int64_t workers = 1;
  Dim batch_size = 0;  // effective (global) batch
  std::int64_t iterations = 1;
  double fwd_ms = 0, bwd_ms = 0, apply_ms = 0, comp_ms = 0;
  std::array<double, 4> comm_ms{};  // per OriginalScheme, in kOriginalSchemes order
  std::array<double, 4> speedup{};  // weak: n*T(1)/T(n); strong: T(1)/T(n)
};

struct ScalingTable {
  std::string scaling;  // "weak" or "strong"
  std::vector<ScalingRow> rows;
};

// The scheme of the least communication time in a row (the first of kOriginalSchemes on a tie).
std::size_t fastest_scheme_index(const ScalingRow& row);

std::vector<ScalingTable> simulate_data_parallel(const Scenario& s, const std::vector<std::int64_t>& workers,
                                                 const std::vector<std::string>& scalings);

struct ModelParallelResult {
  BranchBounds forward, backward;
};

ModelParallelResult simulate_model_parallel(const Scenario& s);

struct HybridRow {
  std::string part;  // "data" or "model"
  std::int64_t workers = 1;
  Dim batch_size = 0;
  double fwd_ms = 0, bwd_ms = 0, apply_ms = 0, sync_ms = 0;
};

struct HybridResult {
  HybridRow data, model;
  double iteration_ms() const;
};

HybridResult simulate_hybrid(const Scenario& s, std::int64_t hybrid_workers);

}  // namespace paleo
