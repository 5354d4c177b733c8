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

}  // namespace paleo
