#include "core/transformer/engine_launch.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/efficiency/cuda_graph_launch.h"

namespace paleo {

double engine_step_ms(const StepKernels& step, double host_ms_per_kernel) {
  return std::max(step.work_ms + step.kernels * kCudaGraphKernelMs, step.kernels * host_ms_per_kernel);
}

KernelIssue parse_runtime(const std::string& s, const std::string& field) {
  if (s == "pytorch") return KernelIssue::kFramework;
  if (s == "tensorrt") return KernelIssue::kEngine;
  throw Error("must be \"pytorch\" or \"tensorrt\", got \"" + s + "\"", "", field);
}

const char* runtime_name(KernelIssue issue) { return issue == KernelIssue::kEngine ? "tensorrt" : "pytorch"; }

}  // namespace paleo
