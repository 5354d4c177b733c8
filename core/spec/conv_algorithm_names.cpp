#include "core/spec/conv_algorithm_names.h"

#include "core/base/error.h"

namespace paleo {

ConvAlgorithm parse_conv_algorithm(const std::string& name) {
  if (name == "gemm") return ConvAlgorithm::kGemm;
  if (name == "precomp_gemm") return ConvAlgorithm::kPrecompGemm;
  if (name == "fft") return ConvAlgorithm::kFft;
  if (name == "fft_tiling") return ConvAlgorithm::kFftTiling;
  if (name == "winograd") return ConvAlgorithm::kWinograd;
  if (name == "auto") return ConvAlgorithm::kAuto;
  throw Error("unknown convolution algorithm '" + name +
                  "' (known: gemm, precomp_gemm, fft, fft_tiling, winograd, auto)",
              "", "conv_algorithm");
}

bool ConvCandidates::allows(ConvAlgorithm a) const {
  switch (a) {
    case ConvAlgorithm::kFft: return fft;
    case ConvAlgorithm::kFftTiling: return fft_tiling;
    case ConvAlgorithm::kWinograd: return winograd;
    default: return true;
  }
}

ConvCandidates conv_candidates_from_names(const std::vector<std::string>& names, const std::string& field) {
  ConvCandidates c{false, false, false};
  for (const std::string& name : names) {
    if (name == kWinogradNonfusedName) {
      c.winograd_filter = true;
      continue;
    }
    ConvAlgorithm a = ConvAlgorithm::kGemm;
    try {
      a = parse_conv_algorithm(name);
    } catch (const Error&) {
      throw Error("unknown convolution algorithm '" + name + "' (known: gemm, precomp_gemm, fft, fft_tiling, winograd, " +
                      std::string(kWinogradNonfusedName) + ")",
                  "", field);
    }
    if (a == ConvAlgorithm::kAuto) throw Error("lists \"auto\": name the algorithms themselves", "", field);
    if (a == ConvAlgorithm::kFft) c.fft = true;
    if (a == ConvAlgorithm::kFftTiling) c.fft_tiling = true;
    if (a == ConvAlgorithm::kWinograd) c.winograd = true;
  }
  return c;
}

const std::vector<std::string>& conv_algorithm_names() {
  static const std::vector<std::string> names = {"gemm", "precomp_gemm", "fft", "fft_tiling", "winograd", "auto"};
  return names;
}

}  // namespace paleo
