#pragma once
// Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via
// Speculative Decoding", ICML 2023): a draft proposes `draft_tokens` (gamma) tokens, the target
// model checks them in one step and keeps the accepted prefix plus one token of its own. With each
// draft token accepted independently with probability alpha, the tokens a target step yields are
// (their Eq. 1) E = (1 - alpha^(gamma + 1)) / (1 - alpha): 1 at alpha = 0, gamma + 1 at alpha = 1.
#include <cstdint>

namespace paleo {

struct SpeculativeDecoding {
  std::int64_t draft_tokens = 0;  // gamma; 0 = off
  double acceptance_rate = 0;     // alpha, in [0, 1]
  bool enabled() const { return draft_tokens > 0; }
};

double expected_tokens_per_target_step(const SpeculativeDecoding& s);

// The time per generated token: a target step that checks gamma + 1 positions, after gamma draft
// steps, over the tokens it yields.
double speculative_ms_per_token(const SpeculativeDecoding& s, double target_verify_step_ms, double draft_step_ms);

}  // namespace paleo
