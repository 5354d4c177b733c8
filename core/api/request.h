#pragma once
// Reading and validating a request document (docs/api.md) into a Scenario and its options.
#include <cstdint>
#include <string>
#include <vector>

#include "core/api/price_field.h"
#include "core/api/transformer_request.h"
#include "core/base/json.h"
#include "core/cost/scenario.h"
#include "core/training_scheme/training_scheme.h"

namespace paleo {

struct Request {
  std::string command;
  bool has_net = false;
  Scenario scenario;  // complete when has_net
  std::string parallel = "data";
  std::vector<std::int64_t> workers = {1, 2, 4, 8, 16, 32, 64, 128};
  bool workers_given = false;
  std::vector<std::string> scalings = {"weak", "strong"};
  std::int64_t hybrid_workers = 1;

  // Cluster step (docs/cluster.md).
  std::string collective = "auto";       // gradient all-reduce algorithm
  std::string collective_library;        // the stack's collective library; empty: the era's, else any
  double bucket_bytes = 25.0 * 1024 * 1024;  // PyTorch DDP's default bucket_cap_mb = 25
  bool overlap = true;
  bool overlap_given = false;          // the request says "overlap" (search: off unless it does)
  std::string optimizer = "sgd";         // sgd, momentum, adam
  std::int64_t pipeline_stages = 1;
  std::int64_t micro_batches = 1;
  std::string pipeline_schedule = "1f1b";  // gpipe or 1f1b
  std::vector<std::int64_t> pipeline_split;      // layers per stage; empty = balanced automatically

  // Time and cost to train (`estimate`, docs/api.md): passes over a dataset, a device-hour's price.
  std::int64_t dataset_samples = 0;  // 0 = not asked
  std::int64_t epochs = 1;
  DevicePrice price;

  // Training scheme on the cluster (docs/training-schemes.md).
  bool has_training_scheme = false;
  TrainingScheme training_scheme;
  bool scheme_comparison = false;  // add the comparison of schemes over node counts
  bool work_depth = false;         // add each layer's work and depth (layers, estimate)

  // `collective` command.
  std::string op = "allreduce";
  std::string algorithm = "auto";
  double bytes = 0;
  bool has_link = false;
  Link link;
  std::int64_t servers = 1;

  // `search` command (layer-wise parallelism): total devices and devices per node.
  std::int64_t devices = 0;
  std::int64_t devices_per_node = 0;

  // A transformer net (docs/transformer.md): its model and options; `scenario` then holds only
  // the device and cluster.
  bool is_transformer = false;
  TransformerRequest transformer;

  // What the answer should say beside its numbers: a choice of the request that does not apply,
  // a point of a sweep left out (the response's `warnings`).
  std::vector<std::string> warnings;
};

// Throws paleo::Error naming the request field (or the layer and field of the spec).
Request parse_request(const Json& request);

// The fields parse_request reads, in reading order (each a row of core/api/command_registry.h).
std::vector<std::string> request_reader_names();

}  // namespace paleo
