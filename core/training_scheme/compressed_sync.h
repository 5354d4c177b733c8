#pragma once
// Bucketed gradient synchronisation of compressed gradients (docs/training-schemes.md): the
// bucket recurrence of core/cluster/gradient_sync.h over each layer's compressed message, carried
// by the collective its format allows (all-reduce, all-gather of every worker's message, sparse
// all-reduce), with the encode and decode time of every layer on the step's critical path.
#include <string>
#include <vector>

#include "core/cluster/gradient_sync.h"
#include "core/hardware/cluster.h"
#include "core/hardware/device.h"
#include "core/training_scheme/gradient_compression.h"

namespace paleo {

struct CompressedSync {
  GradientSync sync;
  std::string collective;          // what carried the messages
  double codec_ms = 0;             // encode + decode, all layers
  double dense_bytes = 0;          // the uncompressed gradient
  double message_bytes = 0;        // one worker's compressed gradient
  double bytes_sent = 0;           // what one worker sends per step, all rounds
  double extra_memory_bytes = 0;
};

// `tensors` and `backward_ms` per layer in backward order. `all_reduce` is the algorithm for
// formats that can be summed on the way (the cluster step's choice).
CompressedSync compressed_sync(const Compression& compression, const std::vector<GradientTensor>& tensors,
                               const std::vector<double>& backward_ms, double bucket_bytes, const Cluster& cluster,
                               CollectiveAlgorithm all_reduce, const CollectiveSettings& settings,
                               const Device& device);

// The bytes one worker sends in an all-reduce of `bytes` by `algorithm` over `cluster`.
double all_reduce_bytes_sent(const std::string& algorithm, const Cluster& cluster, double bytes);

}  // namespace paleo
