#include "core/transformer/hf_config.h"

#include <map>
#include <vector>

#include "core/base/error.h"

namespace paleo {
namespace {

// kLlama: llama, mistral, qwen2, qwen3, mixtral, qwen3_moe.
enum class Family { kLlama, kGpt2, kNeox, kBert };

// What the transformers library does for one model_type where config.json says nothing.
struct Rules {
  const char* model_type;
  const char* architecture_prefix;  // architectures[0] starts with it (when model_type is absent)
  Family family;
  bool tied;      // tie_word_embeddings default
  bool qkv_bias;  // q, k, v biases that no config field announces (Qwen2)
  bool moe;       // num_local_experts or num_experts / num_experts_per_tok (Mixtral, Qwen3-MoE)
};

const Rules kRules[] = {
    {"llama", "Llama", Family::kLlama, false, false, false},
    {"mistral", "Mistral", Family::kLlama, false, false, false},
    {"qwen2", "Qwen2For", Family::kLlama, false, true, false},
    {"qwen3", "Qwen3For", Family::kLlama, false, false, false},
    {"mixtral", "Mixtral", Family::kLlama, false, false, true},
    {"qwen3_moe", "Qwen3MoeFor", Family::kLlama, false, false, true},
    {"gpt2", "GPT2", Family::kGpt2, true, false, false},
    {"gpt_neox", "GPTNeoX", Family::kNeox, false, false, false},
    {"bert", "Bert", Family::kBert, true, false, false},
};

bool present(const Json& obj, const char* key) { return obj.contains(key) && !obj[key].is_null(); }

const Rules& rules_for(const Json& hf, const std::string& field) {
  std::string type;
  if (present(hf, "model_type")) {
    if (!hf["model_type"].is_string()) throw Error("must be a string", "", field + ".model_type");
    type = hf["model_type"].get<std::string>();
    for (const Rules& r : kRules)
      if (type == r.model_type) return r;
  } else if (present(hf, "architectures") && hf["architectures"].is_array() && !hf["architectures"].empty() &&
             hf["architectures"][0].is_string()) {
    type = hf["architectures"][0].get<std::string>();
    for (const Rules& r : kRules)
      if (type.rfind(r.architecture_prefix, 0) == 0) return r;
  }
  std::string known;
  for (const Rules& r : kRules) known += (known.empty() ? "" : ", ") + std::string(r.model_type);
  throw Error((type.empty() ? std::string("is missing") : "unsupported model type '" + type + "'") + " (supported: " +
                  known + ")", "", field + ".model_type");
}

// The compact config (transformer_config.h) being built, and which config.json key each value
// came from, so that errors name the key of the file.
struct Translation {
  Translation(const Json& config, const std::string& name) : hf(config), field(name) {}
  const Json& hf;
  std::string field;
  Json compact = Json::object();
  std::map<std::string, std::string> origin;

  // compact[to] = the first present of `keys`; throws naming keys[0] when required and absent.
  bool copy(const std::string& to, const std::vector<const char*>& keys, bool required) {
    for (const char* key : keys) {
      if (!present(hf, key)) continue;
      set(to, hf[key], key);
      return true;
    }
    if (required) throw Error("is missing", "", field + "." + keys.front());
    return false;
  }
  void set(const std::string& to, const Json& value, const std::string& key) {
    if (to.rfind("moe.", 0) == 0) compact["moe"][to.substr(4)] = value;
    else compact[to] = value;
    origin[to] = key;
  }
};

// hidden_act / activation_function: silu is SwiGLU in the gated (Llama-family) MLP.
std::string activation(const Json& hf, const char* key, const char* fallback, bool gated, const std::string& field) {
  std::string act = fallback;
  if (present(hf, key)) {
    if (!hf[key].is_string()) throw Error("must be a string", "", field + "." + key);
    act = hf[key].get<std::string>();
  }
  const bool gelu = act.rfind("gelu", 0) == 0;  // gelu, gelu_new, gelu_fast, gelu_pytorch_tanh, ...
  if (gated && (act == "silu" || act == "swish")) return "swiglu";
  if (gated && gelu) return "geglu";
  if (!gated && gelu) return "gelu";
  if (!gated && act == "relu") return "relu";
  throw Error("unsupported activation '" + act + "'" + (gated ? " in a gated MLP (silu, gelu)" : " (gelu, relu)"), "",
              field + "." + key);
}

}  // namespace

bool looks_like_hf_config(const Json& obj) {
  return obj.is_object() && (obj.contains("model_type") || obj.contains("architectures"));
}

TransformerConfig transformer_config_from_hf(const Json& hf, const std::string& field) {
  if (!hf.is_object()) throw Error("must be a config.json object", "", field);
  const Rules& rules = rules_for(hf, field);
  const Family family = rules.family;
  const bool gpt2 = family == Family::kGpt2, bert = family == Family::kBert, llama = family == Family::kLlama;
  Translation t(hf, field);

  const Json path = hf.value("_name_or_path", Json());
  if (path.is_string() && !path.get<std::string>().empty())
    t.compact["name"] = path;
  else if (present(hf, "architectures") && hf["architectures"].is_array() && !hf["architectures"].empty())
    t.compact["name"] = hf["architectures"][0];
  else
    t.compact["name"] = rules.model_type;

  // GPT-2 names its fields n_layer, n_embd, n_head, n_positions (transformers maps the others onto them).
  const auto names = [&](const char* name, const char* gpt2_name) {
    return gpt2 ? std::vector<const char*>{gpt2_name, name} : std::vector<const char*>{name, gpt2_name};
  };
  t.copy("layers", names("num_hidden_layers", "n_layer"), true);
  t.copy("hidden", names("hidden_size", "n_embd"), true);
  t.copy("heads", names("num_attention_heads", "n_head"), true);
  t.copy("vocab", {"vocab_size"}, true);
  if (llama) {
    t.copy("kv_heads", {"num_key_value_heads"}, false);
    t.copy("head_dim", {"head_dim"}, false);
  }
  // GPT-2's n_inner defaults to 4 x n_embd (also the compact config's default for GELU).
  if (gpt2) t.copy("ffn_hidden", {"n_inner"}, false);
  else t.copy("ffn_hidden", {"intermediate_size"}, true);
  // Learned position tables need their size; with RoPE it only bounds the context.
  if (t.copy("max_positions", names("max_position_embeddings", "n_positions"), !llama && family != Family::kNeox)) {
    const Json positions = t.compact["max_positions"];
    t.set("seq_len", positions, t.origin["max_positions"]);
  }

  t.compact["activation"] = gpt2 ? activation(hf, "activation_function", "gelu_new", false, field)
                                 : activation(hf, "hidden_act", llama ? "silu" : "gelu", llama, field);
  t.compact["norm"] = llama || present(hf, "rms_norm_eps") ? "rmsnorm" : "layernorm";
  t.compact["position"] = llama || family == Family::kNeox ? "rotary" : "learned";
  if (!t.copy("tied_embeddings", {"tie_word_embeddings"}, false)) t.compact["tied_embeddings"] = rules.tied;

  // Llama-family linear layers have no biases unless attention_bias / mlp_bias say so (the output
  // projection's bias of attention_bias is left out); GPT-2, GPT-NeoX and BERT have them all.
  const auto flag = [&](const char* key) { return present(hf, key) && hf[key].is_boolean() && hf[key].get<bool>(); };
  t.compact["bias"] = !llama || (flag("attention_bias") && flag("mlp_bias"));
  t.compact["qkv_bias"] = llama && (rules.qkv_bias || flag("attention_bias"));

  if (bert) {
    if (!t.copy("type_vocab", {"type_vocab_size"}, false)) t.compact["type_vocab"] = 2;
    t.compact["causal"] = false;
    t.compact["encoder_head"] = true;  // pooler and masked-LM head
  }
  const char* dropout = gpt2 ? "resid_pdrop" : bert ? "hidden_dropout_prob" : "hidden_dropout";
  if (!t.copy("dropout", {dropout}, false)) t.compact["dropout"] = gpt2 || bert ? 0.1 : 0.0;

  if (rules.moe) {
    t.copy("moe.experts", {"num_local_experts", "num_experts"}, true);
    if (!t.copy("moe.top_k", {"num_experts_per_tok"}, false)) t.compact["moe"]["top_k"] = 2;
    // Qwen3-MoE: the experts' own inner size, and an MoE MLP every decoder_sparse_step layers.
    t.copy("moe.ffn_hidden", {"moe_intermediate_size"}, false);
    t.copy("moe.every", {"decoder_sparse_step"}, false);
    if (present(hf, "mlp_only_layers") && !(hf["mlp_only_layers"].is_array() && hf["mlp_only_layers"].empty()))
      throw Error("must be empty: dense layers among the experts are not supported", "", field + ".mlp_only_layers");
  }

  try {
    return transformer_config_from_json(t.compact, field);
  } catch (const Error& e) {
    // Name the config.json key, not the compact one.
    const std::string prefix = field + ".";
    if (e.field().rfind(prefix, 0) == 0) {
      auto it = t.origin.find(e.field().substr(prefix.size()));
      if (it != t.origin.end()) throw Error(e.detail(), "", prefix + it->second);
    }
    throw;
  }
}

}  // namespace paleo
