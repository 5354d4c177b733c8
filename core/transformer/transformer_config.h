#pragma once
// transformer/: transformer models (decoder LLMs, encoders such as BERT, mixture of experts):
// their configuration, operators, FLOPs, memory and the training and inference step under
// tensor / pipeline / data / context / expert parallelism. This file: the model's shape.
#include <cstdint>
#include <string>

#include "core/base/json.h"

namespace paleo {

enum class Activation { kGelu, kRelu, kSwiglu, kGeglu };  // *glu: gated, two up-projections
enum class NormKind { kLayerNorm, kRmsNorm };
enum class PositionKind { kLearned, kRotary, kNone };

struct MoeConfig {
  std::int64_t experts = 0;          // 0 = dense MLP everywhere
  std::int64_t top_k = 0;            // experts each token is routed to
  std::int64_t ffn_hidden = 0;       // one expert's inner size (0 = the model's ffn_hidden)
  std::int64_t every = 1;            // an MoE MLP in every `every`-th layer (1 = all layers)
  std::int64_t shared_experts = 0;   // experts every token also passes through (DeepSeek, Qwen-MoE)
  bool enabled() const { return experts > 0; }
};

struct TransformerConfig {
  std::string name;
  std::int64_t layers = 0;
  std::int64_t hidden = 0;
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;        // = heads for MHA, 1 for MQA, in between for GQA
  std::int64_t head_dim = 0;        // usually hidden / heads
  std::int64_t ffn_hidden = 0;      // MLP inner size (per up-projection for gated activations)
  std::int64_t vocab = 0;
  std::int64_t seq_len = 2048;      // default training sequence length (a request may override it)
  std::int64_t max_positions = 0;   // learned position table size (0 = seq_len)
  std::int64_t type_vocab = 0;      // BERT's token-type embeddings (0 = none)
  Activation activation = Activation::kGelu;
  NormKind norm = NormKind::kLayerNorm;
  PositionKind position = PositionKind::kLearned;
  bool tied_embeddings = true;
  bool bias = true;         // linear layers carry biases (GPT-2/3, BERT) or not (Llama)
  bool qkv_bias = false;    // biases on q, k, v only (Qwen2) when `bias` is false
  bool causal = true;       // decoder (causal mask) or encoder (BERT)
  bool encoder_head = false;  // BERT's pooler and masked-LM transform
  double dropout = 0.0;     // probability; > 0 keeps one-byte masks for the backward pass
  MoeConfig moe;

  bool gated() const { return activation == Activation::kSwiglu || activation == Activation::kGeglu; }
  bool moe_layer(std::int64_t layer) const { return moe.enabled() && (layer % moe.every) == moe.every - 1; }
  std::int64_t moe_layer_count() const { return moe.enabled() ? layers / moe.every : 0; }
  std::int64_t expert_ffn() const { return moe.ffn_hidden > 0 ? moe.ffn_hidden : ffn_hidden; }
  std::int64_t q_size() const { return heads * head_dim; }
  std::int64_t kv_size() const { return kv_heads * head_dim; }
};

// A compact config object (docs/transformer.md): {"layers", "hidden", "heads", "kv_heads",
// "ffn_hidden", "vocab", "seq_len", "activation", "norm", "position", "tied_embeddings", "bias",
// "dropout", "causal", "moe": {...}, ...}. Throws paleo::Error naming `field`.subfield.
TransformerConfig transformer_config_from_json(const Json& obj, const std::string& field);
Json transformer_config_json(const TransformerConfig& c);

const char* activation_name(Activation a);
const char* norm_name(NormKind n);
const char* position_name(PositionKind p);

// Parameter counts (exact for the architecture described).
struct ParameterCount {
  double embedding = 0;     // token (+ position, + token type) embeddings
  double per_layer_attention = 0;  // q, k, v, o (+ biases)
  double per_layer_norms = 0;
  double dense_mlp = 0;     // one dense MLP
  double moe_mlp = 0;       // one MoE MLP: all experts + router (+ shared experts)
  double final_norm = 0;
  double head = 0;          // output projection when not tied (+ BERT's pooler and MLM head)
  double layers_total = 0;  // every layer
  double total = 0;
  double active_total = 0;  // parameters a token passes through (MoE: top_k experts)
};
ParameterCount parameter_count(const TransformerConfig& c);

}  // namespace paleo
