#include "core/serving/continuous_batching.h"

#include <algorithm>
#include <cmath>

namespace paleo {

ServingPoint serve_at_concurrency(const ServingCosts& c, double concurrency) {
  ServingPoint p;
  p.concurrency = concurrency;
  const double g = static_cast<double>(std::max<std::int64_t>(c.generate_len, 1));
  const double others = std::max(0.0, concurrency - 1);
  const double chunks =
      c.prefill_chunk_tokens > 0
          ? std::ceil(static_cast<double>(c.prompt_len) / static_cast<double>(c.prefill_chunk_tokens))
          : 1;
  // Below one request in flight the engine idles between requests: each still decodes alone.
  const double batch = std::max(concurrency, 1.0);
  double decode_ms = c.decode_step_ms(batch);
  if (c.decode_only_step_ms) {
    // The share of steps that carry a prompt runs eagerly; the others replay the graph.
    const double with_prompt = std::min(1.0, others / g);
    decode_ms = with_prompt * decode_ms + (1 - with_prompt) * c.decode_only_step_ms(batch);
  }
  // Prompts admitted among others ride in their decode step's pass where the engine packs them.
  const auto& admitted = c.prefill_in_step_ms ? c.prefill_in_step_ms : c.prefill_ms;
  p.tpot_ms = decode_ms + admitted(others / g);
  p.ttft_ms = others > 0 ? admitted(1) + chunks * c.decode_step_ms(others) : c.prefill_ms(1);
  p.e2e_latency_ms = p.ttft_ms + (g - 1) * p.tpot_ms;
  if (p.e2e_latency_ms > 0) {
    p.requests_per_s = concurrency / p.e2e_latency_ms * 1e3;
    p.output_tokens_per_s = p.requests_per_s * g;
  }
  return p;
}

ServingPoint serve_at_request_rate(const ServingCosts& c, double requests_per_s) {
  const double most = std::max(c.max_concurrency, 0.0);
  ServingPoint top = serve_at_concurrency(c, std::max(most, 1.0));
  if (most <= 0 || requests_per_s >= top.requests_per_s) {
    top.saturated = true;
    return top;
  }
  // requests/s grows with the concurrency (a step of more sequences yields more tokens).
  double low = 0, high = most;
  for (int i = 0; i < 100 && high - low > 1e-9 * std::max(1.0, most); ++i) {
    const double mid = (low + high) / 2;
    (serve_at_concurrency(c, mid).requests_per_s < requests_per_s ? low : high) = mid;
  }
  return serve_at_concurrency(c, (low + high) / 2);
}

std::optional<ServingPoint> serve_at_latency_target(const ServingCosts& c, double tpot_target_ms,
                                                    double ttft_target_ms) {
  auto meets = [&](const ServingPoint& p) {
    return (tpot_target_ms <= 0 || p.tpot_ms <= tpot_target_ms) && (ttft_target_ms <= 0 || p.ttft_ms <= ttft_target_ms);
  };
  const double most = std::floor(std::max(c.max_concurrency, 1.0));
  if (!meets(serve_at_concurrency(c, 1))) return std::nullopt;
  double low = 1, high = most;  // low meets; the answer lies in [low, high]
  if (meets(serve_at_concurrency(c, high))) return serve_at_concurrency(c, high);
  while (high - low > 1) {
    const double mid = std::floor((low + high) / 2);
    (meets(serve_at_concurrency(c, mid)) ? low : high) = mid;
  }
  return serve_at_concurrency(c, low);
}

}  // namespace paleo
