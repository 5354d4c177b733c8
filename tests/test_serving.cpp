// Serving under load (core/serving/): continuous batching against the static batch it reduces to,
// the paged KV cache counted to the block by hand, speculative decoding's closed form, fp8
// weights and cache, and the request rate's steady state.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/api.h"
#include "core/serving/continuous_batching.h"
#include "core/serving/kv_capacity.h"
#include "core/serving/speculative_decoding.h"
#include "core/transformer/inference_step.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& answer = ok_answer;  // tests/api_answer.h

Json llama8b(Json extra = Json::object()) {
  Json r = {{"command", "inference"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"tp", 1},
            {"batch_size", 1},        {"prompt_len", 1000}, {"generate_len", 200}, {"precision", "bf16"}};
  r.update(extra);
  return r;
}

// Steps whose costs are known by hand: D(b) = 10 + b ms (D(0) = 0), P(k) = 50 k ms, prompts of 1,000
// tokens, 100 generated, room for 64 requests.
paleo::ServingCosts linear_costs() {
  paleo::ServingCosts c;
  c.decode_step_ms = [](double b) { return b > 0 ? 10 + b : 0.0; };
  c.prefill_ms = [](double k) { return 50 * k; };
  c.prompt_len = 1000;
  c.generate_len = 100;
  c.max_concurrency = 64;
  return c;
}

}  // namespace

TEST_CASE("Continuous batching at one request is the static batch of one", "[serving]") {
  const Json r = answer(llama8b({{"concurrency", 1}}));
  const Json& s = r["serving"];
  CHECK(s["ttft_ms"].get<double>() == Approx(r["time_to_first_token_ms"].get<double>()).epsilon(1e-12));
  CHECK(s["tpot_ms"].get<double>() == Approx(r["decode_ms_per_token"].get<double>()).epsilon(1e-12));
  // The first token comes out of the prefill; 199 decode steps follow.
  const double e2e = s["ttft_ms"].get<double>() + 199 * s["tpot_ms"].get<double>();
  CHECK(s["e2e_latency_ms"].get<double>() == Approx(e2e).epsilon(1e-12));
  CHECK(s["output_tokens_per_s"].get<double>() == Approx(200 / e2e * 1e3).epsilon(1e-12));
}

TEST_CASE("Steady state at C requests: others' prompts between two tokens, Little's law", "[serving]") {
  // By hand from the formulas of continuous_batching.h, with D(b) = 10 + b ms and P(k) = 50 k ms.
  paleo::ServingCosts c = linear_costs();
  c.prefill_chunk_tokens = 250;  // 4 chunks
  const paleo::ServingPoint p = paleo::serve_at_concurrency(c, 8);
  CHECK(p.tpot_ms == Approx(18 + 7.0 / 100 * 50).epsilon(1e-12));  // 21.5
  CHECK(p.ttft_ms == Approx(50 + 4 * 17.0).epsilon(1e-12));          // 118
  CHECK(p.e2e_latency_ms == Approx(118 + 99 * 21.5).epsilon(1e-12));
  CHECK(p.requests_per_s == Approx(8 / (118 + 99 * 21.5) * 1e3).epsilon(1e-12));
  // The rate that concurrency serves gives it back; past the cache's capacity it saturates.
  const paleo::ServingPoint back = paleo::serve_at_request_rate(c, p.requests_per_s);
  CHECK(back.concurrency == Approx(8).epsilon(1e-6));
  CHECK_FALSE(back.saturated);
  CHECK(paleo::serve_at_request_rate(c, 1e6).saturated);
}

TEST_CASE("Decode steps without a prompt replay the CUDA graph, steps that admit one run eagerly",
          "[serving][graphs]") {
  // With D(b) = 10 + b ms eager, Dg(b) = 2 + b ms replayed, P(k) = 50 k ms, G = 100: at C = 8 a
  // share f = 7 / 100 of the steps carries a prompt.
  paleo::ServingCosts c = linear_costs();
  c.prefill_chunk_tokens = 250;  // 4 chunks
  c.decode_only_step_ms = [](double b) { return b > 0 ? 2 + b : 0.0; };
  const paleo::ServingPoint p = paleo::serve_at_concurrency(c, 8);
  CHECK(p.tpot_ms == Approx(0.07 * 18 + 0.93 * 10 + 7.0 / 100 * 50).epsilon(1e-12));  // 14.06
  CHECK(p.ttft_ms == Approx(50 + 4 * 17.0).epsilon(1e-12));                           // its prompt's steps stay eager
  // One request alone never shares a step with a prompt; from C - 1 = G on, every step does.
  CHECK(paleo::serve_at_concurrency(c, 1).tpot_ms == Approx(3).epsilon(1e-12));
  c.max_concurrency = 1000;
  CHECK(paleo::serve_at_concurrency(c, 201).tpot_ms == Approx(211 + 2.0 * 50).epsilon(1e-12));
}

TEST_CASE("Prompts packed into the decode step's pass add their work, not their launches", "[serving][mixed]") {
  // By hand with D(b) = 10 + b ms, P(k) = 50 k ms and the packed Ps(k) = 40 k ms, G = 100, 4 chunks:
  // at C = 8, TPOT = D(8) + Ps(0.07) = 18 + 2.8 and TTFT = Ps(1) + 4 D(7) = 40 + 68.
  paleo::ServingCosts c = linear_costs();
  c.prefill_chunk_tokens = 250;
  c.prefill_in_step_ms = [](double k) { return 40 * k; };
  const paleo::ServingPoint p = paleo::serve_at_concurrency(c, 8);
  CHECK(p.tpot_ms == Approx(20.8).epsilon(1e-12));
  CHECK(p.ttft_ms == Approx(108).epsilon(1e-12));
  // Alone, a request's prompt has no decode step to ride in: its own pass, P(1).
  CHECK(paleo::serve_at_concurrency(c, 1).ttft_ms == Approx(50).epsilon(1e-12));

  // Through the API, Ps is the prefill without per-kernel overhead: at 16 requests of 200 tokens,
  // 15 / 200 of a prompt enters per step, so TPOT falls by 0.075 x (P(1) - Ps(1)).
  const Json plain = answer(llama8b({{"concurrency", 16}, {"mixed_steps", false}, {"cuda_graphs", false}}));
  const Json mixed = answer(llama8b({{"concurrency", 16}, {"cuda_graphs", false}}));  // packed: the default
  CHECK(mixed["serving"]["mixed_steps"] == true);
  CHECK(plain["serving"]["mixed_steps"] == false);
  const Json no_launch = answer(llama8b({{"efficiency", {{"kernel_overhead_ms", 0}}}}));
  const double saved = plain["prefill_ms"].get<double>() - no_launch["prefill_ms"].get<double>();
  CHECK(saved > 0);
  CHECK(mixed["serving"]["tpot_ms"].get<double>() ==
        Approx(plain["serving"]["tpot_ms"].get<double>() - 15.0 / 200 * saved).epsilon(1e-9));
  CHECK(mixed["serving"]["ttft_ms"].get<double>() ==
        Approx(plain["serving"]["ttft_ms"].get<double>() - saved).epsilon(1e-9));
}

TEST_CASE("A decode step replayed from a CUDA graph pays the device's launch time per kernel", "[serving][graphs]") {
  // cuda_graphs prices each decode kernel at 1.34 us (core/efficiency/cuda_graph_launch.h) in
  // place of the era's overhead: the same step as an era whose kernel_overhead_ms is 0.00134.
  // The prefill is not captured and keeps the era's.
  const Json eager = answer(llama8b({{"batch_size", 8}, {"cuda_graphs", false}}));
  const Json graphed = answer(llama8b({{"batch_size", 8}}));  // today's engines: the default
  CHECK(graphed["serving"]["cuda_graphs"] == true);
  const Json floor = answer(llama8b({{"batch_size", 8}, {"efficiency", {{"kernel_overhead_ms", 0.00134}}}}));
  CHECK(graphed["decode_ms_per_token"].get<double>() ==
        Approx(floor["decode_ms_per_token"].get<double>()).epsilon(1e-12));
  CHECK(graphed["prefill_ms"].get<double>() == Approx(eager["prefill_ms"].get<double>()).epsilon(1e-12));
  CHECK(graphed["decode_ms_per_token"].get<double>() < eager["decode_ms_per_token"].get<double>());
  // Served at one request, every step is generation-only: TPOT is the replayed step.
  const Json one = answer(llama8b({{"concurrency", 1}}));
  CHECK(one["serving"]["tpot_ms"].get<double>() == Approx(one["decode_ms_per_token"].get<double>()).epsilon(1e-12));
}

TEST_CASE("TensorRT-LLM's cache takes its fraction of the memory left after the weights", "[serving][kv]") {
  // 80 GB, 16 GB of weights, 4 GB of activations, 0.9 of the free 60 GB = 54 GB; blocks of 16
  // tokens of 131,072 bytes: floor(54e9 / 2,097,152) = 25,749 blocks; a request of 2,176 tokens
  // holds 136 of them: 189 requests. vLLM's rule on the same memory: 0.9 x 80 - 20 = 52 GB.
  const paleo::KvCacheRequirement need{131072, 16, 2176};
  const paleo::PagedKvCapacity trt = paleo::paged_kv_capacity_of_free(80e9, 0.9, 16e9, 4e9, need);
  CHECK(trt.cache_bytes == Approx(54e9).epsilon(1e-12));
  CHECK(trt.blocks == 25749);
  CHECK(trt.blocks_per_request == 136);
  CHECK(trt.max_concurrency == 189);
  CHECK(paleo::paged_kv_capacity(80e9, 0.9, 16e9, 4e9, need).cache_bytes == Approx(52e9).epsilon(1e-12));
  // Through the API: the cache is 0.9 of (memory - weights - activations).
  const Json r = answer(llama8b({{"kv_cache_free_gpu_mem_fraction", 0.9}}));
  const double weights = r["weights_bytes"].get<double>();
  const double activations = r["memory_per_device_bytes"].get<double>() - weights - r["kv_cache_bytes"].get<double>();
  CHECK(r["serving"]["kv_cache"]["capacity_bytes"].get<double>() ==
        Approx(0.9 * (80.0 * (1ull << 30) - weights - activations)).epsilon(1e-12));
}

TEST_CASE("The paged KV cache holds what the memory left holds, to the block", "[serving][kv]") {
  // vLLM: (0.9 x memory - weights - profiled activations) / block bytes, whole blocks; a request
  // of 1,200 tokens holds ceil(1200 / 16) = 75 blocks.
  const double memory = 80.0 * (1ull << 30);
  struct Model {
    const char* net;
    double bytes_per_token;  // 2 (K and V) x layers x kv heads x head dim x 2 bytes
  };
  for (const Model& m : {Model{"llama3_8b", 2.0 * 32 * 8 * 128 * 2},    // GQA: 8 of 32 heads
                         Model{"llama2_7b", 2.0 * 32 * 32 * 128 * 2}}) {  // MHA: every head
    Json q = llama8b({{"net", m.net}});
    const Json r = answer(q);
    const double weights = r["weights_bytes"].get<double>();
    const double activations =
        r["memory_per_device_bytes"].get<double>() - weights - r["kv_cache_bytes"].get<double>();
    CHECK(r["kv_cache_bytes"].get<double>() == Approx(m.bytes_per_token * 1200).epsilon(1e-12));
    const double block = 16 * m.bytes_per_token;
    const double blocks = std::floor((0.9 * memory - weights - activations) / block);
    const Json& kv = r["serving"]["kv_cache"];
    CHECK(kv["block_bytes"].get<double>() == block);
    CHECK(kv["blocks"].get<double>() == blocks);
    CHECK(kv["blocks_per_request"] == 75);
    CHECK(r["serving"]["max_concurrency"].get<double>() == std::floor(blocks / 75));
  }
  // A smaller memory fraction and larger blocks, as a request may set them.
  const Json r = answer(llama8b({{"gpu_memory_utilization", 0.5}, {"block_size", 32}}));
  const double left = 0.5 * memory - r["weights_bytes"].get<double>() -
                      (r["memory_per_device_bytes"].get<double>() - r["weights_bytes"].get<double>() -
                       r["kv_cache_bytes"].get<double>());
  CHECK(r["serving"]["kv_cache"]["blocks"].get<double>() == std::floor(left / (32 * 131072.0)));
  CHECK(r["serving"]["kv_cache"]["blocks_per_request"] == 38);  // ceil(1200 / 32)
}

TEST_CASE("An fp8 cache halves a bf16 one and fp8 weights fit a 405B model on 8 H100s", "[serving][fp8]") {
  const Json bf16 = answer(llama8b({{"concurrency", 16}}));
  const Json fp8 = answer(llama8b({{"concurrency", 16}, {"kv_cache_dtype", "fp8"}}));
  CHECK(fp8["kv_cache_bytes"].get<double>() == bf16["kv_cache_bytes"].get<double>() / 2);
  CHECK(fp8["serving"]["kv_cache"]["block_bytes"].get<double>() ==
        bf16["serving"]["kv_cache"]["block_bytes"].get<double>() / 2);
  CHECK(fp8["serving"]["kv_cache"]["blocks"].get<double>() >= 2 * bf16["serving"]["kv_cache"]["blocks"].get<double>());

  // Llama 3.1 405B in fp8 on 8 x 80 GB: the layers' weights in one byte, the embedding and head
  // (2 x 128,256 x 16,384) in two: about 51 GB a device, where bf16 weights (101 GB) do not fit.
  Json q = {{"command", "inference"}, {"net", "llama3_1_405b"}, {"device", "H100_SXM"}, {"tp", 8},
            {"batch_size", 1},        {"prompt_len", 1024},     {"generate_len", 128}, {"precision", "fp8"}};
  const Json r = answer(q);
  const Json& p = r["model"]["params_breakdown"];
  const double outer = p["embedding"].get<double>() + p["head"].get<double>();
  const double inner = r["model"]["params"].get<double>() - outer;
  CHECK(r["weights_bytes"].get<double>() == Approx((inner + 2 * outer) / 8).epsilon(1e-3));
  CHECK(r["fits"] == true);
  CHECK(r["serving"]["max_concurrency"].get<double>() > 0);
  q["precision"] = "bf16";
  CHECK(answer(q)["fits"] == false);
}

TEST_CASE("Speculative decoding yields (1 - a^(g+1)) / (1 - a) tokens a target step", "[serving][speculative]") {
  using paleo::SpeculativeDecoding;
  CHECK(paleo::expected_tokens_per_target_step(SpeculativeDecoding{4, 0.0}) == 1.0);
  CHECK(paleo::expected_tokens_per_target_step(SpeculativeDecoding{4, 1.0}) == 5.0);
  const double a = 0.7;
  CHECK(std::abs(paleo::expected_tokens_per_target_step(SpeculativeDecoding{4, a}) -
                 (1 - a * a * a * a * a) / (1 - a)) < 1e-12);
  CHECK(paleo::expected_tokens_per_target_step(SpeculativeDecoding{0, 0.9}) == 1.0);  // off
  // Per token: the target's check of 5 positions plus 4 draft steps, over the tokens yielded.
  CHECK(paleo::speculative_ms_per_token(SpeculativeDecoding{4, a}, 12, 1) ==
        Approx((12 + 4 * 1) / ((1 - std::pow(a, 5)) / (1 - a))).epsilon(1e-12));

  // In the API: at acceptance 0 with free drafts a step yields one token, at the price of
  // checking five positions; with a draft model each token also pays the draft's steps.
  const Json plain = answer(llama8b());
  const Json none = answer(llama8b({{"speculative", {{"draft_tokens", 4}, {"acceptance_rate", 0.0}}}}));
  CHECK(none["serving"]["tokens_per_target_step"] == 1.0);
  CHECK(none["serving"]["tpot_ms"].get<double>() >= plain["serving"]["tpot_ms"].get<double>());
  const Json drafted = answer(llama8b({{"speculative", {{"draft_tokens", 4}, {"acceptance_rate", 0.8},
                                                         {"draft_net", "gpt3_125m"}}}}));
  const Json free = answer(llama8b({{"speculative", {{"draft_tokens", 4}, {"acceptance_rate", 0.8}}}}));
  CHECK(drafted["serving"]["tpot_ms"].get<double>() > free["serving"]["tpot_ms"].get<double>());
  CHECK(free["serving"]["tpot_ms"].get<double>() < plain["serving"]["tpot_ms"].get<double>());
}

TEST_CASE("Replicas share the devices and a request rate is spread over them", "[serving]") {
  Json q = llama8b({{"nodes", 1}, {"devices_per_node", 8}, {"cluster", "dgx_h100_ndr"}, {"tp", 2},
                    {"request_rate", 8}});
  const Json r = answer(q);
  const Json& s = r["serving"];
  CHECK(s["replicas"] == 4);
  CHECK(s["requests_per_s"].get<double>() == Approx(2).epsilon(1e-6));  // 8 / 4 replicas
  CHECK(s["total_requests_per_s"].get<double>() == Approx(8).epsilon(1e-6));
  CHECK(s["output_tokens_per_s_per_gpu"].get<double>() ==
        Approx(s["total_output_tokens_per_s"].get<double>() / 8).epsilon(1e-12));
}

TEST_CASE("Serving fields are checked and name themselves", "[serving][errors]") {
  auto error_field = [](const Json& q) {
    const Json r = paleo::handle_request(q);
    REQUIRE_FALSE(r["ok"].get<bool>());
    return r["error"]["field"].get<std::string>();
  };
  CHECK(error_field(llama8b({{"concurrency", 4}, {"request_rate", 1}})) == "request_rate");
  CHECK(error_field(llama8b({{"concurrency", -1}})) == "concurrency");
  CHECK(error_field(llama8b({{"gpu_memory_utilization", 1.5}})) == "gpu_memory_utilization");
  CHECK(error_field(llama8b({{"kv_cache_dtype", "int3"}})) == "kv_cache_dtype");
  CHECK(error_field(llama8b({{"speculative", {{"draft_tokens", 4}}}})) == "speculative");
  CHECK(error_field(llama8b({{"speculative", {{"draft_tokens", 4}, {"acceptance_rate", 2}}}})) ==
        "speculative.acceptance_rate");
  CHECK(error_field(llama8b({{"block_size", 0}})) == "block_size");
  CHECK(error_field(llama8b({{"cuda_graphs", 1}})) == "cuda_graphs");
  CHECK(error_field(llama8b({{"mixed_steps", "yes"}})) == "mixed_steps");
  CHECK(error_field(llama8b({{"kv_cache_free_gpu_mem_fraction", 0}})) == "kv_cache_free_gpu_mem_fraction");
  CHECK(error_field(llama8b({{"kv_cache_free_gpu_mem_fraction", 0.9}, {"gpu_memory_utilization", 0.9}})) ==
        "kv_cache_free_gpu_mem_fraction");
  // A training estimate ignores them, and says so.
  const Json r = answer({{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"},
                         {"global_batch", 8}, {"concurrency", 4}});
  bool warned = false;
  for (const Json& w : r["warnings"]) warned = warned || w.get<std::string>().find("'concurrency'") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("A MoE decode step reads the experts its tokens route to", "[serving][moe]") {
  // E (1 - (1 - k / E)^B): one token of Mixtral (top 2 of 8) touches 2 experts, two tokens
  // 8 (1 - 0.75^2) = 3.5, many tokens all 8.
  CHECK(paleo::expected_experts_touched(8, 2, 1) == Approx(2).epsilon(1e-12));
  CHECK(paleo::expected_experts_touched(8, 2, 2) == Approx(3.5).epsilon(1e-12));
  CHECK(paleo::expected_experts_touched(8, 2, 1000) == Approx(8).epsilon(1e-12));
  // At batch 1 the decode reads about the active parameters (13B of Mixtral's 47B): a memory-bound
  // step at the era's bandwidth is well under the time to read every expert.
  Json q = {{"command", "inference"}, {"net", "mixtral_8x7b"}, {"device", "H100_SXM"}, {"tp", 2},
            {"batch_size", 1},        {"prompt_len", 512},      {"generate_len", 64}, {"precision", "bf16"},
            {"efficiency", {{"kernel_overhead_ms", 0}}}};  // the bytes alone
  const Json one = answer(q);
  const double all_weights_ms = one["weights_bytes"].get<double>() / (3350e9 * 0.7) * 1e3;
  CHECK(one["decode_ms_per_token"].get<double>() < 0.6 * all_weights_ms);
  q["batch_size"] = 256;  // every expert is read
  CHECK(answer(q)["decode_ms_per_token"].get<double>() > all_weights_ms);
}

TEST_CASE("The most load that meets a latency target, and the price of a million tokens", "[serving][target]") {
  // D(b) = 10 + b, P(k) = 50 k, G = 100, whole prompts: TPOT(C) = 9.5 + 1.5 C, TTFT(C) = 59 + C.
  const paleo::ServingCosts c = linear_costs();
  auto at = [&](double tpot, double ttft) { return paleo::serve_at_latency_target(c, tpot, ttft); };
  REQUIRE(at(40, 0));
  CHECK(at(40, 0)->concurrency == 20);   // 9.5 + 1.5 x 20 = 39.5; 21 gives 41
  CHECK(at(40, 70)->concurrency == 11);  // TTFT 59 + 11 = 70
  CHECK(at(1000, 0)->concurrency == 64); // the KV cache's capacity
  CHECK_FALSE(at(10, 0));                // one request alone: TPOT 11

  const Json r = answer(llama8b({{"nodes", 1}, {"devices_per_node", 8}, {"cluster", "dgx_h100_ndr"},
                                 {"concurrency", 16}, {"price_per_gpu_hour", 2.0}, {"tpot_target_ms", 50}}));
  const Json& s = r["serving"];
  // 8 replicas of one GPU: 8 devices at $2 an hour for the hour a million tokens take.
  CHECK(s["usd_per_million_output_tokens"].get<double>() ==
        Approx(2.0 * 8 / 3600 / s["total_output_tokens_per_s"].get<double>() * 1e6).epsilon(1e-12));
  REQUIRE(s["at_latency_target"].is_object());
  CHECK(s["at_latency_target"]["tpot_ms"].get<double>() <= 50);
}

TEST_CASE("A TensorRT engine's step is the longer of its host's issue and its device's run", "[serving][engine]") {
  // A two-layer Llama-shaped net of 64 wide, one sequence of 4 tokens: each layer issues 11
  // kernels (norm, qkv, rotary, attention, out, add, norm, up, SwiGLU, down, add), the embedding
  // 1, the head 3 (norm, logits, cross-entropy): 26, in the prefill and in each decode step. At
  // 0.05 ms a kernel the host takes 26 x 0.05 = 1.3 ms, far more than the device's few
  // microseconds of work plus 26 x 1.34 us: the step is the host's 1.3 ms, not work + 1.3 ms.
  const Json tiny = {
      {"layers", 2},   {"hidden", 64},           {"heads", 4},        {"ffn_hidden", 128},    {"vocab", 128},
      {"seq_len", 16}, {"activation", "swiglu"}, {"norm", "rmsnorm"}, {"position", "rotary"}, {"bias", false},
      {"dropout", 0.0}};
  Json q = {{"command", "inference"},
            {"net", {{"transformer", tiny}}},
            {"device", "H100_SXM"},
            {"batch_size", 1},
            {"prompt_len", 4},
            {"generate_len", 2},
            {"precision", "bf16"},
            {"cuda_graphs", false},
            {"efficiency", {{"kernel_overhead_ms", 0.05}}}};
  const Json eager = answer(q);
  q["runtime"] = "tensorrt";
  const Json engine = answer(q);
  CHECK(engine["serving"]["runtime"] == "tensorrt");
  CHECK(eager["serving"]["runtime"] == "pytorch");
  CHECK(engine["prefill_ms"].get<double>() == Approx(1.3).epsilon(1e-12));
  CHECK(engine["decode_ms_per_token"].get<double>() == Approx(1.3).epsilon(1e-12));
  // The framework adds the same 1.3 ms of launches to the work.
  CHECK(eager["prefill_ms"].get<double>() > 1.3);
  CHECK(eager["prefill_ms"].get<double>() < 1.4);

  // A step of long kernels keeps the device busy while the host issues the next: the device's
  // run, each kernel at its work plus 1.34 us, as if the era's overhead were the device's own
  // (its memory at the era's 0.7 of the peak: the H100's measured streaming rate would make this
  // step's run shorter than its issue).
  const Json slow_memory = {{"memory_fraction", 0.7}};
  const Json big = answer(
      llama8b({{"batch_size", 16}, {"cuda_graphs", false}, {"runtime", "tensorrt"}, {"efficiency", slow_memory}}));
  const Json device_only =
      answer(llama8b({{"batch_size", 16},
                      {"cuda_graphs", false},
                      {"efficiency", {{"kernel_overhead_ms", 0.00134}, {"memory_fraction", 0.7}}}}));
  CHECK(big["prefill_ms"].get<double>() == Approx(device_only["prefill_ms"].get<double>()).epsilon(1e-9));
  CHECK(big["decode_ms_per_token"].get<double>() ==
        Approx(device_only["decode_ms_per_token"].get<double>()).epsilon(1e-9));
  // A CUDA graph replaces the host's issue of a decode step whatever the runtime.
  const Json graphed = answer(llama8b({{"batch_size", 16}, {"runtime", "tensorrt"}, {"efficiency", slow_memory}}));
  CHECK(graphed["decode_ms_per_token"].get<double>() ==
        Approx(device_only["decode_ms_per_token"].get<double>()).epsilon(1e-9));
}

TEST_CASE("Decode attention that reads the cache per query head runs at its SMs' rate", "[serving][attention]") {
  // Llama 3 8B: 32 layers, 8 key/value heads of 128 for 32 query heads (groups of 4). At batch 4
  // and a mean cache of 1,000 + 200 / 2 = 1,100 tokens in bf16, a layer's cache is
  // 2 x 1,100 x 128 x 4 x 8 = 9,011,200 elements, 18,022,400 B: one read from DRAM at the H100
  // SXM's measured streaming rate, 2,988 GB/s, takes 6.0316 us. Per query head it is read 4 times,
  // 36,044,800 elements at 13 a cycle on its 132 SMs at 1,980 MHz: 10.609 us, the longer, so each
  // of the 32 layers adds 10.609 - 6.032 us a step.
  const double one_read_ms = 18022400.0 / 2988e9 * 1e3;
  const double sm_ms = 4 * 9011200.0 / (132 * 1980e3 * 13.0);
  const Json once = answer(llama8b({{"batch_size", 4}}));
  const Json per_query = answer(llama8b({{"batch_size", 4}, {"decode_attention", "per_query_head"}}));
  CHECK(once["serving"]["decode_attention"] == "per_kv_head");
  CHECK(per_query["serving"]["decode_attention"] == "per_query_head");
  CHECK(per_query["decode_ms_per_token"].get<double>() - once["decode_ms_per_token"].get<double>() ==
        Approx(32 * (sm_ms - one_read_ms)).epsilon(1e-9));
  CHECK(per_query["prefill_ms"].get<double>() == Approx(once["prefill_ms"].get<double>()).epsilon(1e-12));
  // A device that states no SM count pays the 3 further reads from DRAM: over 32 layers
  // 1,730,150,400 B at 0.7 of 3,350 GB/s.
  Json custom = {{"name", "H100 without SMs"},
                 {"clock_mhz", 1980},
                 {"peak_gflops", 67000},
                 {"mem_bandwidth_gb_per_s", 3350},
                 {"memory_bytes", 80e9},
                 {"generation", "hopper"},
                 {"peak_tensor_gflops", {{"bf16", 989000}}}};
  const Json once_custom = answer(llama8b({{"batch_size", 4}, {"device", custom}}));
  const Json per_query_custom =
      answer(llama8b({{"batch_size", 4}, {"device", custom}, {"decode_attention", "per_query_head"}}));
  CHECK(per_query_custom["decode_ms_per_token"].get<double>() - once_custom["decode_ms_per_token"].get<double>() ==
        Approx(1730150400.0 / (3350e9 * 0.7) * 1e3).epsilon(1e-9));
  // Without grouped-query attention (Llama 2 7B: 32 key/value heads for 32) one read from DRAM
  // (72,089,600 B, 30.7 us a layer at batch 4) is longer than the SMs' pass over its 36,044,800
  // elements (11.0 us): no change.
  Json mha = llama8b({{"net", "llama2_7b"}, {"batch_size", 4}});
  const double mha_once = answer(mha)["decode_ms_per_token"].get<double>();
  mha["decode_attention"] = "per_query_head";
  CHECK(answer(mha)["decode_ms_per_token"].get<double>() == Approx(mha_once).epsilon(1e-12));
}

TEST_CASE("The engine's runtime and decode attention are checked and name themselves", "[serving][errors]") {
  auto error_field = [](const Json& q) {
    const Json r = paleo::handle_request(q);
    REQUIRE_FALSE(r["ok"].get<bool>());
    return r["error"]["field"].get<std::string>();
  };
  CHECK(error_field(llama8b({{"runtime", "tensorflow"}})) == "runtime");
  CHECK(error_field(llama8b({{"runtime", true}})) == "runtime");
  CHECK(error_field(llama8b({{"decode_attention", "per_head"}})) == "decode_attention");
}

TEST_CASE("A skewed MoE routing touches fewer experts in a decode step", "[serving][moe]") {
  // Skew 1 over Mixtral's 8 experts (top 2): expert i draws 1/i of H8 = 761/280 of the tokens, and a
  // token picks it with q_i = 2 / (i H8) (all below 1). One token touches sum q_i = 2 experts; two
  // touch sum (2 q_i - q_i^2) = 4 - (4 / H8^2) sum 1/i^2, with sum_{i<=8} 1/i^2 = 1077749 / 705600:
  // 3.1729, against 3.5 under uniform routing.
  const double h8 = 761.0 / 280;
  CHECK(paleo::expected_experts_touched(8, 2, 1, 1.0) == Approx(2).epsilon(1e-12));
  CHECK(paleo::expected_experts_touched(8, 2, 2, 1.0) ==
        Approx(4 - 4 / (h8 * h8) * (1077749.0 / 705600)).epsilon(1e-12));
  CHECK(paleo::expected_experts_touched(8, 2, 2, 0.0) == Approx(3.5).epsilon(1e-12));
  // Skew 3 over 4 experts, top 2: the first expert's 2 x 1 / (1 + 1/8 + 1/27 + 1/64) > 1 is capped:
  // every token picks it.
  CHECK(paleo::expected_experts_touched(4, 2, 1, 3.0) < 2);
  CHECK(paleo::expected_experts_touched(4, 2, 1000, 3.0) == Approx(4).epsilon(1e-9));

  // Through the API: at 2 sequences Mixtral's decode reads 3.17 experts' weights instead of 3.5.
  Json q = {{"command", "inference"}, {"net", "mixtral_8x7b"}, {"device", "H100_SXM"}, {"tp", 2},
            {"batch_size", 2},        {"prompt_len", 512},     {"generate_len", 64},   {"precision", "bf16"}};
  const Json uniform = answer(q);
  q["moe_routing_skew"] = 1.0;
  const Json skewed = answer(q);
  CHECK(skewed["serving"]["moe_routing_skew"].get<double>() == 1.0);
  CHECK(skewed["decode_ms_per_token"].get<double>() < uniform["decode_ms_per_token"].get<double>());
  CHECK(skewed["prefill_ms"].get<double>() == Approx(uniform["prefill_ms"].get<double>()).epsilon(1e-12));
  q["moe_routing_skew"] = -1;
  CHECK(paleo::handle_request(q)["error"]["field"] == "moe_routing_skew");
}

TEST_CASE("The engine settings a request leaves to today's defaults are named in assumed and warned", "[serving]") {
  const Json plain = answer(llama8b());
  CHECK(plain["assumed"] == Json{{"cuda_graphs", true},
                                 {"mixed_steps", true},
                                 {"runtime", "pytorch"},
                                 {"decode_attention", "per_kv_head"},
                                 {"kv_cache_dtype", "bf16"},
                                 {"gpu_memory_utilization", 0.9},
                                 {"block_size", 16}});
  bool warned = false;
  for (const Json& w : plain["warnings"])
    warned = warned || w.get<std::string>().rfind("assumed today's serving engines", 0) == 0;
  CHECK(warned);
  // What the request states is not assumed; TensorRT-LLM's memory rule replaces vLLM's.
  const Json stated = answer(llama8b({{"cuda_graphs", false},
                                      {"mixed_steps", false},
                                      {"runtime", "tensorrt"},
                                      {"decode_attention", "per_query_head"},
                                      {"kv_cache_dtype", "fp8"},
                                      {"kv_cache_free_gpu_mem_fraction", 0.9},
                                      {"block_size", 32}}));
  CHECK(stated["assumed"] == Json::object());
  // A MoE's routing is assumed uniform unless stated.
  Json mixtral = llama8b({{"net", "mixtral_8x7b"}, {"tp", 2}});
  CHECK(answer(mixtral)["assumed"]["moe_routing_skew"] == 0.0);
  mixtral["moe_routing_skew"] = 1;
  CHECK_FALSE(answer(mixtral)["assumed"].contains("moe_routing_skew"));
}
