#include "core/training_scheme/consistency.h"

#include <algorithm>

#include "core/base/enum_names.h"
#include "core/base/error.h"

namespace paleo {

namespace {

const EnumName<Consistency> kConsistencies[] = {
    {Consistency::kSynchronous, "sync"}, {Consistency::kStaleSynchronous, "ssp"}, {Consistency::kAsynchronous, "async"}};

}  // namespace

Consistency parse_consistency(const std::string& text, const std::string& field) {
  return parse_enum(kConsistencies, text, "consistency", field);
}

const char* consistency_name(Consistency c) { return enum_name(kConsistencies, c); }

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
