#pragma once
// Time of each transformer operator on a device: a per-kernel roofline with the efficiency
// model of core/efficiency/ (matrix products at the precision's matrix peak when eligible;
// element-wise work memory-bound), plus a per-kernel overhead.
#include "core/efficiency/kernel_efficiency.h"
#include "core/hardware/device.h"
#include "core/transformer/layer_ops.h"

namespace paleo {

struct OpTime {
  double fwd_ms = 0;
  double bwd_ms = 0;  // data and weight gradients
};

OpTime op_time(const TransformerOp& op, const Device& d, const KernelEfficiency& e, Dtype compute);

}  // namespace paleo
