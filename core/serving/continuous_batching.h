#pragma once
// Continuous batching in steady state (Orca, Yu et al., OSDI 2022; vLLM): the engine runs one
// decode step at a time for every request in flight, and admits a new request's prompt into the
// steps as soon as one finishes. With C requests in flight, each generating G tokens, C / G
// requests finish (and as many prompts enter) per step on average. Over one request's life:
//
//   TPOT(C) = D(C) + P((C - 1) / G)         the decode step of C sequences, plus the prompts of the
//                                           others admitted between two of its tokens, batched
//   TTFT(C) = P(1) + n x D(C - 1)           its prompt, in n chunks (n = 1 without chunked
//                                           prefill), each sharing a step with the others' decodes
//   E2E(C)  = TTFT(C) + (G - 1) x TPOT(C)   the first token comes out of the prefill
//   requests/s = C / E2E(C), output tokens/s = G x C / E2E(C)   (Little's law)
//
// D(b) is the decode step of b sequences at the mean cache length (D(0) = 0), P(k) the prefill of
// k prompts in one batched pass (P(0) = 0: an engine batches the prompts it admits, so a prompt
// costs its share of a pass, not a pass of its own). At C = 1 these are the static batch of one:
// TTFT = P(1), TPOT = D(1).
//
// An engine that replays its decode steps from CUDA graphs does so only in steps without a prompt
// (TensorRT-LLM's PyTorch backend: a graph for generation-only batches). With (C - 1) / G prompts
// entering per step, spread over the steps, a share f = min(1, (C - 1) / G) of the steps carries
// one and runs eagerly:
//
//   TPOT(C) = f x D(C) + (1 - f) x Dg(C) + P((C - 1) / G)   Dg: the decode step replayed from a graph
//
// TTFT's steps carry its prompt and stay eager.
//
// An engine that packs a step's new prompts into the same pass as the others' decode tokens
// (TensorRT-LLM's in-flight batching: "sequences in the context phase can be processed together
// with sequences in the generation phase", in one packed input tensor) runs their tokens through
// the decode step's own kernels: a prompt admitted among others adds its work, not its launches.
// With Ps(k) the pass of k prompts without per-kernel overhead:
//
//   TPOT(C) = D(C) + Ps((C - 1) / G),   TTFT(C) = Ps(1) + n x D(C - 1)   (C > 1; alone: P(1))
//
// Under a request
// rate, C is the concurrency whose requests/s equals it (capped at the KV cache's capacity, past
// which requests queue: "saturated"). Queueing before admission is not modelled.
#include <cstdint>
#include <functional>
#include <optional>

namespace paleo {

struct ServingCosts {
  std::function<double(double)> decode_step_ms;  // D(b), b >= 0 sequences (not necessarily whole)
  std::function<double(double)> prefill_ms;      // P(k), k >= 0 prompts in one pass
  // Dg(b): the decode step replayed from a CUDA graph, taken in steps without a prompt; unset: D.
  std::function<double(double)> decode_only_step_ms;
  // Ps(k): k prompts packed into a decode step's pass (their work, not their kernels' launches),
  // taken whenever others are in flight; unset: P.
  std::function<double(double)> prefill_in_step_ms;
  std::int64_t prompt_len = 0;
  std::int64_t generate_len = 1;                 // G
  std::int64_t prefill_chunk_tokens = 0;         // 0: a prompt enters in one step
  double max_concurrency = 0;                    // what the KV cache holds; 0: none fits
};

struct ServingPoint {
  double concurrency = 0;
  double ttft_ms = 0;
  double tpot_ms = 0;
  double e2e_latency_ms = 0;
  double requests_per_s = 0;
  double output_tokens_per_s = 0;
  bool saturated = false;  // the request rate asked for is past what the KV cache lets it serve
};

ServingPoint serve_at_concurrency(const ServingCosts& c, double concurrency);
// The steady state whose requests/s is `requests_per_s` (bisection on the concurrency).
ServingPoint serve_at_request_rate(const ServingCosts& c, double requests_per_s);
// The most load (whole requests in flight, up to the KV cache's capacity) whose TPOT and TTFT stay
// within the targets (0: no target), both growing with the load; nullopt when one request alone
// misses them.
std::optional<ServingPoint> serve_at_latency_target(const ServingCosts& c, double tpot_target_ms, double ttft_target_ms);

}  // namespace paleo
