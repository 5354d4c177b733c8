#pragma once
// Llama 3 8B's layer for tests: h 4096, 32 query heads and 8 key/value heads of 128, SwiGLU of
// 14336, RMSNorm, rotary positions, no biases.
#include "core/transformer/transformer_config.h"

inline paleo::TransformerConfig llama3_8b_layers(long layers) {
  paleo::TransformerConfig c;
  c.name = "llama3-8b-shape";
  c.layers = layers;
  c.hidden = 4096;
  c.heads = 32;
  c.kv_heads = 8;
  c.head_dim = 128;
  c.ffn_hidden = 14336;
  c.vocab = 128256;
  c.seq_len = 8192;
  c.activation = paleo::Activation::kSwiglu;
  c.norm = paleo::NormKind::kRmsNorm;
  c.position = paleo::PositionKind::kRotary;
  c.bias = false;
  c.tied_embeddings = false;
  c.causal = true;
  c.dropout = 0;
  return c;
}
