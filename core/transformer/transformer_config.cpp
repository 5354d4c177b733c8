#include "core/transformer/transformer_config.h"

#include <algorithm>
#include <vector>

#include "core/base/error.h"

namespace paleo {
namespace {

const std::vector<std::string>& known_fields() {
  static const std::vector<std::string> fields = {
      "name", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden", "vocab", "seq_len",
      "max_positions", "type_vocab", "activation", "norm", "position", "tied_embeddings", "bias", "qkv_bias",
      "causal", "encoder_head", "dropout", "moe"};
  return fields;
}

std::int64_t read_integer(const Json& obj, const std::string& key, const std::string& field, std::int64_t low, std::int64_t high) {
  if (!obj.contains(key)) throw Error("is missing", "", field + "." + key);
  Dim v = read_dim(obj[key], field + "." + key, "");
  if (v < low || v > high)
    throw Error("must be an integer from " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                    echo(obj[key]), "", field + "." + key);
  return static_cast<std::int64_t>(v);
}

std::int64_t optional_integer(const Json& obj, const std::string& key, const std::string& field, std::int64_t low, std::int64_t high,
                   std::int64_t fallback) {
  return obj.contains(key) && !obj[key].is_null() ? read_integer(obj, key, field, low, high) : fallback;
}

bool optional_bool(const Json& obj, const std::string& key, const std::string& field, bool fallback) {
  if (!obj.contains(key) || obj[key].is_null()) return fallback;
  if (!obj[key].is_boolean()) throw Error("must be true or false, got " + echo(obj[key]), "", field + "." + key);
  return obj[key].get<bool>();
}

std::string optional_string(const Json& obj, const std::string& key, const std::string& field,
                            const std::string& fallback) {
  if (!obj.contains(key) || obj[key].is_null()) return fallback;
  if (!obj[key].is_string()) throw Error("must be a string, got " + echo(obj[key]), "", field + "." + key);
  return obj[key].get<std::string>();
}

Activation parse_activation(const std::string& s, const std::string& field) {
  if (s == "gelu") return Activation::kGelu;
  if (s == "relu") return Activation::kRelu;
  if (s == "swiglu" || s == "silu_glu") return Activation::kSwiglu;
  if (s == "geglu") return Activation::kGeglu;
  throw Error("unknown activation '" + s + "' (known: gelu, relu, swiglu, geglu)", "", field);
}

NormKind parse_norm(const std::string& s, const std::string& field) {
  if (s == "layernorm") return NormKind::kLayerNorm;
  if (s == "rmsnorm") return NormKind::kRmsNorm;
  throw Error("unknown norm '" + s + "' (known: layernorm, rmsnorm)", "", field);
}

PositionKind parse_position(const std::string& s, const std::string& field) {
  if (s == "learned") return PositionKind::kLearned;
  if (s == "rotary") return PositionKind::kRotary;
  if (s == "none") return PositionKind::kNone;
  throw Error("unknown position encoding '" + s + "' (known: learned, rotary, none)", "", field);
}

MoeConfig parse_moe(const Json& m, const std::string& field) {
  if (!m.is_object()) throw Error("must be an object {experts, top_k, ffn_hidden, every, shared_experts}", "", field);
  for (auto it = m.begin(); it != m.end(); ++it)
    if (it.key() != "experts" && it.key() != "top_k" && it.key() != "ffn_hidden" && it.key() != "every" &&
        it.key() != "shared_experts")
      throw Error("unknown field '" + it.key() + "'", "", field);
  MoeConfig moe;
  moe.experts = read_integer(m, "experts", field, 1, 65536);
  moe.top_k = optional_integer(m, "top_k", field, 1, moe.experts, std::min(std::int64_t{2}, moe.experts));
  moe.ffn_hidden = optional_integer(m, "ffn_hidden", field, 1, 10000000, 0);
  moe.every = optional_integer(m, "every", field, 1, 1000, 1);
  moe.shared_experts = optional_integer(m, "shared_experts", field, 0, 64, 0);
  return moe;
}

}  // namespace

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::kGelu: return "gelu";
    case Activation::kRelu: return "relu";
    case Activation::kSwiglu: return "swiglu";
    case Activation::kGeglu: return "geglu";
  }
  return "gelu";
}

const char* norm_name(NormKind n) { return n == NormKind::kRmsNorm ? "rmsnorm" : "layernorm"; }

const char* position_name(PositionKind p) {
  return p == PositionKind::kRotary ? "rotary" : p == PositionKind::kNone ? "none" : "learned";
}

TransformerConfig transformer_config_from_json(const Json& obj, const std::string& field) {
  if (!obj.is_object()) throw Error("must be an object with layers, hidden, heads, vocab, ...", "", field);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const auto& known = known_fields();
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      throw Error("unknown transformer field (see docs/transformer.md)", "", field + "." + it.key());
  }
  TransformerConfig c;
  c.name = optional_string(obj, "name", field, "transformer");
  c.layers = read_integer(obj, "layers", field, 1, 100000);
  c.hidden = read_integer(obj, "hidden", field, 1, 1000000);
  c.heads = read_integer(obj, "heads", field, 1, 100000);
  c.kv_heads = optional_integer(obj, "kv_heads", field, 1, c.heads, c.heads);
  if (c.heads % c.kv_heads != 0)
    throw Error("must divide heads (" + std::to_string(c.heads) + ")", "", field + ".kv_heads");
  if (!obj.contains("head_dim") && c.hidden % c.heads != 0)
    throw Error("hidden (" + std::to_string(c.hidden) + ") is not a multiple of heads; give head_dim", "",
                field + ".heads");
  c.head_dim = optional_integer(obj, "head_dim", field, 1, 1000000, c.hidden / c.heads);
  c.activation = parse_activation(optional_string(obj, "activation", field, "gelu"), field + ".activation");
  const std::int64_t default_ffn = c.gated() ? (8 * c.hidden / 3 + 255) / 256 * 256 : 4 * c.hidden;
  c.ffn_hidden = optional_integer(obj, "ffn_hidden", field, 1, 100000000, default_ffn);
  c.vocab = read_integer(obj, "vocab", field, 1, 100000000);
  c.seq_len = optional_integer(obj, "seq_len", field, 1, 100000000, 2048);
  c.max_positions = optional_integer(obj, "max_positions", field, 1, 100000000, 0);
  c.type_vocab = optional_integer(obj, "type_vocab", field, 0, 1000000, 0);
  c.norm = parse_norm(optional_string(obj, "norm", field, "layernorm"), field + ".norm");
  c.position = parse_position(optional_string(obj, "position", field, "learned"), field + ".position");
  c.tied_embeddings = optional_bool(obj, "tied_embeddings", field, true);
  c.bias = optional_bool(obj, "bias", field, true);
  c.qkv_bias = optional_bool(obj, "qkv_bias", field, false);
  c.causal = optional_bool(obj, "causal", field, true);
  c.encoder_head = optional_bool(obj, "encoder_head", field, false);
  if (obj.contains("dropout") && !obj["dropout"].is_null()) {
    if (!obj["dropout"].is_number())
      throw Error("must be a number, got " + echo(obj["dropout"]), "", field + ".dropout");
    c.dropout = obj["dropout"].get<double>();
    if (!(c.dropout >= 0 && c.dropout < 1)) throw Error("must be in [0, 1)", "", field + ".dropout");
  }
  if (obj.contains("moe") && !obj["moe"].is_null()) c.moe = parse_moe(obj["moe"], field + ".moe");
  return c;
}

Json transformer_config_json(const TransformerConfig& c) {
  Json j = {{"name", c.name}, {"layers", c.layers}, {"hidden", c.hidden}, {"heads", c.heads},
            {"kv_heads", c.kv_heads}, {"head_dim", c.head_dim}, {"ffn_hidden", c.ffn_hidden}, {"vocab", c.vocab},
            {"seq_len", c.seq_len}, {"activation", activation_name(c.activation)}, {"norm", norm_name(c.norm)},
            {"position", position_name(c.position)}, {"tied_embeddings", c.tied_embeddings}, {"bias", c.bias},
            {"qkv_bias", c.qkv_bias}, {"causal", c.causal}, {"dropout", c.dropout}};
  if (c.max_positions) j["max_positions"] = c.max_positions;
  if (c.type_vocab) j["type_vocab"] = c.type_vocab;
  if (c.encoder_head) j["encoder_head"] = true;
  if (c.moe.enabled())
    j["moe"] = {{"experts", c.moe.experts}, {"top_k", c.moe.top_k}, {"ffn_hidden", c.expert_ffn()},
                {"every", c.moe.every}, {"shared_experts", c.moe.shared_experts}};
  return j;
}

ParameterCount parameter_count(const TransformerConfig& c) {
  ParameterCount p;
  const double h = static_cast<double>(c.hidden);
  const double q = static_cast<double>(c.q_size()), kv = static_cast<double>(c.kv_size());
  const double norm = c.norm == NormKind::kLayerNorm ? 2 * h : h;  // LayerNorm has a bias
  p.embedding = static_cast<double>(c.vocab) * h;
  if (c.position == PositionKind::kLearned)
    p.embedding += static_cast<double>(c.max_positions ? c.max_positions : c.seq_len) * h;
  p.embedding += static_cast<double>(c.type_vocab) * h;
  if (c.type_vocab) p.embedding += norm;  // BERT normalises the embeddings
  p.per_layer_attention = h * (q + 2 * kv) + q * h;
  if (c.bias) p.per_layer_attention += q + 2 * kv + h;
  else if (c.qkv_bias) p.per_layer_attention += q + 2 * kv;
  p.per_layer_norms = 2 * norm;
  auto mlp = [&](double f) {
    double w = (c.gated() ? 3 : 2) * h * f;
    if (c.bias) w += (c.gated() ? 2 : 1) * f + h;
    return w;
  };
  p.dense_mlp = mlp(static_cast<double>(c.ffn_hidden));
  if (c.moe.enabled()) {
    const double expert = mlp(static_cast<double>(c.expert_ffn()));
    p.moe_mlp = static_cast<double>(c.moe.experts + c.moe.shared_experts) * expert + h * static_cast<double>(c.moe.experts);
  }
  const double moe_layers = static_cast<double>(c.moe_layer_count());
  const double dense_layers = static_cast<double>(c.layers) - moe_layers;
  p.layers_total = static_cast<double>(c.layers) * (p.per_layer_attention + p.per_layer_norms) +
                   dense_layers * p.dense_mlp + moe_layers * p.moe_mlp;
  p.final_norm = c.type_vocab && !c.causal ? 0 : norm;  // BERT normalises after each layer, not at the end
  if (!c.tied_embeddings) p.head = static_cast<double>(c.vocab) * h;
  if (c.encoder_head) p.head += (h * h + h) + (h * h + h + norm) + static_cast<double>(c.vocab);  // pooler, MLM transform + bias
  p.total = p.embedding + p.layers_total + p.final_norm + p.head;
  double active_moe = 0;
  if (c.moe.enabled())
    active_moe = static_cast<double>(c.moe.top_k + c.moe.shared_experts) * mlp(static_cast<double>(c.expert_ffn())) +
                 h * static_cast<double>(c.moe.experts);
  p.active_total = p.total - moe_layers * (p.moe_mlp - active_moe);
  return p;
}

}  // namespace paleo
