#pragma once
// Cost of one convolution (a real layer or a gradient's stride-1 dummy) under each algorithm,
// and the per-pass choice of algorithm (docs/model.md, "Convolution algorithms").
#include <string>
#include <vector>

#include "core/spec/conv_algorithm_names.h"
#include "core/spec/conv_geometry.h"
#include "core/cost/cost_model.h"

namespace paleo {

// Original GEMM model; `im2col_buffer` adds writing and reading the lowered input (cuDNN
// backward-data ALGO_1, "precomputed GEMM").
PassCost gemm_cost(const CostModel& model, const ConvGeometry& conv, bool im2col_buffer);
// The data gradient of `forward_conv` at its true work (the forward FLOPs): read the output
// gradient and the filters, write the input gradient. Used by profiles without
// dense_strided_data_gradient.
PassCost transposed_gemm_cost(const CostModel& model, const ConvGeometry& forward_conv, bool im2col_buffer);
// The data gradient as a sum of matrix products scattered with atomic adds (cuDNN's backward-data
// ALGO_0, part of the GEMM family every era offers): one row per output pixel, one column per
// filter tap of a group's input channels (Cin/g x kh x kw), Cout/g deep; every product element is
// added into the input gradient.
PassCost scattered_gemm_cost(const CostModel& model, const ConvGeometry& forward_conv);
// Original FFT model, whole-image or in 32x32 tiles.
PassCost fft_cost(const CostModel& model, const ConvGeometry& conv, bool tiled);
// Winograd F(4x4, rxr) from the survey's Algorithm 6 (stride 1, square kernels 2..5 only).
bool winograd_applies(const ConvGeometry& conv);
PassCost winograd_cost(const CostModel& model, const ConvGeometry& conv);
// cuDNN's non-fused Winograd filter gradient (cuDNN 5.1 on: 3x3 and 5x5 filters, stride 1) of the
// layer `conv` itself, not of its filter-gradient dummy. The weight gradient is the stride-1
// correlation of the input with the output gradient (Lavin & Gray 2016, arXiv 1509.09308), so
// F(r x r, m x m) runs on the forward's tiles (alpha = m + r - 1, m = 4): the input transform as
// forward, the output gradient's m x m tiles transformed as the forward's filters are (r -> m),
// the same alpha^2 batched products (summed over the tiles instead of the channels), and one
// inverse transform per filter pair (alpha x alpha -> r x r). Every count is the forward's with
// the filter and output transforms exchanged: the FLOPs, traffic and workspace equal
// winograd_cost's. Reads input and output gradient, writes the weight gradient.
bool winograd_filter_applies(const ConvGeometry& conv);
PassCost winograd_filter_gradient_cost(const CostModel& model, const ConvGeometry& conv);

// The cost of one pass under the requested algorithm. `one_by_one` (the original layer's kernel
// is 1x1) always takes GEMM, as the original did. kAuto picks the fastest of `candidates` whose
// workspace fits `workspace_limit_bytes` (per kernel, the roofline of the software era).
PassCost conv_pass_cost(const CostModel& model, const ConvGeometry& conv, ConvPass pass,
                        ConvAlgorithm algorithm, bool one_by_one, double workspace_limit_bytes,
                        const ConvCandidates& candidates = ConvCandidates{});
// The time by which kAuto ranks two costs of one pass.
double auto_rank_ms(const CostModel& model, const PassCost& cost);

}  // namespace paleo
