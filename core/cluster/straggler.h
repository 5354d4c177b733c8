#pragma once
// Synchronous data parallelism waits for the slowest replica: every step ends with an all-reduce
// that no replica can finish before the last one has contributed (Chen et al., "Revisiting
// Distributed Synchronous SGD", 2016: "idle time wasted on waiting for straggling workers").
// With per-replica compute times independent and normal (mean mu, standard deviation cv x mu), the
// step's compute is the expected maximum of N of them: mu + cv x mu x E[max of N standard normals].
// The wait grows with the replicas (about sqrt(2 ln N)) and is nil for one replica, so it costs
// nothing on one device and most at hundreds of replicas.
#include <cstdint>

namespace paleo {

// E[max of n independent standard normals]: 0 for n = 1, 1/sqrt(pi) for n = 2.
double expected_max_standard_normal(std::int64_t n);

// The expected wait for the slowest of `replicas` replicas whose compute takes `compute_ms` on
// average with coefficient of variation `jitter_cv`.
double straggler_wait_ms(double compute_ms, double jitter_cv, std::int64_t replicas);

}  // namespace paleo
