#pragma once
// Worker step-time jitter (Ben-Nun & Hoefler's survey, section 6.1; features K1 and K3 of
// docs/training-schemes.md): each worker's
// compute time per step is the mean time times a random factor (none; normal or lognormal with a
// coefficient of variation), and optionally one persistently slow worker. The expectations a
// consistency model needs: E[max over m workers] (a barrier) and the same of each worker's mean
// over s + 1 consecutive steps (a staleness bound s), by numerical integration.
#include <cstdint>
#include <string>

namespace paleo {

enum class JitterDistribution { kNone, kNormal, kLognormal };

struct StragglerModel {
  JitterDistribution distribution = JitterDistribution::kNone;
  double spread = 0;          // coefficient of variation of one worker's step time
  double slow_fraction = 0;   // one worker is persistently (1 + slow_fraction) x slower; 0 = none
};

// Parses "none", "normal:0.1", "lognormal:0.2" (throws paleo::Error naming `field`). The
// coefficient of variation is in (0, 2]; normal's at most 0.3 (a wider one has negative times).
StragglerModel parse_jitter(const std::string& text, const std::string& field);
const char* jitter_distribution_name(JitterDistribution d);

// The probability that one step of a worker with mean time `mean_ms` and coefficient of
// variation `spread` takes at most `x_ms`.
double step_time_cdf(JitterDistribution d, double mean_ms, double spread, double x_ms);

// E[max_i T_i] over `workers` workers whose mean step time is `mean_ms` (the slow worker's
// (1 + slow_fraction) x mean_ms), each averaged over `steps_averaged` consecutive i.i.d. steps
// (1 for a barrier; s + 1 for the stale-synchronous first-order model). The average of n steps
// keeps the mean and divides the coefficient of variation by sqrt(n) (exact for normal jitter;
// for lognormal the Fenton-Wilkinson moment match).
double expected_max_step_ms(const StragglerModel& jitter, double mean_ms, std::int64_t workers,
                            std::int64_t steps_averaged = 1);

}  // namespace paleo
