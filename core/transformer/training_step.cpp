#include "core/transformer/training_step.h"

#include <algorithm>

#include "core/cluster/cluster_step.h"
#include "core/base/error.h"
#include "core/cluster/pipeline.h"
#include "core/precision/device_peak.h"
#include "core/transformer/layer_communication.h"
#include "core/transformer/layout_check.h"
#include "core/transformer/op_timing.h"
#include "core/transformer/step_flops.h"
#include "core/transformer/zero3_exposure.h"

namespace paleo {
namespace {

struct OpsTime {
  double fwd_ms = 0, bwd_ms = 0;
  double recompute_ms = 0;          // forward work redone in the backward pass
  CommTimes attention;              // the attention core (what ring attention hides behind)
  CommTimes linear;                 // the linear layers' GEMMs (what overlapped TP hides behind)
};

// A linear layer whose TP communication is overlapped runs its forward GEMM as `pieces` GEMMs
// of 1/pieces of the tokens each, one per piece of the all-gather or reduce-scatter (Transformer
// Engine's ring-exchange and pipelined overlaps); its backward GEMMs run whole beside the
// collectives (the bulk overlaps).
OpTime layer_op_time(const TransformerOp& op, const Device& d, const KernelEfficiency& e, const PrecisionPolicy& t,
                     std::int64_t pieces) {
  OpTime time = op_time(op, d, e, t);
  if (pieces <= 1 || op.op_class != OpClass::kMatmul) return time;
  TransformerOp piece = op;  // the same FLOPs and bytes, as `pieces` products of m / pieces rows
  piece.m /= static_cast<double>(pieces);
  piece.batches *= static_cast<double>(pieces);
  piece.fwd_kernels = static_cast<double>(pieces);
  time.fwd_ms = op_time(piece, d, e, t).fwd_ms;
  return time;
}

// `pieces`: the TP degree when the layer's TP communication is overlapped with its GEMMs, else 1.
OpsTime time_ops(const std::vector<TransformerOp>& ops, const Device& d, const KernelEfficiency& e,
                 const PrecisionPolicy& t, Recompute r, bool is_layer, std::int64_t pieces = 1) {
  OpsTime out;
  for (const TransformerOp& op : ops) {
    const OpTime ot = layer_op_time(op, d, e, t, is_layer ? pieces : 1);
    out.fwd_ms += ot.fwd_ms;
    out.bwd_ms += ot.bwd_ms;
    if (op.attention_core) {
      out.attention.fwd_ms += ot.fwd_ms;
      out.attention.bwd_ms += ot.bwd_ms;
    }
    if (op.op_class == OpClass::kMatmul) {
      out.linear.fwd_ms += ot.fwd_ms;
      out.linear.bwd_ms += ot.bwd_ms;
    }
    if (is_layer) out.recompute_ms += recompute_share(op, r) * ot.fwd_ms;
  }
  return out;
}

void add_rows(std::vector<OpRow>& rows, const std::vector<TransformerOp>& ops, double count, const Device& d,
              const KernelEfficiency& e, const PrecisionPolicy& t, std::int64_t pieces = 1) {
  if (count <= 0) return;
  for (const TransformerOp& op : ops) {
    const OpTime ot = layer_op_time(op, d, e, t, pieces);
    OpRow r;
    r.name = op.name;
    r.type = op.type;
    r.count = count;
    r.fwd_ms = ot.fwd_ms;
    r.bwd_ms = ot.bwd_ms;
    r.fwd_flops = op.fwd_flops();
    r.bwd_flops = op.bwd_flops();
    r.params = op.params;
    r.saved_bytes = op.saved_bytes;
    if (op.op_class != OpClass::kMemory) {
      r.m = op.m;
      r.n = op.n;
      r.k = op.k;
    }
    rows.push_back(r);
  }
}

}  // namespace

TransformerMemory estimate_training_memory(const TransformerConfig& c, const TrainingOptions& o, double capacity_bytes) {
  const OpContext x = op_context(c, o);
  const ModelOps ops = model_ops(c, x);
  return training_memory(c, o, ops, x, stage_plans(c, o.parallel, ops), capacity_bytes);
}

TrainingEstimate estimate_training(const TransformerConfig& c, const TrainingOptions& o, const Device& device,
                                   const Cluster& cluster, bool detailed) {
  check_training_layout(c, o, cluster.devices());
  TrainingEstimate est;
  est.model = c;
  est.options = o;
  est.parameters = parameter_count(c);
  est.devices = cluster.devices();
  const ParallelLayout& p = o.parallel;
  const std::int64_t m = o.micro_batches();
  est.micro_batches = m;

  const OpContext x = op_context(c, o);
  const ModelOps ops = model_ops(c, x);
  const std::vector<StagePlan> stages = stage_plans(c, p, ops);
  const KernelEfficiency& eff = o.efficiency;
  const PrecisionPolicy& t = o.precision;

  const bool tp_overlap = o.tp_comm_overlap != TpCommOverlap::kNone && x.sequence_parallel && p.tp > 1;
  const std::int64_t pieces = tp_overlap ? p.tp : 1;
  const OpsTime dense = time_ops(ops.dense_layer, device, eff, t, o.recompute, true, pieces);
  const OpsTime moe = time_ops(ops.moe_layer, device, eff, t, o.recompute, true, pieces);
  const OpsTime embedding = time_ops(ops.embedding, device, eff, t, o.recompute, false);
  const OpsTime head = time_ops(ops.head, device, eff, t, o.recompute, false);

  const LayoutGroups groups = layout_groups(cluster, p);
  CollectiveSettings settings = collective_settings(device, 1);
  settings.library = o.collective_library;
  OverlapWindows windows;
  windows.attention = dense.attention;
  if (tp_overlap) {
    windows.tp_gemms.fwd_ms = dense.linear.fwd_ms;
    if (o.tp_comm_overlap == TpCommOverlap::kForwardBackward) windows.tp_gemms.bwd_ms = dense.linear.bwd_ms;
  }
  const LayerCommunication comm = layer_communication(c, x, groups, settings, windows);
  const bool full = o.recompute == Recompute::kFull;

  // Pipeline sends: one micro-batch's activations per chunk boundary, each way.
  double p2p_ms = 0;
  if (p.pp > 1) {
    double bytes = comm.tp_message_bytes;
    if (o.pp_scatter_gather && p.tp > 1) bytes /= static_cast<double>(p.tp);
    const Link& link = groups.pp.crosses_nodes() ? groups.pp.cluster.inter : groups.pp.cluster.intra;
    p2p_ms = link.alpha_ms() + bytes * link.ms_per_byte();
  }

  // Forward and backward of one micro-batch on each stage.
  struct StageTime {
    double fwd = 0, bwd = 0, compute = 0, recompute = 0, tp = 0, cp = 0, ep = 0, pp = 0, zero3 = 0;
    double zero3_per_step = 0;  // ZeRO-3 under a pipeline with the weights kept: once a step
  };
  std::vector<StageTime> st(stages.size());
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const StagePlan& s = stages[i];
    StageTime& a = st[i];
    const double dense_layers = static_cast<double>(s.layers - s.moe_layers), moe_layers = static_cast<double>(s.moe_layers);
    const double layers = static_cast<double>(s.layers);
    double fwd_compute = dense_layers * dense.fwd_ms + moe_layers * moe.fwd_ms;
    double bwd_compute = dense_layers * dense.bwd_ms + moe_layers * moe.bwd_ms;
    a.recompute = dense_layers * dense.recompute_ms + moe_layers * moe.recompute_ms;
    const auto tp_ms = [&](const CommTimes& per_layer) {
      return per_layer.fwd_ms + per_layer.bwd_ms + (full ? per_layer.fwd_ms : 0);
    };
    a.tp = dense_layers * tp_ms(comm.tp_layer) + moe_layers * tp_ms(comm.tp_moe_layer);
    a.cp = layers * (comm.cp_layer.fwd_ms + comm.cp_layer.bwd_ms);
    a.ep = moe_layers * (comm.ep_moe_layer.fwd_ms + comm.ep_moe_layer.bwd_ms + (full ? comm.ep_moe_layer.fwd_ms : 0));
    double fwd_comm = dense_layers * comm.tp_layer.fwd_ms + layers * comm.cp_layer.fwd_ms +
                      moe_layers * (comm.tp_moe_layer.fwd_ms + comm.ep_moe_layer.fwd_ms);
    if (s.embedding) {
      fwd_compute += embedding.fwd_ms;
      bwd_compute += embedding.bwd_ms;
      fwd_comm += comm.embedding.fwd_ms;
      a.tp += comm.embedding.fwd_ms + comm.embedding.bwd_ms;
    }
    if (s.head) {
      fwd_compute += head.fwd_ms;
      bwd_compute += head.bwd_ms;
      fwd_comm += comm.head.fwd_ms;
      a.tp += comm.head.fwd_ms + comm.head.bwd_ms;
    }
    a.pp = p.pp > 1 ? 2 * static_cast<double>(p.virtual_stages) * p2p_ms : 0;
    a.compute = fwd_compute + bwd_compute + a.recompute;
    a.fwd = fwd_compute + fwd_comm + a.pp / 2;
    a.bwd = a.compute - fwd_compute + (a.tp + a.cp + a.ep - fwd_comm) + a.pp / 2;
    if (o.zero >= 3 && p.dp * p.cp > 1) {
      const Zero3Exposure z = zero3_exposure(c, s, o, groups, settings, fwd_compute, a.compute - fwd_compute);
      a.zero3 = z.fwd_ms + z.bwd_ms;
      if (o.zero3_once_per_step()) {
        a.zero3_per_step = a.zero3;  // paid by the first forward and the last backward only
        a.zero3 = 0;
      } else {
        a.fwd += z.fwd_ms;
        a.bwd += z.bwd_ms;
      }
    }
  }

  // The pipeline: m micro-batches through the slowest stage, plus the fill and drain of the
  // others (shortened v times by interleaving). Balanced stages: bubble (p - 1) / v stage times.
  std::size_t slowest = 0;
  std::vector<double> stage_ms;
  for (std::size_t i = 0; i < st.size(); ++i) {
    stage_ms.push_back(st[i].fwd + st[i].bwd);
    if (stage_ms[i] > stage_ms[slowest]) slowest = i;
  }
  const double slowest_ms = stage_ms[slowest];
  est.pipeline_ms = interleaved_pipeline_ms(stage_ms, m, p.virtual_stages);
  StepBreakdown& b = est.breakdown;
  b.bubble_ms = est.pipeline_ms - static_cast<double>(m) * slowest_ms;
  est.bubble_fraction = b.bubble_ms / (static_cast<double>(m) * slowest_ms);
  const StageTime& w = st[slowest];
  const double md = static_cast<double>(m);
  b.compute_ms = md * w.compute;
  b.recompute_ms = md * w.recompute;
  b.tp_comm_ms = md * w.tp;
  b.cp_comm_ms = md * w.cp;
  b.ep_comm_ms = md * w.ep;
  b.pp_comm_ms = md * w.pp;
  b.zero3_exposed_ms = md * w.zero3;
  double zero3_per_step = 0;
  for (const StageTime& stage : st) zero3_per_step = std::max(zero3_per_step, stage.zero3_per_step);
  b.zero3_exposed_ms += zero3_per_step;

  // Data-parallel gradient reduction and the optimizer, per stage; the last to finish counts.
  const std::int64_t shards = p.dp * p.cp;
  double tail_ms = 0;
  const std::int64_t expert_shards = p.expert_dp();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const double params = stages[i].params;
    double reduce = 0, gather = 0;
    // Dense weights are reduced over dp x cp; experts over the ranks that hold the same experts.
    for (const auto& [count, group] : {std::make_pair(params - stages[i].expert_params, &groups.dp_cp),
                                       std::make_pair(stages[i].expert_params, &groups.expert_dp)}) {
      if (group->size <= 1 || o.zero > 2 || count <= 0) continue;
      const double grads = count * dtype_bytes(o.precision.grad_reduce);
      if (o.zero == 0) {
        reduce += group_collective_ms(CollectiveOp::kAllReduce, *group, grads, settings);
      } else {
        // ZeRO-1/2: reduce-scatter the gradients, update the shard, all-gather the weights.
        reduce += group_collective_ms(CollectiveOp::kReduceScatter, *group, grads, settings);
        gather += group_collective_ms(CollectiveOp::kAllGather, *group, count * dtype_bytes(o.precision.params), settings);
      }
    }
    const double window = o.overlap ? st[i].bwd : 0;
    const double exposed = std::max(0.0, reduce - window) + gather;
    // Adam: read and write the master weights and both moments, read the gradient, write the
    // low-precision weights (one fused multi-tensor kernel per group of tensors).
    const double local = o.zero >= 1 ? (params - stages[i].expert_params) / static_cast<double>(shards) +
                                           stages[i].expert_params / static_cast<double>(expert_shards)
                                     : params;
    const double per_param = 2 * (o.precision.master_weights ? 4.0 : dtype_bytes(o.precision.params)) +
                             2.0 * optimizer_moments(o.optimizer) * dtype_bytes(o.precision.optimizer_state) +
                             dtype_bytes(o.precision.gradients) +
                             (o.precision.master_weights ? dtype_bytes(o.precision.params) : 0);
    const double optimizer = memory_ms(device, eff, local * per_param) + 10 * eff.kernel_overhead_ms;
    if (i == 0 || exposed + optimizer > tail_ms) {
      tail_ms = exposed + optimizer;
      b.dp_comm_ms = reduce + gather;
      b.dp_exposed_ms = exposed;
      b.optimizer_ms = optimizer;
    }
  }
  est.step_ms = est.pipeline_ms + zero3_per_step + tail_ms;

  const StepFlops flops = step_flops(c, o, ops);
  est.model_flops_per_step = flops.model;
  est.hardware_flops_per_step = flops.hardware;
  est.tokens_per_step = static_cast<double>(o.global_batch) * static_cast<double>(o.seq_len);
  const double step_s = est.step_ms / 1e3;
  est.tokens_per_s = est.tokens_per_step / step_s;
  est.samples_per_s = static_cast<double>(o.global_batch) / step_s;
  const double gpus = static_cast<double>(est.devices);
  est.model_tflops_per_gpu = est.model_flops_per_step / step_s / gpus / 1e12;
  est.hardware_tflops_per_gpu = est.hardware_flops_per_step / step_s / gpus / 1e12;
  est.peak_tflops_per_gpu = dense_peak_gflops(device, t.compute) / 1e3;
  est.mfu = est.model_tflops_per_gpu / est.peak_tflops_per_gpu;
  est.hfu = est.hardware_tflops_per_gpu / est.peak_tflops_per_gpu;

  est.memory = training_memory(c, o, ops, x, stages, device.memory_bytes);
  if (detailed && device.memory_bytes > 0) {
    // Memory grows with the micro-batch at a fixed number of micro-batches per step.
    auto fits = [&](std::int64_t micro) {
      TrainingOptions trial = o;
      trial.micro_batch = micro;
      trial.global_batch = micro * p.dp * m;
      return estimate_training_memory(c, trial, device.memory_bytes).fits();
    };
    // Bounded: a short doubling search, and micro x dp x m far inside 64 bits.
    const std::int64_t cap = std::min(std::int64_t{1} << 20, (std::int64_t{1} << 30) / std::max(std::int64_t{1}, p.dp * m));
    std::int64_t lo = 0, hi = 1;
    while (hi <= cap && fits(hi)) {
      lo = hi;
      hi *= 2;
    }
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      (fits(mid) ? lo : hi) = mid;
    }
    est.max_micro_batch = lo;
  }

  if (detailed) {
    add_rows(est.ops, ops.embedding, 1, device, eff, t);
    const double moe_layers = static_cast<double>(c.moe_layer_count());
    add_rows(est.ops, ops.dense_layer, static_cast<double>(c.layers) - moe_layers, device, eff, t, pieces);
    add_rows(est.ops, ops.moe_layer, moe_layers, device, eff, t, pieces);
    add_rows(est.ops, ops.head, 1, device, eff, t);
  }

  if (!est.memory.fits()) est.warnings.push_back("does not fit: the fullest stage needs more memory than the device has");
  if (groups.tp.crosses_nodes())
    est.warnings.push_back("tensor parallelism spans nodes: its collectives cross the inter-node link");
  if (c.layers % (p.pp * p.virtual_stages) != 0)
    est.warnings.push_back("the layers do not divide evenly into the pipeline chunks: stages are unbalanced");
  if (auto format = matrix_format_warning(device, t.compute)) est.warnings.push_back(*format);
  if (x.vocab_padded != static_cast<double>(c.vocab))
    est.warnings.push_back("the vocabulary is padded to " + std::to_string(static_cast<std::int64_t>(x.vocab_padded)) +
                           " (a multiple of 128 x tp) as Megatron-LM does");
  return est;
}

}  // namespace paleo
