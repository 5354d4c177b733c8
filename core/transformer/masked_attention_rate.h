#pragma once
// TensorRT-LLM's masked multi-head attention before v0.8 (decode_attention "per_query_head"):
// a thread block per query head, each streaming its key/value head's cache, so a group of g query
// heads reads the cache g times a step. The repeated reads are not all paid from DRAM: the
// blocks of one group are neighbours in blockIdx.x and run together. What its published steps
// leave room for agrees across generations in cache elements per SM cycle (about 10 on the A100
// with an FP16 cache, 13 to 14 on the H100 with an fp8 one), not in bytes: an fp8 cache does not
// halve the kernel's work per element ("The size of the LDGs is always 16bytes (8 bytes for 8bit
// cache)", the kernel's header). So the g reads are priced at a rate of the SMs, bounded below by
// one read of the cache from DRAM (docs/serving.md, "Decode attention per query head").
#include "core/hardware/device.h"

namespace paleo {

// Cache elements (one key or value scalar for one query head) the kernel consumes per SM per
// cycle: fitted to the per-query-head rows of TensorRT-LLM v0.5 and v0.6.1 (A100, H100, H200;
// docs/validation.md, "The masked attention's rate per SM cycle"), again whenever the training
// eras whose kernels those rows take are refitted, or their memory rate moves (12.5 until 0.3.22;
// 13.0 again in 0.3.23, serving on Hopper at the device's measured streaming rate).
inline constexpr double kMaskedAttentionElementsPerSmCycle = 13.0;

// The time the kernel's SMs take for `elements` cache elements on `device`; 0 when the device
// states no SM count or clock (the caller then prices the reads from DRAM).
double masked_attention_sm_ms(const Device& device, double elements);

}  // namespace paleo
