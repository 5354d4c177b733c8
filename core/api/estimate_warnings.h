#pragma once
// api/: the warnings an estimate earns by its numbers (docs/api.md, "Warnings"): a device whose
// memory the step does not fit in, a batch that does not split evenly over the workers, links
// slower than the devices can feed. Each returns the sentence, or nothing when all is well.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cost/memory_footprint.h"
#include "core/hardware/cluster.h"
#include "core/hardware/device.h"

namespace paleo {

// The footprint `m` of one device (`where`: "one device", "each device of the cluster") over the
// device's memory; nothing when it fits or the capacity is unknown.
std::optional<std::string> memory_warning(const Device& device, const MemoryFootprint& m, const std::string& where);

// Strong scaling splits the global batch over each worker count: a count that does not divide it
// gets ceil(batch / workers) a worker, so the workers together run more samples than the batch.
std::vector<std::string> batch_split_warnings(std::int64_t batch, const std::vector<std::int64_t>& workers,
                                              const std::vector<std::string>& scalings);

// The gradient all-reduce (`algorithm`, `comm_ms`) of a cluster step alone takes longer than its
// compute (`compute_ms`): the links cannot keep up with the devices.
std::optional<std::string> slow_link_warning(const Cluster& cluster, const std::string& algorithm, double comm_ms,
                                             double compute_ms);

}  // namespace paleo
