#pragma once
// Gradient compression (Ben-Nun & Hoefler's survey, sections 6.3.1-6.3.3 and Table 8's
// quantization and sparsification rows; features Q1-Q4, Q8, Q9, Q11 of docs/training-schemes.md):
// what one layer's gradient becomes on the wire under each scheme: its bytes, the memory traffic
// and FLOPs to encode and decode it, the extra memory it keeps (error-feedback residuals), and
// the collective that can carry it (quantized values cannot be summed on the way, so they are
// all-gathered; sparse ones go through a sparse all-reduce).
#include <cstdint>
#include <string>

namespace paleo {

enum class CompressionKind {
  kNone, kFp32, kFp16, kBf16, kOneBit, kTernary, kQsgd, kThreshold, kTopK, kPowerSgd, kSufficientFactors
};

// How a compressed gradient travels.
enum class WireCollective { kAllReduce, kAllGather, kSparseAllReduce };

struct Compression {
  CompressionKind kind = CompressionKind::kNone;
  double density = 1;           // threshold / top-k: fraction of values sent
  std::int64_t levels = 0;      // QSGD: s quantization levels
  std::int64_t bucket = 512;    // 1-bit, ternary, QSGD: values per fp32 scale (or norm)
  std::int64_t rank = 0;        // PowerSGD: r
};

// "none", "fp32", "fp16", "bf16", "onebit", "ternary", "qsgd:S" or "qsgd:S:BUCKET",
// "threshold:DENSITY", "topk:DENSITY", "powersgd:RANK", "sfb". Throws paleo::Error naming `field`.
Compression parse_compression(const std::string& text, const std::string& field);
std::string compression_name(const Compression& c);

// One layer's gradient: `values` numbers, seen as a rows x cols matrix (rows = output channels);
// a fully-connected layer also gives its batch (Sufficient factors: u is rows x batch, v cols x batch).
struct GradientTensor {
  double values = 0;
  double rows = 1, cols = 1;
  bool fully_connected = false;
  double batch = 0;
};

struct CompressedTensor {
  double dense_bytes = 0;        // the uncompressed gradient (4-byte values)
  double wire_bytes = 0;         // what one worker contributes to the collective
  double nonzeros = 0;           // sparse schemes: values sent (their indices ride along)
  WireCollective collective = WireCollective::kAllReduce;
  double encode_traffic_bytes = 0;  // memory traffic to encode (read, residual update, write)
  double decode_traffic_bytes = 0;  // to decode what `workers` workers sent and sum it
  double codec_flops = 0;           // PowerSGD's products, SFB's outer products
  double extra_memory_bytes = 0;    // error-feedback residual
};

constexpr double kValueBytes = 4;  // fp32 gradient values
constexpr double kIndexBytes = 4;  // 32-bit indices of sparse values

// Bits per value of QSGD with s levels: sign and level of {0, 1/s, ..., 1}, packed:
// ceil(log2(2s + 1)) (the survey's Q4 estimate log2(2s + 1), rounded up to whole bits).
double qsgd_bits_per_value(std::int64_t levels);

// The tensor compressed for `workers` workers.
CompressedTensor compress_gradient(const Compression& c, const GradientTensor& t, std::int64_t workers);

}  // namespace paleo
