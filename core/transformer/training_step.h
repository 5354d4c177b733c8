#pragma once
// One training step of a transformer on a cluster under 3D (+ context, expert) parallelism:
// per-stage forward and backward of a micro-batch (compute, recompute, exposed TP / CP / EP
// communication, pipeline sends), the pipeline schedule over the micro-batches, the
// data-parallel gradient reduction (ZeRO stages) and the optimizer; FLOPs, MFU, memory.
#include <cstdint>
#include <string>
#include <vector>

#include "core/hardware/device.h"
#include "core/hardware/cluster.h"
#include "core/transformer/training_memory.h"

namespace paleo {

struct OpRow {
  std::string name;
  std::string type;
  double count = 0;          // instances in the model (layers for per-layer operators)
  double fwd_ms = 0;         // one instance, one micro-batch, one device
  double bwd_ms = 0;
  double fwd_flops = 0;      // executed, one instance, one micro-batch, one device
  double bwd_flops = 0;
  double params = 0;         // one instance, one device
  double saved_bytes = 0;    // activations one instance keeps for one micro-batch
  double m = 0, n = 0, k = 0;  // matrix product shape (0 for other operators)
};

struct StepBreakdown {
  double compute_ms = 0;       // forward and backward kernels of the slowest stage (incl. recompute)
  double recompute_ms = 0;     // of which recomputation
  double tp_comm_ms = 0;       // exposed tensor-parallel collectives
  double cp_comm_ms = 0;       // exposed context-parallel transfers
  double ep_comm_ms = 0;       // expert-parallel all-to-all
  double pp_comm_ms = 0;       // pipeline sends on the critical path
  double bubble_ms = 0;        // pipeline fill and drain
  double dp_comm_ms = 0;       // the data-parallel reduction, whole
  double dp_exposed_ms = 0;    // of which not hidden behind the last backward
  double zero3_exposed_ms = 0; // parameter gathers and gradient scatters of ZeRO-3 not hidden
  double optimizer_ms = 0;
};

struct TrainingEstimate {
  TransformerConfig model;
  TrainingOptions options;
  ParameterCount parameters;
  std::int64_t devices = 1;
  std::int64_t micro_batches = 1;
  double step_ms = 0;
  StepBreakdown breakdown;
  double pipeline_ms = 0;
  double bubble_fraction = 0;  // bubble over the bubble-free time (Narayanan: (p - 1) / (v m))
  double tokens_per_step = 0;
  double tokens_per_s = 0;
  double samples_per_s = 0;
  double model_flops_per_step = 0;     // without recomputation (for MFU)
  double hardware_flops_per_step = 0;  // with recomputation (for HFU; Megatron's TFLOP/s)
  double model_tflops_per_gpu = 0;
  double hardware_tflops_per_gpu = 0;
  double peak_tflops_per_gpu = 0;      // the dense matrix peak of the compute format
  double mfu = 0;
  double hfu = 0;
  TransformerMemory memory;            // the fullest stage
  std::int64_t max_micro_batch = 0;            // largest micro-batch that fits (0 = unknown or none)
  std::vector<OpRow> ops;
  std::vector<std::string> warnings;
};

// `detailed`: also the per-operator rows and the largest micro-batch that fits (the planner
// skips both).
TrainingEstimate estimate_training(const TransformerConfig& c, const TrainingOptions& o, const Device& device,
                                   const Cluster& cluster, bool detailed = true);

// The memory of the fullest stage alone (cheap: no timing).
TransformerMemory estimate_training_memory(const TransformerConfig& c, const TrainingOptions& o, double capacity_bytes);

}  // namespace paleo
