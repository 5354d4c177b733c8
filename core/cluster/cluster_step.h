#pragma once
// One training step on a cluster (N nodes x G devices): data parallelism with bucketed gradient
// all-reduce, with and without overlap, for every collective algorithm; optionally pipeline
// parallelism (S stages x M micro-batches) combined with data parallelism; memory per device.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cluster/collectives.h"
#include "core/cluster/gradient_sync.h"
#include "core/cost/memory_footprint.h"
#include "core/cost/network_pricer.h"
#include "core/cluster/pipeline.h"
#include "core/cost/scenario.h"

namespace paleo {

struct ClusterOptions {
  CollectiveAlgorithm collective = CollectiveAlgorithm::kAuto;
  // The stack's collective library: `auto` chooses among its algorithms (collectives.h).
  CollectiveLibrary library = CollectiveLibrary::kAny;
  double bucket_bytes = 25.0 * 1024 * 1024;
  bool overlap = true;  // which of the two steps is the headline
  std::int64_t pipeline_stages = 1;
  std::int64_t micro_batches = 1;
  std::string schedule = "1f1b";
  std::vector<std::int64_t> split;  // layers per stage; empty = balanced
  std::int64_t servers = 1;         // sharded parameter server
  bool find_max_batch = true;  // search the largest batch that fits (data parallelism only)
};

struct SyncOption {
  std::string algorithm;
  GradientSync sync;
  double step_no_overlap_ms = 0;
  double step_overlap_ms = 0;
};

struct ClusterStep {
  Cluster cluster;
  std::int64_t data_parallel = 1;   // replicas
  std::int64_t stages = 1;
  Dim batch_per_replica = 0;
  Dim micro_batch = 0;
  Dim global_batch = 0;
  double forward_ms = 0, backward_ms = 0, update_ms = 0;  // per device (pipeline: the schedule)
  // Data parallelism: the expected wait for the slowest server's compute (straggler.h), in every
  // option's step.
  double straggler_wait_ms = 0;
  std::vector<SyncOption> options;  // every all-reduce algorithm
  SyncOption chosen;                // the requested one, or the fastest
  double step_ms = 0;               // chosen, with or without overlap as asked
  bool pipelined = false;
  PipelineResult pipeline;
  std::vector<std::int64_t> split;
  std::vector<MemoryFootprint> memory;  // per stage (one entry without a pipeline)
  std::int64_t max_batch_per_replica = 0;       // largest batch whose memory fits (0 = unknown / none)
  double throughput_samples_per_s() const { return step_ms > 0 ? static_cast<double>(global_batch) / step_ms * 1e3 : 0; }
};

// Throws paleo::Error when the devices do not divide into the stages.
ClusterStep cluster_step(const Scenario& scenario, const ClusterOptions& options);
// The same with the network's costs from `pricer`, of a scenario that differs from `scenario` in
// its cluster at most: the steps of a sweep over clusters cost the network once.
ClusterStep cluster_step(const Scenario& scenario, const ClusterOptions& options, NetworkPricer& pricer);

// The reduction runs at the device's memory bandwidth (reading two operands, writing one); NCCL's
// ring plateau follows the device's generation.
CollectiveSettings collective_settings(const Device& device, std::int64_t servers, double message_overhead_ms = 0);

// The all-reduce algorithms compared by cluster_step.
std::vector<CollectiveAlgorithm> sync_algorithms();

}  // namespace paleo
