#pragma once
// The primitive time functions of the model: compute time of F FLOPs and memory time of B bytes
// on one device, in milliseconds. Either at a platform percent of peak (PPP, the original's one
// constant), or, under paleo2026 without a PPP, at the per-kernel efficiencies of a software era
// (core/efficiency/, docs/model.md "Per-kernel efficiency"). Tensor sizes follow the precision.
#include <optional>
#include <string>

#include "core/efficiency/kernel_efficiency.h"
#include "core/hardware/device.h"
#include "core/spec/model_profile.h"
#include "core/precision/precision_policy.h"

namespace paleo {

// Time, work and traffic of one pass of one layer (or of the weight update).
struct PassCost {
  double comp_ms = 0;       // with the per-kernel overhead, when an era is in use
  double mem_ms = 0;       // local memory traffic, plus any cross-device fetch
  double flops = 0;
  double bytes = 0;         // local memory traffic only
  double workspace_bytes = 0;
  double overlapped_ms = 0; // compute and memory time that overlap (the roofline option)
  const char* algorithm = "";  // convolutions only: the static name of the algorithm

  double total_ms() const { return comp_ms + mem_ms - overlapped_ms; }
  double pipelined_ms() const { return comp_ms > mem_ms ? comp_ms : mem_ms; }
  PassCost& operator+=(const PassCost& other);
};

// A matrix product (m x k) by (k x n), and the two dimensions whose alignment decides whether
// the matrix units run it (for a convolution: its channel counts, cuDNN's rule).
struct GemmShape {
  double m = 0, n = 0, k = 0;
  double align_n = 0, align_k = 0;
  bool convolution = false;  // an implicit-GEMM convolution (the era's conv_ceiling)
};

class CostModel {
 public:
  CostModel(const Device& device, const ModelProfile& profile, double ppp_comp, double ppp_comm,
            const PrecisionPolicy& precision = PrecisionPolicy{},
            const std::optional<KernelEfficiency>& efficiency = std::nullopt, bool kernel_timing = false,
            bool cuda_graph_step = false);

  // Non-GEMM arithmetic at the vector peak.
  double comp_ms(double flops) const;
  // A Winograd convolution's arithmetic: the vector peak at the era's winograd_ceiling (with a
  // PPP, as comp_ms).
  double winograd_ms(double flops) const;
  // A matrix product (convolution, inner product) at the peak of the compute format.
  double matmul_ms(double flops, const GemmShape& shape) const;
  // Local memory traffic at the device bandwidth and ppp_comp (or the era's memory_fraction).
  double mem_ms(double bytes) const;
  // Traffic over another bandwidth ("GB/s" in the profile's unit) at ppp_comm: cross-device fetch.
  double fetch_ms(double bytes, double bandwidth_gb_per_s) const;

  void add_comp(PassCost& cost, double flops) const;
  void add_winograd(PassCost& cost, double flops) const;
  void add_matmul(PassCost& cost, double flops, const GemmShape& shape) const;
  void add_mem(PassCost& cost, double bytes) const;

  // The same model at another PPP (the paleo2017 update at PPP 1.0).
  CostModel with_ppp(double ppp_comp, double ppp_comm) const;

  const Device& device() const { return device_; }
  const ModelProfile& profile() const { return profile_; }
  double ppp_comp() const { return ppp_comp_; }
  double ppp_comm() const { return ppp_comm_; }
  const PrecisionPolicy& precision() const { return precision_; }
  // Bytes of one stored activation element and of one working weight.
  double activation_bytes() const { return dtype_bytes(precision_.activations); }
  double weight_bytes() const { return dtype_bytes(precision_.params); }
  // Set when a software era prices each kernel (per-pass roofline plus overhead).
  bool per_kernel() const { return efficiency_.has_value(); }
  // What `launches` kernels whose work takes `work_ms` add for their launch and the framework: in a
  // step, kernel_overhead_ms each (kCudaGraphKernelMs each in a step replayed from a CUDA graph,
  // CostOptions::cuda_graph_step); timed back to back (CostOptions::kernel_timing), no framework
  // glue, and the launch_interval_ms of each overlaps the work, adding only what it exceeds it by.
  double launch_ms(double work_ms, double launches = 1) const;
  // The runtime's time per step (none for kernels timed back to back).
  double step_overhead_ms() const { return efficiency_ && !kernel_timing_ ? efficiency_->step_overhead_ms : 0; }
  double message_overhead_ms() const { return efficiency_ ? efficiency_->message_overhead_ms : 0; }
  double step_jitter_cv() const { return efficiency_ ? efficiency_->step_jitter_cv : 0; }
  double transfer_serialization() const { return efficiency_ ? efficiency_->transfer_serialization : 0; }
  bool unfused_conv_bias() const { return efficiency_ && efficiency_->unfused_conv_bias > 0; }
  // Pooling kernels' share of the streaming bandwidth (1 without an era).
  double pooling_efficiency() const { return efficiency_ ? efficiency_->pooling_efficiency : 1; }

 private:
  double floored(double ms) const;

  Device device_;
  const ModelProfile& profile_;
  double ppp_comp_;
  double ppp_comm_;
  double cycle_ms_;
  PrecisionPolicy precision_;
  std::optional<KernelEfficiency> efficiency_;
  bool kernel_timing_;
  bool cuda_graph_step_;
};

}  // namespace paleo
