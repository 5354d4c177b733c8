#include "core/cost/layout_conversion.h"

#include "core/precision/device_peak.h"

namespace paleo {

PassCosts nchw_conversion_kernels(const Layer& l, const CostModel& model, const PassCosts& passes) {
  PassCosts out;
  const double groups = static_cast<double>(l.conv.groups);
  const double cin = static_cast<double>(l.conv.cin) / groups, cout = static_cast<double>(l.conv.cout) / groups;
  if (!runs_on_tensor_cores(model.device(), model.precision().compute, cout, cin)) return out;
  // Each tensor read once in NCHW and written once in NHWC (or back).
  const double bytes = 2 * (product(l.inputs[0]) * model.activation_bytes() + product(l.output) * model.activation_bytes() +
                            l.conv.filter_elements() * model.weight_bytes());
  const PassCost* work[] = {&passes.forward, &passes.backward_data, &passes.backward_filter};
  PassCost* conversion[] = {&out.forward, &out.backward_data, &out.backward_filter};
  for (int i = 0; i < 3; ++i)
    if (work[i]->flops > 0) model.add_mem(*conversion[i], bytes);
  return out;
}

}  // namespace paleo
