#pragma once
// api/: the time and cost to train of a CNN `estimate` (docs/api.md, "Time to train"): every
// setup the response priced (one device; each worker count of the PALEO 2017 simulation at its
// fastest scheme; the cluster), trained for the request's epochs over its dataset. Built from the
// typed results the response's sections are written from, not read back out of their JSON.
#include <cstdint>
#include <string>
#include <vector>

#include "core/api/request.h"
#include "core/base/json.h"
#include "core/cluster/cluster_step.h"
#include "core/original/simulation.h"

namespace paleo {

// One way the response ran a step: how many devices, the all-reduce (empty on one device), the
// samples and time of one step.
struct TrainSetup {
  std::string name;
  // Which part of the response priced it: "one_device" (totals), "paleo2017_workers" (the
  // original's simulation over its interconnect) or "cluster".
  std::string kind;
  std::int64_t devices = 1;
  std::string scheme;
  double samples_per_step = 0;
  double step_ms = 0;
};

// One device at the request's batch, in the time of `totals.step_ms`.
TrainSetup one_device_setup(std::int64_t batch_size, double step_ms);

// Each row above one worker of a data-parallel scaling table, at its fastest scheme over the
// PALEO interconnect named `interconnect_name`.
std::vector<TrainSetup> original_setups(const ScalingTable& table, const std::string& interconnect_name);

// The cluster's step (the response's `cluster`).
TrainSetup cluster_setup(const ClusterStep& step);

// The `train` section of `estimate` for `setups` in the response's order; `headline_index` is the
// setup the response's own step is. Null when the request names no dataset_samples.
Json cnn_train_json(const Request& r, const std::vector<TrainSetup>& setups, std::size_t headline_index);

}  // namespace paleo
