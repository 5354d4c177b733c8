// The transformer model against closed forms derived independently of it: Narayanan et al.
// 2021's FLOPs per step, Korthikanti et al. 2022's activation bytes per layer (Table 2), the ZeRO
// paper's model-state bytes, the interleaved pipeline's bubble, and properties that must hold.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/api.h"
#include "core/cluster/pipeline.h"
#include "core/spec/presets.h"
#include "core/transformer/inference_step.h"
#include "core/transformer/training_step.h"
#include "training_layout.h"

namespace {

using paleo::Recompute;

// A GPT-style model: multi-head attention, GELU MLP of 4h, LayerNorm, learned positions, dropout,
// a vocabulary that needs no padding for tp up to 8.
paleo::TransformerConfig gpt(long layers, long hidden, long heads, long vocab) {
  paleo::TransformerConfig c;
  c.name = "gpt";
  c.layers = layers;
  c.hidden = hidden;
  c.heads = heads;
  c.kv_heads = heads;
  c.head_dim = hidden / heads;
  c.ffn_hidden = 4 * hidden;
  c.vocab = vocab;
  c.seq_len = 2048;
  c.dropout = 0.1;
  return c;
}

paleo::Cluster cluster(long nodes, long per_node) {
  paleo::Cluster c = paleo::Presets::instance().cluster("dgx_a100_80gb_hdr", nullptr);
  c.nodes = nodes;
  c.devices_per_node = per_node;
  return c;
}

paleo::TrainingOptions layout(long tp, long pp, long dp, long micro, long global, long seq) {
  return training_layout(tp, pp, dp, micro, global, seq, "fp16");
}

double narayanan(double B, double s, double l, double h, double V, bool recompute) {
  if (recompute) return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
  return 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
}

double rel(double a, double b) { return std::fabs(a / b - 1); }

}  // namespace

TEST_CASE("Model FLOPs per step equal Narayanan et al.'s closed form for every layout", "[transformer][flops]") {
  const paleo::Device a100 = paleo::Presets::instance().device("A100_80GB_SXM");
  struct Case {
    paleo::TransformerConfig c;
    long tp, pp, dp, micro, global, seq, nodes, per_node;
  };
  const std::vector<Case> cases = {
      {gpt(24, 2304, 24, 51200), 1, 1, 32, 1, 512, 2048, 4, 8},
      {gpt(48, 8192, 64, 51200), 8, 2, 32, 1, 1536, 2048, 64, 8},
      {gpt(12, 768, 12, 51200), 2, 3, 2, 2, 16, 1024, 3, 4},
      {gpt(96, 12288, 96, 51200), 8, 8, 16, 1, 1536, 2048, 128, 8},
  };
  for (const Case& k : cases) {
    for (Recompute r : {Recompute::kNone, Recompute::kFull}) {
      for (paleo::AttentionKernel a : {paleo::AttentionKernel::kFlash, paleo::AttentionKernel::kMaterialized}) {
        paleo::TrainingOptions o = layout(k.tp, k.pp, k.dp, k.micro, k.global, k.seq);
        o.recompute = r;
        o.attention = a;
        const paleo::TrainingEstimate e = paleo::estimate_training(k.c, o, a100, cluster(k.nodes, k.per_node), false);
        const double B = static_cast<double>(k.global), s = static_cast<double>(k.seq);
        const double l = static_cast<double>(k.c.layers), h = static_cast<double>(k.c.hidden);
        const double V = static_cast<double>(k.c.vocab);
        INFO("h " << k.c.hidden << " tp " << k.tp << " pp " << k.pp << " recompute " << paleo::recompute_name(r));
        CHECK(rel(e.model_flops_per_step, narayanan(B, s, l, h, V, false)) < 1e-9);
        if (r == Recompute::kFull) CHECK(rel(e.hardware_flops_per_step, narayanan(B, s, l, h, V, true)) < 1e-9);
        else CHECK(e.hardware_flops_per_step == e.model_flops_per_step);
      }
    }
  }
}

TEST_CASE("Activation bytes per layer equal Korthikanti et al. 2022 Table 2", "[transformer][memory]") {
  // s b h (34 + 5 a s / h) and its four parallel variants, fp16 activations, materialised
  // attention, dropout masks of one byte.
  const paleo::TransformerConfig c = gpt(24, 4096, 32, 51200);
  const double s = 2048, b = 4, h = 4096, a = 32;
  for (long t : {1L, 2L, 4L, 8L}) {
    for (bool sp : {false, true}) {
      paleo::TrainingOptions o = layout(t, 1, 1, 4, 4, 2048);
      o.parallel.sequence_parallel = sp;
      o.attention = paleo::AttentionKernel::kMaterialized;
      const paleo::OpContext x = paleo::op_context(c, o);
      const std::vector<paleo::TransformerOp> ops = paleo::layer_ops(c, x, false);
      const double td = static_cast<double>(t);
      const double none = paleo::layer_saved_bytes(ops, Recompute::kNone, x, c);
      const double selective = paleo::layer_saved_bytes(ops, Recompute::kSelective, x, c);
      const double full = paleo::layer_saved_bytes(ops, Recompute::kFull, x, c);
      INFO("t " << t << " sequence parallel " << sp);
      if (t == 1) {
        CHECK(rel(none, s * b * h * (34 + 5 * a * s / h)) < 1e-9);
      } else if (!sp) {
        CHECK(rel(none, s * b * h * (10 + 24 / td + 5 * a * s / (h * td))) < 1e-9);
        CHECK(rel(selective, s * b * h * (10 + 24 / td)) < 1e-9);
      } else {
        CHECK(rel(none, s * b * h / td * (34 + 5 * a * s / h)) < 1e-9);
        CHECK(rel(selective, s * b * h * 34 / td) < 1e-9);
      }
      // Full recompute keeps each layer's input only (section 4.3): 2 s b h, split under SP.
      CHECK(rel(full, 2 * s * b * h / (sp && t > 1 ? td : 1)) < 1e-9);
    }
  }
}

TEST_CASE("Model-state bytes per device follow the ZeRO paper's (2 + 2 + K) forms", "[transformer][zero]") {
  // Mixed-precision Adam: K = 12 (fp32 master weights, momentum and variance).
  const paleo::PrecisionPolicy mixed = paleo::precision_policy("bf16", "precision");
  const double psi = 7.5e9;
  for (long nd : {1L, 8L, 64L, 1024L}) {
    const double n = static_cast<double>(nd);
    auto total = [&](int zero) {
      const paleo::ModelStateBytes m = paleo::model_state_bytes(psi, mixed, paleo::Optimizer::kAdam, zero, nd);
      return m.params + m.gradients + m.optimizer;
    };
    CHECK(rel(total(0), (2 + 2 + 12) * psi) < 1e-12);
    CHECK(rel(total(1), 2 * psi + 2 * psi + 12 * psi / n) < 1e-12);
    CHECK(rel(total(2), 2 * psi + (2 + 12) * psi / n) < 1e-12);
    CHECK(rel(total(3), (2 + 2 + 12) * psi / n) < 1e-12);
  }
  // fp32 training keeps no master copy: K = 8.
  const paleo::ModelStateBytes fp32 =
      paleo::model_state_bytes(psi, paleo::precision_policy("fp32", "precision"), paleo::Optimizer::kAdam, 0, 1);
  CHECK(rel(fp32.params + fp32.gradients + fp32.optimizer, 16 * psi) < 1e-12);
  CHECK(rel(fp32.optimizer, 8 * psi) < 1e-12);
}

TEST_CASE("The interleaved 1F1B bubble is (p - 1) / (v m) of the bubble-free time", "[transformer][pipeline]") {
  for (long p : {2L, 4L, 8L})
    for (long v : {1L, 2L, 4L})
      for (long m : {4L, 8L, 32L}) {
        const double stage_ms = 3.7;
        const std::vector<double> stages(static_cast<std::size_t>(p), stage_ms);
        const double step = paleo::interleaved_pipeline_ms(stages, m, v);
        const double ideal = static_cast<double>(m) * stage_ms;
        CHECK(rel((step - ideal) / ideal, static_cast<double>(p - 1) / static_cast<double>(v * m)) < 1e-12);
      }
  // Through the estimate: the reported bubble shrinks with interleaving.
  const paleo::TransformerConfig c = gpt(48, 8192, 64, 51200);
  const paleo::Device a100 = paleo::Presets::instance().device("A100_80GB_SXM");
  double last = 1;
  for (long v : {1L, 2L, 4L}) {
    paleo::TrainingOptions o = layout(8, 4, 1, 1, 16, 2048);
    o.parallel.virtual_stages = v;
    const double bubble = paleo::estimate_training(c, o, a100, cluster(4, 8), false).bubble_fraction;
    CHECK(bubble < last);
    CHECK(bubble == Approx(3.0 / (static_cast<double>(v) * 16)).epsilon(0.25));
    last = bubble;
  }
}

TEST_CASE("More GPUs never raise the FLOPs per GPU", "[transformer][property]") {
  const paleo::TransformerConfig c = gpt(24, 2304, 24, 51200);
  const paleo::Device a100 = paleo::Presets::instance().device("A100_80GB_SXM");
  double last = INFINITY;
  for (long dp : {1L, 2L, 4L, 8L, 16L, 32L}) {
    const paleo::TrainingEstimate e =
        paleo::estimate_training(c, layout(1, 1, dp, 1, 64, 2048), a100, cluster(std::max(1L, dp / 8), std::min(dp, 8L)), false);
    const double per_gpu = e.hardware_flops_per_step / static_cast<double>(e.devices);
    CHECK(per_gpu <= last);
    last = per_gpu;
  }
  // Tensor parallelism splits every operator: per-device FLOPs of a micro-batch only fall.
  double last_op = INFINITY;
  for (long tp : {1L, 2L, 4L, 8L}) {
    const paleo::OpContext x = paleo::op_context(c, layout(tp, 1, 1, 1, 1, 2048));
    double flops = 0;
    for (const paleo::TransformerOp& op : paleo::layer_ops(c, x, false)) flops += op.fwd_flops() + op.bwd_flops();
    CHECK(flops < last_op);
    last_op = flops;
  }
}

TEST_CASE("A higher precision is never faster", "[transformer][property]") {
  const paleo::Presets& presets = paleo::Presets::instance();
  for (const char* device : {"H100_SXM", "A100_80GB_SXM", "V100_SXM2_32GB"}) {
    const paleo::Device d = presets.device(device);
    for (long tp : {1L, 8L}) {
      double last = 0;
      for (const char* format : {"fp8", "bf16", "tf32", "fp32"}) {
        paleo::TrainingOptions o = layout(tp, 1, 8 / tp, 1, 64, 2048);
        o.precision = paleo::precision_policy(format, "precision");
        const paleo::TrainingEstimate e = paleo::estimate_training(gpt(24, 2304, 24, 51200), o, d, cluster(1, 8), false);
        INFO(device << " tp " << tp << " " << format);
        CHECK(e.step_ms >= last);
        last = e.step_ms;
      }
    }
  }
}

TEST_CASE("KV cache and weights of inference by hand", "[transformer][inference]") {
  // Llama 3 8B: 32 layers, 8 KV heads of 128, bf16: 2 x 32 x 8 x 128 x 2 bytes = 128 KiB per token.
  const paleo::Json& doc = *paleo::Presets::instance().find_transformer("llama3_8b");
  const paleo::TransformerConfig c = paleo::transformer_config_from_json(doc["transformer"], "net");
  paleo::InferenceOptions o;
  o.batch = 4;
  o.prompt_len = 1000;
  o.generate_len = 24;
  for (long tp : {1L, 2L, 8L}) {
    o.tp = tp;
    const paleo::InferenceEstimate e =
        paleo::estimate_inference(c, o, paleo::Presets::instance().device("H100_SXM"), cluster(1, tp));
    CHECK(rel(e.kv_cache_bytes, 2.0 * 32 * 8 * 128 * 2 * 4 * 1024 / static_cast<double>(tp)) < 1e-12);
    CHECK(e.decode_ms_per_token > 0);
    CHECK(e.prefill_ms > e.decode_ms_per_token);
  }
}

TEST_CASE("Transformer requests: bad layouts name their field", "[transformer][api]") {
  auto field_of = [](const paleo::Json& request) {
    const paleo::Json r = paleo::handle_request(request);
    return r["ok"].get<bool>() ? std::string("(ok)") : r["error"]["field"].get<std::string>();
  };
  const paleo::Json base = {{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"nodes", 1},
                            {"devices_per_node", 8}};
  auto with = [&](const char* key, const paleo::Json& v) {
    paleo::Json r = base;
    r[key] = v;
    return r;
  };
  CHECK(field_of(base) == "(ok)");
  CHECK(field_of(with("tp", 3)) == "tp");
  CHECK(field_of(with("tp", 0)) == "tp");
  CHECK(field_of(with("global_batch", 12)) == "global_batch");
  CHECK(field_of(with("precision", "fp12")) == "precision");
  CHECK(field_of(with("recompute", "some")) == "recompute");
  CHECK(field_of(with("zero", 4)) == "zero");
  CHECK(field_of(with("attention", "sparse")) == "attention");
  CHECK(field_of(with("ep", 2)) == "ep");
  CHECK(field_of(with("batch_size", 64)) == "batch_size");  // a transformer's batch is global_batch
  CHECK(field_of(with("workers", 8)) == "workers");         // CNN-only fields are not silently ignored
  CHECK(field_of(with("ppp_comp", 0.5)) == "ppp_comp");
  CHECK(field_of(paleo::Json{{"command", "estimate"}, {"net", "vgg16"}, {"tp", 2}}) == "tp");
  CHECK(field_of(paleo::Json{{"command", "plan"}, {"net", "vgg16"}}) == "net");
  CHECK(field_of(paleo::Json{{"command", "estimate"}, {"net", {{"transformer", {{"layers", 2}, {"hidden", 64}}}}}}) ==
        "net.transformer.heads");
}

TEST_CASE("The top-level figures of a transformer estimate are consistent", "[transformer][api]") {
  const paleo::Json r = paleo::handle_request(
      {{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"nodes", 8}, {"devices_per_node", 8},
       {"precision", "bf16"}, {"tp", 8}, {"pp", 1}, {"micro_batch", 1}, {"global_batch", 512}, {"seq_len", 8192},
       {"recompute", "selective"}, {"zero", 1}, {"train_tokens", 1e12}, {"price_per_gpu_hour", 2.0}});
  REQUIRE(r["ok"].get<bool>());
  const double step_s = r["step_ms"].get<double>() / 1e3;
  CHECK(rel(r["tokens_per_s"].get<double>(), 512.0 * 8192 / step_s) < 1e-12);
  CHECK(rel(r["model_tflops_per_gpu"].get<double>(), r["model_flops_per_step"].get<double>() / step_s / 64 / 1e12) < 1e-12);
  CHECK(rel(r["mfu"].get<double>(), r["model_tflops_per_gpu"].get<double>() / 989.0) < 1e-12);
  double parts = 0;
  for (const char* k : {"compute_ms", "tp_comm_ms", "cp_comm_ms", "ep_comm_ms", "pp_comm_ms", "bubble_ms",
                        "dp_exposed_ms", "zero3_exposed_ms", "optimizer_ms"})
    parts += r["breakdown"][k].get<double>();
  CHECK(rel(parts, r["step_ms"].get<double>()) < 1e-9);
  const paleo::Json& m = r["memory"];
  CHECK(rel(m["total_bytes"].get<double>(), r["memory_per_device_bytes"].get<double>()) < 1e-12);
  CHECK(rel(r["train"]["cost_usd"].get<double>(), 1e12 / (512.0 * 8192) * step_s / 3600 * 64 * 2.0) < 1e-9);
}

TEST_CASE("The planner ranks feasible GPT-3 175B layouts on 1024 A100s", "[transformer][planner]") {
  const paleo::Json r = paleo::handle_request({{"command", "plan"}, {"net", "gpt3_175b"}, {"device", "A100_80GB_SXM"},
                                               {"devices", 1024}, {"devices_per_node", 8}, {"global_batch", 1536},
                                               {"seq_len", 2048}, {"precision", "bf16"}});
  REQUIRE(r["ok"].get<bool>());
  REQUIRE(r["feasible"].get<long>() > 0);
  CHECK(r["feasible"].get<long>() < r["evaluated"].get<long>());
  double last = 0;
  for (const paleo::Json& c : r["candidates"]) {
    const long tp = c["tp"], pp = c["pp"], dp = c["dp"], micro = c["micro_batch"];
    CHECK(tp * pp * dp == 1024);
    CHECK(8 % tp == 0);
    CHECK(1536 % (dp * micro) == 0);
    CHECK(c["memory_per_device_bytes"].get<double>() <= 80.0 * 1024 * 1024 * 1024);
    CHECK(c["step_ms"].get<double>() >= last);
    last = c["step_ms"].get<double>();
  }
  CHECK(r["why"].size() >= 2);
}

TEST_CASE("ZeRO shards experts over the ranks that hold the same experts only", "[transformer][zero][moe]") {
  paleo::TransformerConfig c = gpt(2, 128, 4, 1024);
  c.bias = false;
  c.dropout = 0;
  c.ffn_hidden = 256;
  c.moe.experts = 4;
  c.moe.top_k = 2;
  const paleo::Device h100 = paleo::Presets::instance().device("H100_SXM");
  // Every expert MLP: 2 h f weights; the experts of a layer are split over ep = 4 ranks.
  const double expert_total = 2.0 * 4 * (2.0 * 128 * 256);
  const double dense = paleo::parameter_count(c).total - expert_total;
  for (int zero : {0, 1, 2, 3}) {
    paleo::TrainingOptions o = layout(1, 1, 4, 1, 4, 128);
    o.parallel.ep = 4;
    o.zero = zero;
    o.precision = paleo::precision_policy("bf16", "precision");
    const paleo::TransformerMemory m = paleo::estimate_training_memory(c, o, h100.memory_bytes);
    const double local_experts = expert_total / 4;  // one expert per rank, not sharded further
    const double nd = zero >= 1 ? 4 : 1;
    INFO("zero " << zero);
    CHECK(rel(m.optimizer_bytes, 12 * (dense / nd + local_experts)) < 1e-12);
    // ZeRO 3 as FSDP: the root unit (the tied embedding, a multiple of 128 entries, and the final
    // norm) is never resharded after the forward and stays gathered in bf16.
    const paleo::ParameterCount p = paleo::parameter_count(c);
    const double root = zero >= 3 ? p.embedding + p.final_norm + p.head : 0;
    CHECK(rel(m.params_bytes, 2 * ((zero >= 3 ? dense / 4 : dense) + local_experts + root)) < 1e-12);
  }
}
