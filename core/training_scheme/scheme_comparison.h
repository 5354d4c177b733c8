#pragma once
// The side-by-side comparison of training schemes over worker counts (the page's plot and
// docs/training-schemes.md): synchronous all-reduce, SSP with s = 4, asynchronous through one
// parameter server, top-1 % sparsification, fp16 gradients and local SGD every 8 steps, each with
// the request's jitter and straggler, priced on 1, 2, 4, ... nodes of the request's cluster.
#include <cstdint>
#include <string>
#include <vector>

#include "core/training_scheme/training_scheme.h"

namespace paleo {

struct ComparedScheme {
  std::string name;
  TrainingScheme scheme;
};

// The compared schemes, each with `jitter` (the request's jitter and straggler).
std::vector<ComparedScheme> compared_schemes(const StragglerModel& jitter);

struct ComparisonPoint {
  std::int64_t nodes = 0, workers = 0;
  double step_ms = 0, throughput_samples_per_s = 0, wire_bytes_per_step = 0;
};

struct SchemeSweep {
  std::string name;
  std::vector<ComparisonPoint> points;
};

// Each compared scheme on 1, 2, 4, ... nodes up to the scenario's (and the scenario's own count).
std::vector<SchemeSweep> scheme_comparison(const Scenario& scenario, const ClusterOptions& options,
                                           const StragglerModel& jitter, NetworkPricer& pricer);

}  // namespace paleo
