#pragma once
// The cost of one kernel replayed from a CUDA graph. Serving engines capture their decode steps
// (TensorRT-LLM's PyTorch backend replays a captured graph for a batch of generation requests
// only: tensorrt_llm/_torch/pyexecutor/model_engine.py, _maybe_get_cuda_graph, "if not
// self._run_cuda_graphs or not batch.is_generation_only: return None"; vLLM likewise). A replayed
// kernel is not issued by the host, so the framework's per-kernel time (the software era's
// kernel_overhead_ms: 20 us on Hopper's training stacks, which launch each kernel from Python)
// is replaced by what the device itself spends on a kernel of no work: the device time of the
// smallest kernels measured on an H100 SXM and an H200 (docs/measurements/*_2026-11-27.json,
// "launch": an 8-element add_, 64-element ReLUs and 8 x 8 x 8 products, 0.89 to 2.09 us), whose
// geometric mean over both devices is 1.34 us.
// A training framework that captures its whole step replays it the same way (MXNet's
// MXNET_ENABLE_CUDA_GRAPHS, which NVIDIA's MLPerf ResNet-50 scripts set from v0.7 on; PyTorch's
// torch.cuda.graph): a CNN request's "cuda_graph_step" prices each kernel at this time too
// (core/cost/cost_model.cpp), on devices other than Hopper's the same figure, unmeasured there.
namespace paleo {

constexpr double kCudaGraphKernelMs = 0.00134;

}  // namespace paleo
