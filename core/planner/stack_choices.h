#pragma once
// planner/: the choices a request leaves to its training stack that depend on the cluster
// (a software era's "defaults" of "least_that_fits" and "auto"): the least activation
// recompute that fits the device (none, then selective, then full: what users of Megatron-Core or
// FSDP switch on when a layout runs out of memory) and, with pipeline parallelism, the
// interleaving (virtual stages) of least step time among those that fit.
#include "core/hardware/cluster.h"
#include "core/hardware/device.h"
#include "core/transformer/training_options.h"
#include "core/transformer/transformer_config.h"

namespace paleo {

struct StackChoices {
  bool recompute = false;       // choose options.recompute
  bool virtual_stages = false;  // choose options.parallel.virtual_stages
};

// `o` with the chosen fields set. When nothing fits, the full recompute without interleaving:
// the estimate then says it does not fit.
TrainingOptions resolve_stack_choices(const TransformerConfig& c, TrainingOptions o, const Device& device,
                                      const Cluster& cluster, StackChoices which);

// What a user does first when a model does not fit one GPU: the smallest tensor parallelism
// (1, 2, 4, ...: dividing the heads and the devices, within a node) whose layout fits, dp taking
// the remaining devices; sequence parallelism with it where `sequence_parallel_follows` (the
// request left it to this choice), the global batch dp x micro-batch where `derive_global_batch`;
// the other choices of `which` made for each. When none fits, the largest such tp.
TrainingOptions smallest_tp_that_fits(const TransformerConfig& c, TrainingOptions o, const Device& device,
                                      const Cluster& cluster, StackChoices which, bool sequence_parallel_follows,
                                      bool derive_global_batch);

}  // namespace paleo
