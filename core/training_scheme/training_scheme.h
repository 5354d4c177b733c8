#pragma once
// A training scheme applied to a data-parallel cluster step (docs/training-schemes.md): how the
// workers stay consistent, how their step times jitter, how gradients are compressed, whether
// they go through parameter servers, whether weights are averaged instead, and whether batch
// normalisation is global. The result is the expected step, the throughput, the staleness, the
// bytes each worker puts on the wire and the extra memory.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cluster/cluster_step.h"
#include "core/cluster/gradient_exchange.h"
#include "core/training_scheme/consistency.h"
#include "core/training_scheme/gradient_compression.h"
#include "core/training_scheme/model_averaging.h"
#include "core/training_scheme/parameter_server.h"
#include "core/training_scheme/straggler_jitter.h"

namespace paleo {


struct TrainingScheme {
  Consistency consistency = Consistency::kSynchronous;
  std::int64_t staleness = 0;                          // SSP's bound s
  StragglerModel jitter;
  Compression compression;
  GradientExchange exchange = GradientExchange::kAllReduce;  // async always uses servers
  ParameterServerSpec server;
  Averaging averaging;
  bool global_batch_norm = false;
};

struct SchemeStep {
  std::string exchange;              // what carries the gradients (or weights)
  std::int64_t workers = 0;
  double compute_ms = 0;             // forward + backward + update of one worker, no jitter
  double deterministic_step_ms = 0;  // the step without jitter
  double comm_ms = 0;                // exposed communication per step (amortised over k steps)
  double codec_ms = 0;               // compression's encode and decode, per step
  double batch_norm_ms = 0;          // global BN's all-reduces
  std::int64_t batch_norm_layers = 0;
  ConsistencyStep consistency;
  double throughput_samples_per_s = 0;
  double dense_gradient_bytes = 0;   // the uncompressed gradient of one worker
  double message_bytes = 0;          // what one worker contributes per exchange (compressed)
  double wire_bytes_per_step = 0;    // what one worker sends per step, all rounds, amortised
  double extra_memory_bytes = 0;     // error-feedback buffers and the like, per worker
  double gossip_rounds = 0;          // gossip: steps for a value to reach every worker
  bool server_layout_used = false;
  ServerExchange server;             // when servers are used
  std::vector<std::string> warnings; // what the step priced differently from what was asked
};

// Throws paleo::Error (field "training_scheme" or one of its members) for a pipelined step or a
// combination the model does not price.
SchemeStep training_scheme_step(const Scenario& scenario, const ClusterOptions& options,
                                const TrainingScheme& scheme, NetworkPricer& pricer);

// The gradients of a priced network, layer by layer in backward order, for compression and servers.
std::vector<GradientTensor> gradient_tensors(const Network& net);

}  // namespace paleo
