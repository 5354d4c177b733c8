#pragma once
// Synchronous data parallelism waits for the slowest replica: every step ends with an all-reduce
// that no replica can finish before the last one has contributed (Chen et al., "Revisiting
// Distributed Synchronous SGD", 2016: "idle time wasted on waiting for straggling workers").
// The variation is counted per server: a server's GPUs share its CPUs and input pipeline, its
// network adapter and its operating system's interruptions, and the eras' own one-server cases (2
// to 8 GPUs) fit no wait among the GPUs of one server (docs/validation.md). With per-server
// compute times independent and normal (mean mu, standard deviation cv x mu), the step's compute
// is the expected maximum of N of them: mu + cv x mu x E[max of N standard normals]. The wait grows
// with the servers (about sqrt(2 ln N)) and is nil on one server.
#include <cstdint>

namespace paleo {

// E[max of n independent standard normals]: 0 for n = 1, 1/sqrt(pi) for n = 2.
double expected_max_standard_normal(std::int64_t n);

// The expected wait for the slowest of `servers` servers whose compute takes `compute_ms` on
// average with coefficient of variation `jitter_cv`.
double straggler_wait_ms(double compute_ms, double jitter_cv, std::int64_t servers);

}  // namespace paleo
