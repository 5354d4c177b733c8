#include "core/cost/cost_model.h"

#include "core/efficiency/cuda_graph_launch.h"
#include "core/precision/device_peak.h"

namespace paleo {

PassCost& PassCost::operator+=(const PassCost& other) {
  comp_ms += other.comp_ms;
  mem_ms += other.mem_ms;
  flops += other.flops;
  bytes += other.bytes;
  overlapped_ms += other.overlapped_ms;
  if (other.workspace_bytes > workspace_bytes) workspace_bytes = other.workspace_bytes;
  return *this;
}

CostModel::CostModel(const Device& device, const ModelProfile& profile, double ppp_comp, double ppp_comm,
                     const PrecisionPolicy& precision, const std::optional<KernelEfficiency>& efficiency,
                     bool kernel_timing, bool cuda_graph_step)
    : device_(device),
      profile_(profile),
      ppp_comp_(ppp_comp),
      ppp_comm_(ppp_comm),
      cycle_ms_(1.0 / device.clock_mhz / 1e3),
      precision_(precision),
      efficiency_(efficiency),
      kernel_timing_(kernel_timing),
      cuda_graph_step_(cuda_graph_step) {}

CostModel CostModel::with_ppp(double ppp_comp, double ppp_comm) const {
  return CostModel(device_, profile_, ppp_comp, ppp_comm, precision_, efficiency_, kernel_timing_, cuda_graph_step_);
}

double CostModel::launch_ms(double work_ms, double launches) const {
  if (!efficiency_) return 0;
  if (!kernel_timing_) return launches * (cuda_graph_step_ ? kCudaGraphKernelMs : efficiency_->kernel_overhead_ms);
  const double issue_ms = launches * efficiency_->launch_interval_ms;
  return issue_ms > work_ms ? issue_ms - work_ms : 0;
}

double CostModel::floored(double ms) const {
  return profile_.one_cycle_floor_per_term && ms < cycle_ms_ ? cycle_ms_ : ms;
}

double CostModel::comp_ms(double flops) const {
  if (flops == 0) return 0;
  if (efficiency_) return vector_ms(device_, *efficiency_, flops);
  double ms = flops / 1e9 / device_.peak_gflops * 1e3;
  return floored(ms / ppp_comp_);
}

double CostModel::winograd_ms(double flops) const {
  if (flops == 0) return 0;
  if (efficiency_) return paleo::winograd_ms(device_, *efficiency_, flops);
  return comp_ms(flops);
}

double CostModel::matmul_ms(double flops, const GemmShape& s) const {
  if (flops == 0) return 0;
  // fp32 (the default) keeps the vector peak: the original's numbers.
  const double peak = matmul_peak_gflops(device_, precision_.compute, s.align_n, s.align_k);
  if (efficiency_) {
    // cuDNN pads a convolution's short channel count instead: only GEMMs take the misaligned rate.
    const double era_peak =
        s.convolution ? peak : era_matmul_peak_gflops(device_, *efficiency_, precision_.compute, s.m, s.align_n, s.align_k);
    // A split inner dimension's partial sums are reduced by a pass over memory of their own.
    const TiledMatmulMs ms = tiled_matmul_ms(*efficiency_, flops, ceiling_gflops(era_peak, *efficiency_, s.convolution),
                                             s.m, s.n, s.k, device_.sm_count, 1, mem_ms(1));
    return ms.compute_ms + ms.reduce_ms;
  }
  return floored(flops / 1e9 / peak * 1e3 / ppp_comp_);
}

double CostModel::mem_ms(double bytes) const {
  double ms = bytes / profile_.memory_bytes_per_gb / device_.mem_bandwidth_gb_per_s * 1e3;
  if (efficiency_) return ms / efficiency_->memory_fraction;
  return floored(ms / ppp_comp_);
}

double CostModel::fetch_ms(double bytes, double bandwidth_gb_per_s) const {
  double ms = bytes / profile_.memory_bytes_per_gb / bandwidth_gb_per_s * 1e3;
  return floored(ms / ppp_comm_);
}

void CostModel::add_comp(PassCost& cost, double flops) const {
  cost.comp_ms += comp_ms(flops);
  cost.flops += flops;
}

void CostModel::add_winograd(PassCost& cost, double flops) const {
  cost.comp_ms += winograd_ms(flops);
  cost.flops += flops;
}

void CostModel::add_matmul(PassCost& cost, double flops, const GemmShape& shape) const {
  cost.comp_ms += matmul_ms(flops, shape);
  cost.flops += flops;
}

void CostModel::add_mem(PassCost& cost, double bytes) const {
  cost.mem_ms += mem_ms(bytes);
  cost.bytes += bytes;
}

}  // namespace paleo
