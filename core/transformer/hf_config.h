#pragma once
// A Hugging Face config.json read as it is (model types llama, mistral, qwen2, qwen3, mixtral,
// qwen3_moe, gpt2, gpt_neox, bert), with the defaults the transformers library applies to fields
// the file leaves out.
#include <string>

#include "core/base/json.h"
#include "core/transformer/transformer_config.h"

namespace paleo {

// True when `obj` looks like a config.json: it has "model_type" or "architectures".
bool looks_like_hf_config(const Json& obj);

// Throws paleo::Error naming `field`.<config.json key> for an unsupported model_type, a missing or
// bad field (e.g. "net.num_hidden_layers").
TransformerConfig transformer_config_from_hf(const Json& obj, const std::string& field);

}  // namespace paleo
