#pragma once
// Inference under tensor parallelism: the prefill of the prompt (a forward pass over it, logits
// of the last token only) and the decode of each further token (every weight and the KV cache
// read once per token: memory-bound at small batches); KV-cache memory. At fp8 the linear layers'
// weights are stored in fp8 as serving engines quantize them (TensorRT-LLM, vLLM: the embedding
// and the head stay in the activations' format).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hardware/device.h"
#include "core/hardware/cluster.h"
#include "core/transformer/engine_launch.h"
#include "core/transformer/training_options.h"

namespace paleo {

// How a decode step's attention reads a key/value head's cache. kPerKvHead: once, for the whole
// group of query heads it serves (FlashDecoding, TensorRT-LLM's XQA from v0.8). kPerQueryHead:
// once per query head (TensorRT-LLM's masked multi-head attention, its decode kernel for
// grouped-query attention before XQA: one thread block per query head, each streaming its
// key/value head's cache), group times the bytes.
enum class DecodeAttention { kPerKvHead, kPerQueryHead };

// The request's `decode_attention`: "per_kv_head" or "per_query_head"; throws paleo::Error naming
// `field` otherwise.
DecodeAttention parse_decode_attention(const std::string& s, const std::string& field);
const char* decode_attention_name(DecodeAttention a);

struct InferenceOptions {
  std::int64_t batch = 1;
  std::int64_t prompt_len = 2048;
  std::int64_t generate_len = 128;
  std::int64_t tp = 1;
  PrecisionPolicy precision = precision_policy("bf16", "precision");
  AttentionKernel attention = AttentionKernel::kFlash;
  KernelEfficiency efficiency;
  // The keys and values' format; unset: the activations' (an fp8 cache halves a bf16 one).
  std::optional<Dtype> kv_cache;
  // The decode step is replayed from a CUDA graph: each of its kernels costs the device's own
  // launch time (cuda_graph_launch.h) instead of the era's per-kernel overhead. The prefill is
  // not captured.
  bool cuda_graph_decode = false;
  // How the steps' kernels are issued (engine_launch.h): a framework's one by one, or a compiled
  // engine's enqueued ahead of the device (the longer of host and device, not their sum).
  KernelIssue kernel_issue = KernelIssue::kFramework;
  DecodeAttention decode_attention = DecodeAttention::kPerKvHead;
  // The MoE routing's skew (expected_experts_touched): 0, uniform, what the routers' auxiliary
  // load-balancing loss trains for (docs/serving.md, "Mixture of experts").
  double moe_routing_skew = 0;
};

struct InferenceEstimate {
  double prefill_ms = 0;                // = time to the first token
  double decode_ms_per_token = 0;       // one step of the batch, at the mean KV length
  double total_ms = 0;                  // prefill + every decode step
  double decode_tokens_per_s = 0;       // batch / decode step
  double tp_comm_per_token_ms = 0;      // of the decode step
  double weights_bytes = 0;             // per device
  double kv_cache_bytes = 0;            // per device, at prompt + generated tokens
  double kv_bytes_per_token = 0;        // per device: every layer's keys and values of one token
  double activation_peak_bytes = 0;     // per device: the prefill's largest live activations
  double memory_per_device_bytes = 0;
  double capacity_bytes = 0;
  bool fits = true;
  std::vector<std::string> warnings;
};

// The experts a decode step's `tokens` route to, each choosing `top_k` of `experts` at random:
// E (1 - (1 - k / E)^B) on average when the routing is uniform (B = 1: k; many tokens: all E). A
// decode step reads only these experts' weights (a MoE model at small batches is priced on its
// active parameters). With a routing skew s > 0 expert i (1-based) draws a share p_i of the
// routed tokens proportional to i^(-s), a token picks it with probability q_i = min(1, k p_i),
// and sum_i (1 - (1 - q_i)^B) are touched: fewer than under uniform routing.
double expected_experts_touched(double experts, double top_k, double tokens, double skew = 0);

// Throws paleo::Error (field "tp") when tp does not divide the heads or the node.
InferenceEstimate estimate_inference(const TransformerConfig& c, const InferenceOptions& o, const Device& device,
                                     const Cluster& cluster);

}  // namespace paleo
