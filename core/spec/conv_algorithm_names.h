#pragma once
// The convolution algorithms a layer, a request or a software era may name, and the set of
// transform algorithms an era offers; their costs are cost/conv_algorithms.h.
#include <string>
#include <vector>

namespace paleo {

enum class ConvAlgorithm { kGemm, kPrecompGemm, kFft, kFftTiling, kWinograd, kAuto };
enum class ConvPass { kForward, kBackwardData, kBackwardFilter };

ConvAlgorithm parse_conv_algorithm(const std::string& name);  // throws (field conv_algorithm)
const std::vector<std::string>& conv_algorithm_names();

// The transform algorithms kAuto weighs against GEMM: all of them unless a software era lists
// the ones its library offered (cuDNN R4 had FFT but no Winograd). `winograd_filter` is cuDNN's
// non-fused Winograd filter gradient (CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED, cuDNN
// 5.1 on): only an era that lists "winograd_nonfused" has it, so the original model never does.
struct ConvCandidates {
  bool fft = true, fft_tiling = true, winograd = true;
  bool winograd_filter = false;
  bool allows(ConvAlgorithm a) const;
};
// The name a software era lists for cuDNN's non-fused Winograd filter gradient; not a request's
// conv_algorithm (a request forcing "winograd" keeps GEMM for the filter gradient).
inline constexpr const char* kWinogradNonfusedName = "winograd_nonfused";
// From names such as "fft", "winograd", "winograd_nonfused" ("gemm" and "precomp_gemm" are
// always there). Throws paleo::Error naming `field` for an unknown name.
ConvCandidates conv_candidates_from_names(const std::vector<std::string>& names, const std::string& field);

}  // namespace paleo
