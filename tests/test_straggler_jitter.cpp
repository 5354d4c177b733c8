// Straggler expectations (docs/training-schemes.md): E[max over m workers] of jittered step
// times, by numerical integration, against a seeded Monte-Carlo simulation of 10^5 steps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/base/error.h"
#include "core/training_scheme/straggler_jitter.h"

namespace {

using paleo::JitterDistribution;
using paleo::StragglerModel;

// One sample of a worker's step time: mean x a unit-mean factor of coefficient of variation `cv`.
double sample(JitterDistribution d, double mean, double cv, std::mt19937_64& rng) {
  if (d == JitterDistribution::kNormal) return std::normal_distribution<double>(mean, cv * mean)(rng);
  const double sigma = std::sqrt(std::log(1 + cv * cv));
  return std::lognormal_distribution<double>(std::log(mean) - sigma * sigma / 2, sigma)(rng);
}

// E[max_i (mean of `steps` consecutive steps of worker i)], worker 0 slow by `slow`.
double monte_carlo(const StragglerModel& j, double mean, int workers, int steps, int samples, unsigned seed) {
  std::mt19937_64 rng(seed);
  double total = 0;
  for (int s = 0; s < samples; ++s) {
    double worst = -1e300;
    for (int w = 0; w < workers; ++w) {
      const double m = w == 0 ? mean * (1 + j.slow_fraction) : mean;
      double sum = 0;
      for (int k = 0; k < steps; ++k) sum += sample(j.distribution, m, j.spread, rng);
      worst = std::max(worst, sum / steps);
    }
    total += worst;
  }
  return total / samples;
}

StragglerModel jitter(JitterDistribution d, double cv, double slow = 0) {
  StragglerModel j;
  j.distribution = d;
  j.spread = cv;
  j.slow_fraction = slow;
  return j;
}

}  // namespace

TEST_CASE("E[max] of jittered workers agrees with a seeded Monte-Carlo simulation within 2 %") {
  struct Case { StragglerModel j; int workers; int steps; };
  const Case cases[] = {
      {jitter(JitterDistribution::kLognormal, 0.2), 64, 1},
      {jitter(JitterDistribution::kNormal, 0.1), 16, 1},
      {jitter(JitterDistribution::kLognormal, 0.1, 0.2), 64, 1},  // plus one worker 20 % slower
      {jitter(JitterDistribution::kNormal, 0.2), 8, 4},           // SSP, s = 3
      {jitter(JitterDistribution::kLognormal, 0.3), 8, 4},        // SSP, lognormal: moment match
  };
  unsigned seed = 14;
  for (const Case& c : cases) {
    const double model = paleo::expected_max_step_ms(c.j, 100.0, c.workers, c.steps);
    const double mc = monte_carlo(c.j, 100.0, c.workers, c.steps, 100000, seed++);
    INFO(paleo::jitter_distribution_name(c.j.distribution) << " cv " << c.j.spread << " m " << c.workers << " steps "
                                                           << c.steps << ": model " << model << " mc " << mc);
    CHECK(std::abs(model - mc) <= 0.02 * mc);
    CHECK(model > 100.0);  // the barrier costs something
  }
}

TEST_CASE("closed forms: no jitter, one worker, two normal workers, a lone slow worker") {
  StragglerModel none;
  CHECK(paleo::expected_max_step_ms(none, 37.5, 64) == 37.5);
  // One normal worker: E[T] = mean.
  CHECK(paleo::expected_max_step_ms(jitter(JitterDistribution::kNormal, 0.2), 10, 1) == Approx(10).epsilon(1e-9));
  CHECK(paleo::expected_max_step_ms(jitter(JitterDistribution::kLognormal, 0.5), 10, 1) == Approx(10).epsilon(1e-6));
  // Two i.i.d. normal workers: E[max] = mu + sigma / sqrt(pi).
  CHECK(paleo::expected_max_step_ms(jitter(JitterDistribution::kNormal, 0.2), 10, 2) ==
        Approx(10 + 2 / std::sqrt(M_PI)).epsilon(1e-9));
  // Without jitter a persistently 20 % slower worker sets the pace.
  StragglerModel slow;
  slow.slow_fraction = 0.2;
  CHECK(paleo::expected_max_step_ms(slow, 10, 64) == Approx(12).epsilon(1e-15));
  // Averaging s + 1 steps narrows the spread: SSP's expectation falls towards the mean.
  const StragglerModel j = jitter(JitterDistribution::kLognormal, 0.2);
  CHECK(paleo::expected_max_step_ms(j, 10, 64, 5) < paleo::expected_max_step_ms(j, 10, 64, 1));
}

TEST_CASE("jitter text: kinds and bad values") {
  const StragglerModel j = paleo::parse_jitter("lognormal:0.2", "jitter");
  CHECK(j.distribution == JitterDistribution::kLognormal);
  CHECK(j.spread == 0.2);
  CHECK(paleo::parse_jitter("none", "jitter").distribution == JitterDistribution::kNone);
  for (const char* bad : {"lognormal", "lognormal:", "lognormal:x", "normal:-1", "normal:3", "gamma:0.2"})
    CHECK_THROWS_AS(paleo::parse_jitter(bad, "jitter"), paleo::Error);
}
