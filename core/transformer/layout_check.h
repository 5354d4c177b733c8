#pragma once
// Whether a parallel layout divides a transformer training problem: heads by TP, layers by the
// pipeline chunks, the cluster by tp x pp x dp x cp, the global batch by dp x micro-batch, the
// sequence by CP, the experts by EP.
#include <cstdint>

#include "core/transformer/training_options.h"

namespace paleo {

// Throws paleo::Error naming the request field when the layout does not divide the problem.
void check_training_layout(const TransformerConfig& c, const TrainingOptions& o, std::int64_t devices);

}  // namespace paleo
