#pragma once
// A transformer training layout for tests: tp x pp x dp, micro-batch and global batch, sequence
// length and precision; everything else TrainingOptions' defaults.
#include <string>

#include "core/precision/precision_policy.h"
#include "core/transformer/training_options.h"

inline paleo::TrainingOptions training_layout(long tp, long pp, long dp, long micro, long global, long seq,
                                              const std::string& precision) {
  paleo::TrainingOptions o;
  o.parallel.tp = tp;
  o.parallel.pp = pp;
  o.parallel.dp = dp;
  o.micro_batch = micro;
  o.global_batch = global;
  o.seq_len = seq;
  o.precision = paleo::precision_policy(precision, "precision");
  return o;
}
