#pragma once
// The caps on one request (docs/api.md, "Limits"). Each is checked with a clear error before the
// work it bounds starts, so that no input makes the CLI or the page run for long, hold much
// memory or answer with a huge error.
#include <cstddef>
#include <cstdint>

namespace paleo {

// The request as text, and arrays and objects nested inside each other (checked on the text,
// before a JSON tree is built).
constexpr std::size_t kMaxRequestBytes = std::size_t{8} << 20;
constexpr int kMaxNestingDepth = 64;

// A CNN spec: layers after expanding blocks, and the splits of one model-parallel block.
constexpr std::size_t kMaxLayers = 10000;
constexpr std::int64_t kMaxModelParallelSplits = 4096;

// Sizes: the batch, and the elements of one tensor (core/spec/shape.h: kMaxElements).
constexpr std::int64_t kMaxBatch = std::int64_t{1} << 31;

// Devices of a cluster (nodes x devices_per_node), workers of a simulation, parameter servers.
constexpr std::int64_t kMaxDevices = 1000000;

// The platform percent of peak (ppp_comp, ppp_comm) at its smallest: a millionth of peak, far
// below any measured platform, so that no time priced with it overflows.
constexpr double kMinPpp = 1e-6;

// Time to train: samples of the dataset, and epochs over it.
constexpr std::int64_t kMaxDatasetSamples = 1000000000000000;  // 1e15
constexpr std::int64_t kMaxEpochs = 1000000;

// Lists of a request: `workers` entries; `scaling` names each of weak and strong at most once.
constexpr std::size_t kMaxWorkersListLength = 256;
constexpr std::size_t kMaxScalingListLength = 2;

// Pipelines: stages, micro-batches, and the automatic split's work (stages x layers^2).
constexpr std::int64_t kMaxPipelineStages = 4096;
constexpr std::int64_t kMaxMicroBatches = std::int64_t{1} << 20;
constexpr double kMaxPipelineSplitWork = 268435456.0;  // 2^28

// The layer-wise search: devices, and its work: the configuration pairs it prices along the
// net's edges times the devices (each pair's transfer cost looks at the devices' parts).
constexpr std::int64_t kMaxSearchDevices = 1024;
constexpr double kMaxSearchWork = 5e9;

// The transformer planner: the layouts it prices (tp, pp, cp, micro-batch, interleaving,
// recompute, ZeRO), counted before any is priced.
constexpr std::int64_t kMaxPlanLayouts = 20000;

// Calibration: measurements, and the runs of the fit (distinct requests x evaluations).
constexpr std::size_t kMaxMeasurements = 10000;
constexpr double kMaxCalibrationRuns = 20000;

// Error responses: a name or key quoted in an error (layer, field), and the whole message.
constexpr std::size_t kMaxEchoedNameBytes = 64;
constexpr std::size_t kMaxErrorMessageBytes = 2048;

}  // namespace paleo
