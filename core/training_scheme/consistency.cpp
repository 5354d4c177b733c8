#include "core/training_scheme/consistency.h"

#include <algorithm>

#include "core/base/error.h"

namespace paleo {

Consistency parse_consistency(const std::string& text, const std::string& field) {
  if (text == "sync") return Consistency::kSynchronous;
  if (text == "ssp") return Consistency::kStaleSynchronous;
  if (text == "async") return Consistency::kAsynchronous;
  throw Error("unknown consistency '" + text + "' (sync, ssp, async)", "", field);
}

const char* consistency_name(Consistency c) {
  switch (c) {
    case Consistency::kSynchronous: return "sync";
    case Consistency::kStaleSynchronous: return "ssp";
    case Consistency::kAsynchronous: return "async";
  }
  return "sync";
}

ConsistencyStep synchronous_step(const StragglerModel& jitter, double step_ms, double compute_ms,
                                 std::int64_t workers, std::int64_t staleness) {
  ConsistencyStep out;
  const double expected_compute_ms = expected_max_step_ms(jitter, compute_ms, workers, staleness + 1);
  out.step_ms = step_ms + (expected_compute_ms - compute_ms);
  out.updates_per_s = static_cast<double>(workers) / out.step_ms * 1e3;
  out.staleness_bound = static_cast<double>(staleness);
  out.staleness_expected = static_cast<double>(staleness) / 2;
  return out;
}

ConsistencyStep asynchronous_step(const StragglerModel& jitter, double compute_ms, double exchange_ms,
                                  std::int64_t workers, double server_updates_per_s) {
  ConsistencyStep out;
  const double m = static_cast<double>(workers);
  const double period_ms = compute_ms + exchange_ms;  // E[T_i]: the jitter keeps the mean
  double rate = 1e3 / period_ms * m;
  if (jitter.slow_fraction > 0)
    rate = 1e3 / period_ms * (m - 1) + 1e3 / (compute_ms * (1 + jitter.slow_fraction) + exchange_ms);
  if (server_updates_per_s > 0 && rate > server_updates_per_s) {
    rate = server_updates_per_s;
    out.capped_by_servers = true;
  }
  out.updates_per_s = rate;
  out.step_ms = workers == 1 && !out.capped_by_servers && jitter.slow_fraction <= 0 ? period_ms : m / rate * 1e3;
  out.staleness_expected = out.staleness_bound = m - 1;
  return out;
}

}  // namespace paleo
