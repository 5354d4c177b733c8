#pragma once
// api/: the options of the commands, each group typed and read once (core/api/request.cpp); a
// command's handler (core/api/command_handlers.h) reads the groups it answers from. What each
// field means, its default and the commands that take it: core/api/command_registry.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "core/api/price_field.h"
#include "core/hardware/link.h"
#include "core/training_scheme/training_scheme.h"

namespace paleo {

// `simulate` (and `estimate` given "workers"): the original's parallel simulation.
struct SimulationOptions {
  std::string parallel = "data";
  std::vector<std::int64_t> workers = {1, 2, 4, 8, 16, 32, 64, 128};
  bool workers_given = false;
  std::vector<std::string> scalings = {"weak", "strong"};
  std::int64_t hybrid_workers = 1;
};

// `estimate`'s cluster step (docs/cluster.md); `search` reads its collective and overlap.
struct ClusterStepOptions {
  std::string collective = "auto";           // gradient all-reduce algorithm
  std::string collective_library;            // the stack's collective library; empty: the era's, else any
  double bucket_bytes = 25.0 * 1024 * 1024;  // PyTorch DDP's default bucket_cap_mb = 25
  bool overlap = true;
  bool overlap_given = false;                // the request says "overlap" (search: off unless it does)
  std::string optimizer = "sgd";             // sgd, momentum, adam
  std::int64_t pipeline_stages = 1;
  std::int64_t micro_batches = 1;
  std::string pipeline_schedule = "1f1b";    // gpipe or 1f1b
  std::vector<std::int64_t> pipeline_split;  // layers per stage; empty = balanced automatically
  // The node sweep (node_scaling) runs to the larger of this and the cluster's nodes; 0: its nodes.
  std::int64_t node_scaling_max_nodes = 0;
};

// `estimate`'s time and cost to train: passes over a dataset, a device-hour's price.
struct TrainOptions {
  std::int64_t dataset_samples = 0;  // 0 = not asked
  std::int64_t epochs = 1;
  DevicePrice price;
};

// `estimate`'s training scheme on the cluster (docs/training-schemes.md).
struct SchemeOptions {
  bool has_training_scheme = false;
  TrainingScheme training_scheme;
  bool comparison = false;  // add the comparison of schemes over node counts
};

// The `collective` command (its "workers" are SimulationOptions'; "servers" also price the
// cluster step's parameter servers).
struct CollectiveOptions {
  std::string op = "allreduce";
  std::string algorithm = "auto";
  double bytes = 0;
  bool has_link = false;
  Link link;
  std::int64_t servers = 1;
};

// `search` (layer-wise parallelism): total devices and devices per node; 0: not given.
struct SearchOptions {
  std::int64_t devices = 0;
  std::int64_t devices_per_node = 0;
};

// `layers` and `estimate` of a CNN.
struct LayersOptions {
  bool work_depth = false;  // add each layer's work and depth
};

}  // namespace paleo
