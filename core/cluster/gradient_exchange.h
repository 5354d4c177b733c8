#pragma once
// cluster/: how data-parallel replicas exchange their gradients each step: an all-reduce among
// them, or through parameter servers (a training scheme's `exchange`, the search's t_s).

namespace paleo {

enum class GradientExchange { kAllReduce, kParameterServer };

}  // namespace paleo
