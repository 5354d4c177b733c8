#pragma once
// Reading and validating a request document (docs/api.md) into a Scenario and its options.
#include <string>
#include <vector>

#include "core/api/transformer_request.h"
#include "core/json.h"
#include "core/scenario.h"

namespace paleo {

struct Request {
  std::string command;
  bool has_net = false;
  Scenario scenario;  // complete when has_net
  std::string parallel = "data";
  std::vector<long> workers = {1, 2, 4, 8, 16, 32, 64, 128};
  bool workers_given = false;
  std::vector<std::string> scalings = {"weak", "strong"};
  long hybrid_workers = 1;

  // Cluster step (docs/cluster.md).
  std::string collective = "auto";       // gradient all-reduce algorithm
  double bucket_bytes = 25.0 * 1024 * 1024;  // PyTorch DDP's default bucket_cap_mb = 25
  bool overlap = true;
  std::string optimizer = "sgd";         // sgd, momentum, adam
  long pipeline_stages = 1;
  long micro_batches = 1;
  std::string pipeline_schedule = "1f1b";  // gpipe or 1f1b
  std::vector<long> pipeline_split;      // layers per stage; empty = balanced automatically

  // `collective` command.
  std::string op = "allreduce";
  std::string algorithm = "auto";
  double bytes = 0;
  bool has_link = false;
  Link link;
  long servers = 1;

  // `search` command (layer-wise parallelism): total devices and devices per node.
  long devices = 0;
  long devices_per_node = 0;

  // A transformer net (docs/transformer.md): its model and options; `scenario` then holds only
  // the device and cluster.
  bool is_transformer = false;
  TransformerRequest transformer;

  Json raw;  // the request as received
};

// Throws paleo::Error naming the request field (or the layer and field of the spec).
Request parse_request(const Json& request);

}  // namespace paleo
