#include "core/transformer/inference_step.h"

#include <algorithm>
#include <cmath>

#include "core/cluster/cluster_step.h"
#include "core/base/error.h"
#include "core/efficiency/cuda_graph_launch.h"
#include "core/transformer/layer_communication.h"
#include "core/transformer/masked_attention_rate.h"
#include "core/transformer/op_timing.h"
#include "core/transformer/stage_plan.h"

namespace paleo {
namespace {

TrainingOptions as_training(const InferenceOptions& o, std::int64_t seq_len, std::int64_t tp) {
  TrainingOptions t;
  t.parallel.tp = tp;
  t.precision = o.precision;
  t.seq_len = seq_len;
  t.micro_batch = o.batch;
  t.global_batch = o.batch;
  t.attention = o.attention;
  return t;
}

double forward_ms(const std::vector<TransformerOp>& ops, const Device& d, const KernelEfficiency& e,
                  const PrecisionPolicy& t) {
  double ms = 0;
  for (const TransformerOp& op : ops) ms += op_time(op, d, e, t).fwd_ms;
  return ms;
}

}  // namespace

DecodeAttention parse_decode_attention(const std::string& s, const std::string& field) {
  if (s == "per_kv_head") return DecodeAttention::kPerKvHead;
  if (s == "per_query_head") return DecodeAttention::kPerQueryHead;
  throw Error("must be \"per_kv_head\" or \"per_query_head\", got \"" + s + "\"", "", field);
}

const char* decode_attention_name(DecodeAttention a) {
  return a == DecodeAttention::kPerQueryHead ? "per_query_head" : "per_kv_head";
}

double expected_experts_touched(double experts, double top_k, double tokens, double skew) {
  if (experts <= 0 || top_k <= 0 || tokens <= 0) return 0;
  if (skew <= 0) return experts * (1 - std::pow(1 - std::min(top_k, experts) / experts, tokens));
  const int n = static_cast<int>(std::lround(experts));
  double norm = 0;
  for (int i = 1; i <= n; ++i) norm += std::pow(i, -skew);
  double touched = 0;
  for (int i = 1; i <= n; ++i) {
    const double q = std::min(1.0, std::min(top_k, experts) * std::pow(i, -skew) / norm);
    touched += 1 - std::pow(1 - q, tokens);
  }
  return touched;
}

InferenceEstimate estimate_inference(const TransformerConfig& c, const InferenceOptions& o, const Device& device,
                                     const Cluster& cluster) {
  if (c.heads % o.tp != 0 || (c.kv_heads % o.tp != 0 && o.tp % c.kv_heads != 0))
    throw Error("tensor parallelism " + std::to_string(o.tp) + " does not divide the heads", "", "tp");
  if (static_cast<double>(cluster.devices()) < static_cast<double>(o.tp))
    throw Error("tp " + std::to_string(o.tp) + " is more than the cluster's " + std::to_string(cluster.devices()) +
                    " devices", "", "tp");
  InferenceEstimate est;
  const KernelEfficiency& eff = o.efficiency;
  const PrecisionPolicy& t = o.precision;
  const Dtype kv_dtype = o.kv_cache ? *o.kv_cache : o.precision.activations;
  const double ab = dtype_bytes(kv_dtype);
  LayoutGroups groups = layout_groups(cluster, ParallelLayout{o.tp, 1, 1, 1, 1, 1, false});
  const CollectiveSettings settings = collective_settings(device, 1);
  const double layers = static_cast<double>(c.layers);

  // Prefill: the layers over the whole prompt, the head over the last token of each sequence.
  const OpContext prompt = op_context(c, as_training(o, o.prompt_len, o.tp));
  const ModelOps prompt_ops = model_ops(c, prompt);
  const OpContext last = op_context(c, as_training(o, 1, o.tp));
  const ModelOps last_ops = model_ops(c, last);
  const LayerCommunication prompt_comm = layer_communication(c, prompt, groups, settings, OverlapWindows{});
  const LayerCommunication token_comm = layer_communication(c, last, groups, settings, OverlapWindows{});
  const double dense = layers - static_cast<double>(c.moe_layer_count());
  const double moe = static_cast<double>(c.moe_layer_count());
  auto prefill_at = [&](const KernelEfficiency& e) {
    return dense * forward_ms(prompt_ops.dense_layer, device, e, t) +
           moe * forward_ms(prompt_ops.moe_layer, device, e, t) + forward_ms(prompt_ops.embedding, device, e, t) +
           forward_ms(last_ops.head, device, e, t) + layers * prompt_comm.tp_layer.fwd_ms +
           prompt_comm.embedding.fwd_ms + token_comm.head.fwd_ms;
  };

  // Decode: one token per sequence; the attention reads the KV cache at the mean length.
  const double mean_kv = static_cast<double>(o.prompt_len) + static_cast<double>(o.generate_len) / 2;
  const double kv_per_device = std::max(static_cast<double>(c.kv_size()) / static_cast<double>(o.tp),
                                        static_cast<double>(c.head_dim));
  auto decode_layer = [&](const std::vector<TransformerOp>& ops, const KernelEfficiency& decode_eff) {
    double ms = 0;
    for (const TransformerOp& op : ops) {
      if (op.moe && op.op_class == OpClass::kMatmul) {
        // The routed tokens go to the experts they touch: those experts' weights are read.
        TransformerOp touched = op;
        touched.batches = std::max(1.0, expected_experts_touched(op.batches, static_cast<double>(c.moe.top_k),
                                                                 static_cast<double>(o.batch), o.moe_routing_skew));
        touched.m = op.m * op.batches / touched.batches;
        ms += op_time(touched, device, decode_eff, t).fwd_ms;
        continue;
      }
      if (op.op_class != OpClass::kAttention) {
        ms += op_time(op, device, decode_eff, t).fwd_ms;
        continue;
      }
      // Each key/value head serves its group of query heads: per (sequence, kv head) a
      // (group x d) by (d x L) product reading K and a (group x L) by (L x d) one reading V.
      // Decode kernels (FlashDecoding, TensorRT-LLM's XQA) stream the cache once, split along L: at a few queries per
      // head they are bound by the cache's bytes, not tiled like a matrix product (no padding of the group to a tile).
      const double group = static_cast<double>(c.heads) / static_cast<double>(c.kv_heads);
      const double kv_heads = kv_per_device / static_cast<double>(c.head_dim);
      const double batches = static_cast<double>(o.batch) * kv_heads;
      // An fp8 cache is read in fp8 (dequantized in the kernel): the bytes follow the cache.
      const Dtype core = o.kv_cache ? kv_dtype : op_compute_dtype(op, t);
      // The masked multi-head attention of TensorRT-LLM before XQA runs a thread block per query
      // head ("unsigned const hi{blockIdx.x};" ... "unsigned const hi_kv{(hi / qhead_per_kv)};",
      // decoderMaskedMultiheadAttentionTemplate.h), each streaming its key/value head's cache:
      // the group's query heads read it group times. XQA replaced it for MQA and GQA from v0.8,
      // "reducing data loading and conversion" (TensorRT-LLM, docs/source/blogs/XQA-kernel.md).
      // Its repeated reads run at the rate of the SMs, no faster than one read from DRAM
      // (masked_attention_rate.h); a device without an SM count pays all of them from DRAM.
      const double cache_elements = 2 * mean_kv * op.k * batches;
      double cache_ms = memory_ms(device, decode_eff, cache_elements * dtype_bytes(kv_dtype));
      if (o.decode_attention == DecodeAttention::kPerQueryHead) {
        const double sm_ms = masked_attention_sm_ms(device, group * cache_elements);
        cache_ms = sm_ms > 0 ? std::max(cache_ms, sm_ms) : group * cache_ms;
      }
      const double flops = 4 * group * mean_kv * op.k * batches;
      const double peak_gflops =
          era_matmul_peak_gflops(device, decode_eff, core, group, mean_kv, op.k) * decode_eff.matmul_ceiling;
      ms += std::max(cache_ms, flops / (peak_gflops * 1e9) * 1e3) + decode_eff.kernel_overhead_ms;
    }
    return ms;
  };
  est.tp_comm_per_token_ms = layers * token_comm.tp_layer.fwd_ms + token_comm.embedding.fwd_ms + token_comm.head.fwd_ms;
  auto decode_at = [&](const KernelEfficiency& e) {
    return dense * decode_layer(last_ops.dense_layer, e) + moe * decode_layer(last_ops.moe_layer, e) +
           forward_ms(last_ops.embedding, device, e, t) + forward_ms(last_ops.head, device, e, t) +
           est.tp_comm_per_token_ms;
  };

  // A step replayed from a CUDA graph pays the device's launch time per kernel (the prefill is not
  // captured). A compiled engine's step is the longer of its host's issue and its device's run:
  // the op times are linear in the per-kernel time, so pricing the step at none and at 1 ms a
  // kernel gives its work and its kernel count.
  auto with_overhead = [&](double ms) {
    KernelEfficiency e = eff;
    e.kernel_overhead_ms = ms;
    return e;
  };
  auto engine_ms = [&](const auto& step_at) {
    const double work = step_at(with_overhead(0));
    return engine_step_ms({work, step_at(with_overhead(1)) - work}, eff.kernel_overhead_ms);
  };
  const bool engine = o.kernel_issue == KernelIssue::kEngine;
  est.prefill_ms = engine ? engine_ms(prefill_at) : prefill_at(eff);
  if (o.cuda_graph_decode)
    est.decode_ms_per_token = decode_at(with_overhead(kCudaGraphKernelMs));
  else
    est.decode_ms_per_token = engine ? engine_ms(decode_at) : decode_at(eff);
  est.total_ms = est.prefill_ms + static_cast<double>(o.generate_len) * est.decode_ms_per_token;
  est.decode_tokens_per_s = static_cast<double>(o.batch) / est.decode_ms_per_token * 1e3;

  // Memory: the weights, the cache at its full length, and the prefill's largest activation.
  const double outer = ops_params(prompt_ops.embedding) + ops_params(prompt_ops.head);
  const double inner = dense * ops_params(prompt_ops.dense_layer) + moe * ops_params(prompt_ops.moe_layer);
  const double layer_weight_bytes = o.precision.fp8 ? dtype_bytes(o.precision.compute) : dtype_bytes(o.precision.params);
  est.weights_bytes = outer * dtype_bytes(o.precision.params) + inner * layer_weight_bytes;
  est.kv_bytes_per_token = 2 * layers * kv_per_device * ab;
  est.kv_cache_bytes = est.kv_bytes_per_token * static_cast<double>(o.batch) *
                       static_cast<double>(o.prompt_len + o.generate_len);
  double transient = 0;
  for (const TransformerOp& op : prompt_ops.dense_layer) transient = std::max(transient, op.saved_bytes);
  est.activation_peak_bytes = 2 * transient;
  est.memory_per_device_bytes = est.weights_bytes + est.kv_cache_bytes + est.activation_peak_bytes;
  est.capacity_bytes = device.memory_bytes;
  est.fits = device.memory_bytes <= 0 || est.memory_per_device_bytes <= device.memory_bytes;
  if (!est.fits) est.warnings.push_back("does not fit: weights and KV cache exceed the device memory");
  return est;
}

}  // namespace paleo
