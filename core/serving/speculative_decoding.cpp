#include "core/serving/speculative_decoding.h"

#include <cmath>

namespace paleo {

double expected_tokens_per_target_step(const SpeculativeDecoding& s) {
  if (!s.enabled()) return 1;
  const double gamma = static_cast<double>(s.draft_tokens);
  if (s.acceptance_rate >= 1) return gamma + 1;
  return (1 - std::pow(s.acceptance_rate, gamma + 1)) / (1 - s.acceptance_rate);
}

double speculative_ms_per_token(const SpeculativeDecoding& s, double target_verify_step_ms, double draft_step_ms) {
  const double gamma = s.enabled() ? static_cast<double>(s.draft_tokens) : 0;
  return (target_verify_step_ms + gamma * draft_step_ms) / expected_tokens_per_target_step(s);
}

}  // namespace paleo
