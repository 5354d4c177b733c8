#include "core/training_scheme/gradient_compression.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/base/error.h"

namespace paleo {
namespace {

double read_number(const std::string& text, const std::string& field, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw Error(what + ": '" + text + "' is not a number", "", field);
  return v;
}

std::int64_t read_whole(const std::string& text, const std::string& field, const std::string& what,
                        double lo, double hi) {
  const double v = read_number(text, field, what);
  if (v != std::floor(v) || v < lo || v > hi)
    throw Error(what + " must be a whole number in [" + std::to_string(static_cast<long long>(lo)) + ", " +
                    std::to_string(static_cast<long long>(hi)) + "]", "", field);
  return static_cast<std::int64_t>(v);
}

}  // namespace

double qsgd_bits_per_value(std::int64_t levels) {
  return std::ceil(std::log2(2.0 * static_cast<double>(levels) + 1.0));
}

Compression parse_compression(const std::string& text, const std::string& field) {
  Compression c;
  std::string parts[3];
  int n = 0;
  for (std::size_t start = 0;;) {
    const std::size_t colon = text.find(':', start);
    if (n == 3) throw Error("too many ':' parts in '" + text + "'", "", field);
    parts[n++] = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  const std::string& kind = parts[0];
  auto args = [&](int lo, int hi) {
    if (n - 1 < lo || n - 1 > hi)
      throw Error("'" + kind + "' takes " + std::to_string(lo) + (lo == hi ? "" : " or " + std::to_string(hi)) +
                      " ':' argument(s) (docs/training-schemes.md)", "", field);
  };
  if (kind == "none" || kind == "fp32" || kind == "fp16" || kind == "bf16" || kind == "onebit" || kind == "ternary" ||
      kind == "sfb") {
    args(0, 0);
    c.kind = kind == "none" ? CompressionKind::kNone : kind == "fp32" ? CompressionKind::kFp32
           : kind == "fp16" ? CompressionKind::kFp16 : kind == "bf16" ? CompressionKind::kBf16
           : kind == "onebit" ? CompressionKind::kOneBit : kind == "ternary" ? CompressionKind::kTernary
           : CompressionKind::kSufficientFactors;
  } else if (kind == "qsgd") {
    args(1, 2);
    c.kind = CompressionKind::kQsgd;
    c.levels = read_whole(parts[1], field, "QSGD's levels", 1, 1 << 20);
    if (n == 3) c.bucket = read_whole(parts[2], field, "QSGD's bucket", 1, 1e12);
  } else if (kind == "topk" || kind == "threshold") {
    args(1, 1);
    c.kind = kind == "topk" ? CompressionKind::kTopK : CompressionKind::kThreshold;
    c.density = read_number(parts[1], field, "the density");
    if (!(c.density > 0) || c.density > 1) throw Error("the density must be in (0, 1]", "", field);
  } else if (kind == "powersgd") {
    args(1, 1);
    c.kind = CompressionKind::kPowerSgd;
    c.rank = read_whole(parts[1], field, "PowerSGD's rank", 1, 1 << 20);
  } else {
    throw Error("unknown compression '" + text +
                    "' (none, fp32, fp16, bf16, onebit, ternary, qsgd:S, threshold:D, topk:D, powersgd:R, sfb)",
                "", field);
  }
  return c;
}

std::string compression_name(const Compression& c) {
  switch (c.kind) {
    case CompressionKind::kNone: return "none";
    case CompressionKind::kFp32: return "fp32";
    case CompressionKind::kFp16: return "fp16";
    case CompressionKind::kBf16: return "bf16";
    case CompressionKind::kOneBit: return "onebit";
    case CompressionKind::kTernary: return "ternary";
    case CompressionKind::kQsgd: return "qsgd:" + std::to_string(c.levels) + ":" + std::to_string(c.bucket);
    case CompressionKind::kThreshold: return "threshold";
    case CompressionKind::kTopK: return "topk";
    case CompressionKind::kPowerSgd: return "powersgd:" + std::to_string(c.rank);
    case CompressionKind::kSufficientFactors: return "sfb";
  }
  return "none";
}

CompressedTensor compress_gradient(const Compression& c, const GradientTensor& t, std::int64_t workers) {
  CompressedTensor out;
  const double n = t.values;
  const double m = static_cast<double>(workers);
  out.dense_bytes = n * kValueBytes;
  out.wire_bytes = out.dense_bytes;
  out.nonzeros = n;
  const double residual = n * kValueBytes;  // an error-feedback buffer: one gradient copy
  // Quantized values: read the gradient and the residual, write the residual and the message;
  // decoding reads every worker's message and writes the sum once.
  auto quantized = [&](double bits, double scales, bool error_feedback) {
    out.wire_bytes = std::ceil(n * bits / 8) + scales * kValueBytes;
    out.collective = WireCollective::kAllGather;
    out.encode_traffic_bytes = out.dense_bytes + out.wire_bytes + (error_feedback ? 2 * residual : 0);
    out.decode_traffic_bytes = m * out.wire_bytes + out.dense_bytes;
    out.extra_memory_bytes = error_feedback ? residual : 0;
  };
  switch (c.kind) {
    case CompressionKind::kNone:
    case CompressionKind::kFp32:
      break;
    case CompressionKind::kFp16:
    case CompressionKind::kBf16:
      out.wire_bytes = 2 * n;
      out.encode_traffic_bytes = out.dense_bytes + out.wire_bytes;
      out.decode_traffic_bytes = out.wire_bytes + out.dense_bytes;
      break;
    case CompressionKind::kOneBit:  // Seide et al. 2014: 1 bit and two reconstruction values per bucket
      quantized(1, 2 * std::ceil(n / static_cast<double>(c.bucket)), true);
      break;
    case CompressionKind::kTernary:  // TernGrad: 2 bits and one scale per bucket
      quantized(2, std::ceil(n / static_cast<double>(c.bucket)), false);
      break;
    case CompressionKind::kQsgd:  // Alistarh et al. 2017: one norm per bucket
      quantized(qsgd_bits_per_value(c.levels), std::ceil(n / static_cast<double>(c.bucket)), false);
      break;
    case CompressionKind::kThreshold:
    case CompressionKind::kTopK: {
      out.nonzeros = std::ceil(c.density * n);
      out.wire_bytes = out.nonzeros * (kValueBytes + kIndexBytes);
      out.collective = WireCollective::kSparseAllReduce;
      // Add the residual, select (top-k: one more pass to find the k-th largest), keep the rest.
      const double passes = c.kind == CompressionKind::kTopK ? 2 : 1;
      out.encode_traffic_bytes = passes * out.dense_bytes + 2 * residual + out.wire_bytes;
      out.decode_traffic_bytes = out.wire_bytes + out.dense_bytes;
      out.extra_memory_bytes = residual;
      break;
    }
    case CompressionKind::kPowerSgd: {  // Vogels et al. 2019: P = M Q, Q = M^T P, both all-reduced
      const double r = static_cast<double>(c.rank);
      if (t.rows > 1 && t.cols > 1 && r * (t.rows + t.cols) < n) {
        out.wire_bytes = r * (t.rows + t.cols) * kValueBytes;
        out.codec_flops = 2 * 2 * t.rows * t.cols * r + 2 * t.rows * r * r + 2 * t.rows * t.cols * r;
        out.encode_traffic_bytes = 2 * out.dense_bytes + 2 * residual;
        out.decode_traffic_bytes = out.dense_bytes;
        out.extra_memory_bytes = residual + t.cols * r * kValueBytes;  // residual and the warm-started Q
      }
      break;
    }
    case CompressionKind::kSufficientFactors:  // Xie et al. 2016: u (rows x N) and v (cols x N) broadcast
      if (t.fully_connected && t.batch > 0 && t.batch * (t.rows + t.cols) < n) {
        out.wire_bytes = t.batch * (t.rows + t.cols) * kValueBytes;
        out.collective = WireCollective::kAllGather;
        out.codec_flops = 2 * (m - 1) * t.batch * t.rows * t.cols;  // the other workers' outer products
        out.decode_traffic_bytes = m * out.wire_bytes + out.dense_bytes;
      }
      break;
  }
  return out;
}

}  // namespace paleo
