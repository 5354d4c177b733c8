#pragma once
// Consistency models (Ben-Nun & Hoefler's survey, section 6.1 and Table 8's "model consistency"
// rows; features K1-K3 of docs/training-schemes.md): synchronous
// (a barrier: the slowest worker sets the pace), stale-synchronous with bound s (Ho et al. 2013),
// asynchronous through a parameter server (each worker at its own pace, the servers' links
// capping the total). Each gives the expected time per step, the updates per second and the
// expected staleness of a gradient.
#include <cstdint>
#include <string>

#include "core/training_scheme/straggler_jitter.h"

namespace paleo {

enum class Consistency { kSynchronous, kStaleSynchronous, kAsynchronous };

Consistency parse_consistency(const std::string& text, const std::string& field);  // sync, ssp, async
const char* consistency_name(Consistency c);

struct ConsistencyStep {
  double step_ms = 0;              // expected time of one step of all workers (async: `workers` updates)
  double updates_per_s = 0;        // gradients applied per second, all workers together
  double staleness_expected = 0;   // updates a gradient misses, on average
  double staleness_bound = 0;      // at most (async: none; reported as the expectation)
  bool capped_by_servers = false;  // async: the servers' links, not the workers, set the rate
};

// Synchronous and stale-synchronous: `step_ms` is the deterministic step (compute + exposed
// communication), `compute_ms` its compute part, which jitters. SSP's first-order model:
// E[max_i (mean of s + 1 consecutive compute times of worker i)] replaces the compute part; s = 0
// is the barrier, E[max_i T_i]. Zero jitter gives `step_ms` exactly. Staleness: 0 for a barrier;
// SSP's bound s, and s / 2 expected (workers drift evenly within the bound).
ConsistencyStep synchronous_step(const StragglerModel& jitter, double step_ms, double compute_ms,
                                 std::int64_t workers, std::int64_t staleness);

// Asynchronous: worker i repeats compute_i + exchange_ms (its own push and pull); the long-run
// rate is sum_i 1 / E[T_i] (a renewal process: jitter averages out, a persistently slow worker
// does not), capped at `server_updates_per_s`. The step is the time of `workers` updates; the
// expected staleness is the updates the others apply during one worker's step, workers - 1.
ConsistencyStep asynchronous_step(const StragglerModel& jitter, double compute_ms, double exchange_ms,
                                  std::int64_t workers, double server_updates_per_s);

}  // namespace paleo
