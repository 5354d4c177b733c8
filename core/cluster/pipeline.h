#pragma once
// Pipeline parallelism: the layer sequence cut into S stages, a mini-batch cut into M
// micro-batches, scheduled as GPipe (all forwards, then all backwards) or 1F1B (one forward,
// one backward). Both fill and drain the pipeline in S-1 steps; they differ in the activations
// each stage keeps.
#include <cstdint>
#include <string>
#include <vector>

#include "core/hardware/link.h"

namespace paleo {

struct StageTimes {
  double forward_ms = 0;   // per micro-batch
  double backward_ms = 0;  // per micro-batch
  double transfer_ms = 0;  // sending its output activations (and receiving their gradients) once
};

struct PipelineResult {
  std::vector<StageTimes> stages;
  double step_ms = 0;       // the pipelined forward and backward of one mini-batch
  double ideal_ms = 0;      // M x the slowest stage: the time without a bubble
  double bubble_ms() const { return step_ms - ideal_ms; }
  double bubble_fraction() const { return step_ms > 0 ? bubble_ms() / step_ms : 0; }
};

// (M - 1) x the slowest stage + one micro-batch through every stage (and every transfer).
// Balanced stages give a bubble of (S-1)/(M+S-1) of the step.
PipelineResult pipeline_schedule(const std::vector<StageTimes>& stages, std::int64_t micro_batches);

// The same with interleaving (Narayanan et al. 2021): each device runs `virtual_stages` chunks,
// which shortens the fill and drain v times: M x the slowest stage + the others' sum / v. Balanced
// stages of time T: M T + (S - 1) T / v, a bubble of (S - 1) / (v M) of the bubble-free time.
// `stage_ms` is each stage's forward + backward (all its chunks) of one micro-batch.
double interleaved_pipeline_ms(const std::vector<double>& stage_ms, std::int64_t micro_batches, std::int64_t virtual_stages);

// Splits per-layer times (forward + backward) into `stages` contiguous groups minimising the
// slowest group; returns the number of layers in each. Every stage gets at least one layer.
std::vector<std::int64_t> balanced_split(const std::vector<double>& layer_ms, std::int64_t stages);

// Micro-batches whose activations stage `stage` (0-based) keeps: GPipe all M, 1F1B min(M, S - stage).
double activations_kept(const std::string& schedule, std::int64_t stage, std::int64_t stages, std::int64_t micro_batches);

}  // namespace paleo
