#pragma once
// How a serving engine's kernels reach the device, and what a step of them costs.
//
// kFramework: a framework issues each kernel from Python as it runs the model (PyTorch eager;
// vLLM and TensorRT-LLM's PyTorch backend outside their CUDA graphs). Each kernel costs its work
// plus the software era's kernel_overhead_ms, as the training eras were fitted.
//
// kEngine: a compiled engine enqueued from C++ (a TensorRT engine run by TensorRT-LLM's C++
// runtime, gptSessionBenchmark of v0.5 to v0.9). A launch returns before its kernel runs ("a
// dispatching function call or kernel launch returns immediately", CUDA Programming Guide 2.3.1)
// and the engine enqueues a whole step before it waits, so the host's issue of the kernels and
// the device's run of them overlap: the step costs the longer of
//   the device's run: each kernel's work plus the device's own time for a kernel
//   (kCudaGraphKernelMs, measured: cuda_graph_launch.h), and
//   the host's issue: the kernels times the era's per-kernel time,
// where the framework adds the era's time to each kernel's work. No measurement of TensorRT's
// own enqueue is at hand: the era's per-kernel time stands for the host's (docs/serving.md).
#include <string>

namespace paleo {

enum class KernelIssue { kFramework, kEngine };

// A step's kernels: their work without any per-kernel time, and how many they are.
struct StepKernels {
  double work_ms = 0;
  double kernels = 0;
};

// The longer of the device's run (work + kernels x kCudaGraphKernelMs) and the host's issue
// (kernels x host_ms_per_kernel).
double engine_step_ms(const StepKernels& step, double host_ms_per_kernel);

// The request's `runtime`: "pytorch" (kFramework) or "tensorrt" (kEngine); throws paleo::Error
// naming `field` otherwise.
KernelIssue parse_runtime(const std::string& s, const std::string& field);
const char* runtime_name(KernelIssue issue);

}  // namespace paleo
