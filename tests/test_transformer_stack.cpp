// The mechanisms that carry the transformer model to stacks and hardware it was not fitted on:
// fp8 only in the linear layers with the casts it costs, flash attention's padded key blocks,
// ZeRO-3's per-layer collectives, and a stack's defaults where a request is silent.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/api.h"
#include "core/precision/precision_policy.h"
#include "core/transformer/op_timing.h"
#include "core/transformer/zero3_exposure.h"
#include "api_answer.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& answer = ok_answer;  // tests/api_answer.h

// A tiny model: 4 layers of 256, so that compute is small beside a slow link's latency.
Json tiny_model() {
  return {{"transformer",
           {{"name", "tiny"}, {"layers", 4}, {"hidden", 256}, {"heads", 4}, {"ffn_hidden", 1024}, {"vocab", 1024},
            {"seq_len", 128}, {"activation", "gelu"}, {"norm", "layernorm"}, {"position", "learned"},
            {"tied_embeddings", true}, {"bias", true}, {"causal", true}}}};
}

// The tiny model under ZeRO 3 on one node of `devices` joined by `link`, in bf16, one sequence per
// micro-batch, no recomputation.
Json zero3_request(const std::string& device, int devices, const Json& link) {
  return {{"command", "estimate"},
          {"net", tiny_model()},
          {"device", device},
          {"cluster", {{"nodes", 1}, {"devices_per_node", devices}, {"intra", link}, {"inter", link}}},
          {"zero", 3},
          {"precision", "bf16"},
          {"global_batch", 2},
          {"micro_batch", 1},
          {"recompute", "none"}};
}

}  // namespace

TEST_CASE("Under fp8 only the blocks' linear layers run in fp8", "[transformer][fp8]") {
  const paleo::PrecisionPolicy fp8 = paleo::precision_policy("fp8", "precision");
  paleo::TransformerOp linear;
  linear.op_class = paleo::OpClass::kMatmul;
  linear.fp8_eligible = true;
  linear.m = 1024;
  linear.n = 3072;
  linear.k = 512;
  paleo::TransformerOp head = linear;
  head.fp8_eligible = false;
  paleo::TransformerOp core;
  core.op_class = paleo::OpClass::kAttention;
  CHECK(paleo::op_compute_dtype(linear, fp8) == paleo::Dtype::kFp8E4M3);
  CHECK(paleo::op_compute_dtype(head, fp8) == paleo::Dtype::kBf16);
  CHECK(paleo::op_compute_dtype(core, fp8) == paleo::Dtype::kBf16);

  // Casts by hand: the forward reads the bf16 input (2 bytes) and writes its fp8 copy and fp8
  // transpose (1 + 1); the backward does the same for the output gradient.
  const paleo::Fp8CastBytes cast = paleo::fp8_cast_bytes(linear, fp8);
  CHECK(cast.fwd_bytes == Approx(1024.0 * 512 * 4));
  CHECK(cast.bwd_bytes == Approx(1024.0 * 3072 * 4));
  linear.fp8_input_from_norm = true;  // the norm wrote the fp8 copy itself
  CHECK(paleo::fp8_cast_bytes(linear, fp8).fwd_bytes == 0);
  CHECK(paleo::fp8_cast_bytes(head, fp8).bwd_bytes == 0);
  CHECK(paleo::fp8_cast_bytes(linear, paleo::precision_policy("bf16", "precision")).bwd_bytes == 0);
}

TEST_CASE("fp8 attention stays in bf16: the whole step is not priced at the fp8 peak", "[transformer][fp8]") {
  Json request = {{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"cluster", "dgx_h100_ndr"},
                  {"tp", 1},           {"zero", 1},            {"recompute", "full"},  {"global_batch", 8},
                  {"seq_len", 8192},   {"virtual_stages", 1},  {"efficiency", {{"fp8_matmul_ceiling", 0.7}, {"matmul_ceiling", 0.7}}}};
  request["precision"] = "bf16";
  const Json bf16 = answer(request);
  request["precision"] = "fp8";
  const Json fp8 = answer(request);
  // The attention core's time is the same in both; the linear layers' halves at most.
  auto core_ms = [](const Json& r) {
    for (const Json& row : r["layers"])
      if (row["name"] == "attention.core") return row["forward"]["total_ms"].get<double>();
    return -1.0;
  };
  CHECK(core_ms(fp8) == Approx(core_ms(bf16)));
  const double speedup = bf16["step_ms"].get<double>() / fp8["step_ms"].get<double>();
  CHECK(speedup > 1.05);
  CHECK(speedup < 2.0);
}

TEST_CASE("A prompt of a length off the fp8 alignment costs what its neighbours do", "[transformer][alignment]") {
  // FlashAttention walks the keys in 128-wide blocks: 5000 tokens run as 5120, on the tensor cores.
  auto prefill = [](int tokens) {
    return answer({{"command", "inference"}, {"net", "llama3_70b"}, {"device", "H100_SXM"}, {"tp", 8},
                   {"precision", "fp8"}, {"batch_size", 1}, {"prompt_len", tokens}, {"generate_len", 1}})["prefill_ms"]
        .get<double>();
  };
  const double at_4992 = prefill(4992), at_5000 = prefill(5000), at_5008 = prefill(5008);
  CHECK(at_5000 <= at_5008 * 1.02);
  CHECK(at_5000 >= at_4992 * 0.98);
  CHECK(at_5000 < at_4992 * 1.1);
}

TEST_CASE("ZeRO-3 pays each layer's gathers and scatters, by hand on a slow link", "[transformer][zero3]") {
  // Two devices joined by a link of 1 s latency: every collective costs one step, about 1 s, far
  // beyond the tiny model's compute. Per micro-batch, 4 layers: the forward gathers the first
  // layer with nothing to hide it, then each layer's gather is exposed ((L + 1) g); the backward
  // gathers again and scatters (g + L (g + s) + s): 3L + 3 = 15 collectives in all. Kept after the
  // forward pass (reshard_after_forward false), the backward only scatters: 2L + 2 = 10.
  Json request = zero3_request("H100_SXM", 2, {{"latency_us", 1e6}, {"bandwidth_gb_per_s", 1000}});
  request["collective_library"] = "any";  // the link's latency per step (NCCL prices its own)
  const double resharded = answer(request)["breakdown"]["zero3_exposed_ms"].get<double>();
  CHECK(resharded == Approx(15 * 1000.0).epsilon(0.01));
  request["reshard_after_forward"] = false;
  const double kept = answer(request)["breakdown"]["zero3_exposed_ms"].get<double>();
  CHECK(kept == Approx(10 * 1000.0).epsilon(0.01));
}

TEST_CASE("A transformer's collectives run in its stack's library", "[transformer][zero3]") {
  // On a link of 1 s latency, `any` pays it per step of its algorithm: 15 collectives of one step
  // (two devices; previous test). The era's NCCL prices a ring's latency from its own tuning
  // constants (tens of microseconds a hop, core/cluster/nccl_model.h), whatever the link says.
  Json request = zero3_request("H100_SXM", 2, {{"latency_us", 1e6}, {"bandwidth_gb_per_s", 1000}});
  const Json by_era = answer(request);
  CHECK(by_era["parallel"]["collective_library"] == "nccl");
  CHECK(by_era["breakdown"]["zero3_exposed_ms"].get<double>() < 15 * 1000.0 / 100);
  request["collective_library"] = "any";
  const Json any = answer(request);
  CHECK(any["parallel"]["collective_library"] == "any");
  CHECK(any["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(15 * 1000.0).epsilon(0.01));
  request["collective_library"] = "mpi";
  const Json bad = paleo::handle_request(request);
  CHECK(bad["ok"] == false);
  CHECK(bad["error"]["field"] == "collective_library");
}

TEST_CASE("DeepSpeed's ZeRO-3 of 2021 gathers tensor by tensor and hides nothing, by hand", "[transformer][zero3]") {
  // The tiny model has 3,454,464 parameters: per layer 256 x 768 + 768 (QKV), 256 x 256 + 256,
  // 256 x 1024 + 1024, 1024 x 256 + 256 and two norms of 2 x 256 (789,760), times 4, plus the
  // tied embedding 1024 x 256, the positions 128 x 256 and the final norm 512. Two devices on a
  // 1 MB/s link: NCCL's ring moves half of each gathered vector, so a pass over every weight in
  // bf16 takes 3,454,464 x 2 / 2 / 1e6 s = 3,454.464 ms whatever the tensors; its latencies
  // (16 gathers and 48 reduce-scatters of some 10 us), per-rank list operations (4 per collective)
  // and copies at the A100's memory bandwidth are noise beside it. Blocking: a gather before the
  // forward, one before the backward, one before a full recompute's forward, and the gradients'
  // reduce-scatter of the same bytes (parameter by parameter), none hidden.
  Json request = zero3_request("A100_80GB_SXM", 2, {{"latency_us", 1}, {"bandwidth_gb_per_s", 0.001}});
  request["software_era"] = "megatron_lm_2021";
  const double pass_ms = 3454.464;
  const Json blocking = answer(request);
  CHECK(blocking["parallel"]["zero3_gather"] == "tensor_blocking");  // the era's stack
  CHECK(blocking["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(3 * pass_ms).epsilon(0.001));
  request["recompute"] = "full";
  CHECK(answer(request)["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(4 * pass_ms).epsilon(0.001));
  // Per rank and collective, DeepSpeed views the rank's share (narrow) and PyTorch copies it out of
  // (or into) the flat buffer: 2 x 2 operations a collective. 16 gathers a pass and 3 gather
  // passes; the gradients reduce-scattered one parameter at a time, 12 a layer (4 matrices, 4
  // biases, 2 norms of weight and bias), 48. 10 ms more per operation adds (48 + 48) x 4 x 10 ms.
  const double before = answer(request)["breakdown"]["zero3_exposed_ms"].get<double>();
  request["efficiency"] = {{"kernel_overhead_ms", 0.004 + 10}};
  CHECK(answer(request)["breakdown"]["zero3_exposed_ms"].get<double>() - before == Approx(3840).epsilon(1e-6));
  // FSDP's schedule on the same link hides each layer's gather behind nothing larger, but pays
  // neither the recompute's gather nor the copies: less.
  request.erase("efficiency");
  request["zero3_gather"] = "layer_prefetched";
  const Json prefetched = answer(request);
  CHECK(prefetched["parallel"]["zero3_gather"] == "layer_prefetched");
  CHECK(prefetched["breakdown"]["zero3_exposed_ms"].get<double>() < before);
  request["zero3_gather"] = "per_tensor";
  const Json bad = paleo::handle_request(request);
  CHECK(bad["ok"] == false);
  CHECK(bad["error"]["field"] == "zero3_gather");
}

TEST_CASE("DeepSpeed reduce-scatters every parameter of a layer, the biases and norms too", "[transformer][zero3]") {
  // Megatron-LM's GPT layer: QKV, attention output, MLP up and down, each with a bias, and two
  // layer norms of weight and bias: 8 besides the 4 matrices. Llama's: no biases, two RMS norms
  // of a weight each: 2. Qwen2's: RMS norms and biases on q, k, v alone: 3.
  paleo::TransformerConfig gpt;
  gpt.bias = true;
  gpt.norm = paleo::NormKind::kLayerNorm;
  CHECK(paleo::small_parameter_tensors_per_layer(gpt) == 8);
  paleo::TransformerConfig llama;
  llama.bias = false;
  llama.norm = paleo::NormKind::kRmsNorm;
  CHECK(paleo::small_parameter_tensors_per_layer(llama) == 2);
  llama.qkv_bias = true;
  CHECK(paleo::small_parameter_tensors_per_layer(llama) == 3);
}

TEST_CASE("A request that names no stack gathers as FSDP does, not as the 2021 era's DeepSpeed",
          "[transformer][zero3]") {
  // The tiny model on two A100s over a 1 MB/s link, as above: a pass over every weight in bf16
  // takes 3,454.464 ms. Without software_era a ZeRO-3 request on the A100 runs on PyTorch's FSDP
  // (pytorch_fsdp_a100_2023), not on megatron_lm_2021's DeepSpeed of 2021 (which Megatron-LM
  // integrated and does not have): FSDP's per-layer schedule, each of the 4 layers' gathers a quarter pass, behind
  // compute of microseconds. Forward: the first gather, then each layer's next one, 5/4 pass. Backward (the weights
  // resharded after the forward): the first gather, each layer's gather and gradient reduce-scatter, the last
  // reduce-scatter, 10/4 pass. In all 15/4 pass; latencies are noise.
  Json request = zero3_request("A100_80GB_SXM", 2, {{"latency_us", 1}, {"bandwidth_gb_per_s", 0.001}});
  const double pass_ms = 3454.464;
  const Json silent = answer(request);
  CHECK(silent["software_era"]["key"] == "pytorch_fsdp_a100_2023");
  CHECK(silent["software_era"]["chosen_by"] == "zero3");
  CHECK(silent["parallel"]["zero3_gather"] == "layer_prefetched");
  CHECK(silent["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(15.0 / 4 * pass_ms).epsilon(0.001));
  // Naming the era names its stack: blocking, a gather before the forward and the backward and the
  // reduce-scatter, 3 passes (previous test).
  request["software_era"] = "megatron_lm_2021";
  const Json named = answer(request);
  CHECK(named["parallel"]["zero3_gather"] == "tensor_blocking");
  CHECK(named["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(3 * pass_ms).epsilon(0.001));
}

TEST_CASE("A plan prices a ZeRO-3 layout on the stack its estimate takes", "[transformer][planner][zero3]") {
  // Llama 3 8B on two DGX H100: the plan names no era, so its layouts run on Megatron-Core
  // (Hopper's default), and its ZeRO-3 layouts on PyTorch's FSDP, as an estimate of each would.
  const Json plan = answer({{"command", "plan"},
                            {"net", "llama3_8b"},
                            {"device", "H100_SXM"},
                            {"cluster", "dgx_h100_ndr"},
                            {"nodes", 2},
                            {"devices_per_node", 8},
                            {"global_batch", 64},
                            {"seq_len", 8192},
                            {"top", 1000}});
  CHECK(plan["software_era"]["key"] == "megatron_core_hopper_2024");
  CHECK(plan["zero3_software_era"]["key"] == "pytorch_fsdp_hopper_2024");
  // ZeRO-3 under a pipeline keeps its weights through the step (torchtitan's policy), in the plan
  // as in the estimate of the layout: pipelined ZeRO-3 candidates are checked too.
  int checked[4] = {0, 0, 0, 0};
  int pipelined_zero3 = 0;
  for (const Json& c : plan["candidates"]) {
    const int zero = c["zero"].get<int>();
    const bool pipelined = c["pp"].get<int>() > 1;
    if (zero == 3 && pipelined && pipelined_zero3 < 2) {
      ++pipelined_zero3;
    } else if (checked[zero] >= 2 || pipelined) {
      continue;
    } else {
      ++checked[zero];
    }
    Json layout = {{"command", "estimate"},     {"net", "llama3_8b"}, {"device", "H100_SXM"},
                   {"cluster", "dgx_h100_ndr"}, {"nodes", 2},         {"devices_per_node", 8},
                   {"global_batch", 64},        {"seq_len", 8192}};
    for (const char* field :
         {"tp", "pp", "dp", "cp", "micro_batch", "virtual_stages", "sequence_parallel", "recompute", "zero"})
      layout[field] = c[field];
    const Json e = answer(layout);
    INFO(layout.dump());
    CHECK(e["software_era"]["key"] == (zero == 3 ? "pytorch_fsdp_hopper_2024" : "megatron_core_hopper_2024"));
    CHECK(e["step_ms"].get<double>() == Approx(c["step_ms"].get<double>()).epsilon(1e-12));
  }
  CHECK(checked[1] == 2);
  CHECK(checked[3] == 2);
  CHECK(pipelined_zero3 == 2);
}

TEST_CASE("A silent request takes its stack's defaults and says which", "[transformer][defaults]") {
  const Json hopper = answer({{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"},
                              {"cluster", "dgx_h100_ndr"}, {"nodes", 1}, {"devices_per_node", 8}, {"tp", 2},
                              {"global_batch", 64}, {"seq_len", 8192}});
  const Json& assumed = hopper["assumed"];
  CHECK(assumed["sequence_parallel"] == true);
  CHECK(assumed["zero"] == 1);
  CHECK(assumed.contains("recompute"));
  CHECK(hopper["parallel"]["sequence_parallel"] == true);
  CHECK(hopper["parallel"]["zero"] == 1);
  bool warned = false;
  for (const Json& w : hopper["warnings"]) warned = warned || w.get<std::string>().find("assumed the defaults of") == 0;
  CHECK(warned);

  // What the request states is not assumed.
  const Json stated = answer({{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "H100_SXM"}, {"tp", 2},
                              {"zero", 0}, {"sequence_parallel", false}, {"recompute", "full"}, {"global_batch", 8}});
  CHECK_FALSE(stated["assumed"].contains("zero"));
  CHECK_FALSE(stated["assumed"].contains("sequence_parallel"));
  CHECK(stated["parallel"]["zero"] == 0);

  // The 2021 Megatron-LM stack of Ampere had neither sequence parallelism nor a distributed
  // optimizer: it assumes nothing.
  const Json ampere = answer({{"command", "estimate"}, {"net", "llama3_8b"}, {"device", "A100_80GB_SXM"}, {"tp", 2},
                              {"global_batch", 8}});
  CHECK(ampere["assumed"].empty());
}

TEST_CASE("Llama 3 405B laid out as its authors ran it fits on 80 GB H100s", "[transformer][defaults]") {
  // Dubey et al. 2024 (arXiv 2407.21783), Table 4: 8,192 GPUs, TP 8, CP 1, PP 16, DP 64,
  // sequence 8,192, 16M tokens per batch (2,048 sequences), no activation checkpointing (3.3.2).
  Json request = {{"command", "estimate"}, {"net", "llama3_1_405b"}, {"device", "H100_SXM"}, {"cluster", "dgx_h100_ndr"},
                  {"nodes", 1024},     {"devices_per_node", 8},  {"tp", 8},  {"pp", 16},  {"dp", 64},
                  {"seq_len", 8192},   {"global_batch", 2048},   {"precision", "bf16"}};
  const Json r = answer(request);
  CHECK(r["fits"] == true);
  CHECK(r["memory_per_device_bytes"].get<double>() < 80.0 * (1ull << 30));
  // Its bubble follows the 1F1B schedule: (p - 1) / (v m) of the balanced stage time, here with
  // 32 micro-batches per replica; the stages differ by a layer (126 over 16), so within 10 %.
  const double v = r["parallel"]["virtual_stages"].get<double>();
  CHECK(r["parallel"]["micro_batches"] == 32);
  CHECK(r["bubble_fraction"].get<double>() == Approx(15.0 / (v * 32)).epsilon(0.1));
}

TEST_CASE("torchtitan's op-level checkpointing reruns the element-wise work and half the products", "[transformer][recompute]") {
  // By hand from the response's per-operator rows: the recompute of one layer is the forward of
  // every memory-bound operator plus half the forward of each linear layer; the attention kernel
  // is kept.
  Json request = {{"command", "estimate"}, {"net", tiny_model()}, {"device", "H100_SXM"}, {"global_batch", 1},
                  {"recompute", "selective_op"}, {"precision", "bf16"}, {"zero", 0}};
  const Json r = answer(request);
  double expected = 0;
  for (const Json& row : r["layers"]) {
    const std::string name = row["name"], type = row["type"];
    if (name.rfind("attention.", 0) != 0 && name.rfind("mlp.", 0) != 0) continue;  // embedding, head
    const double fwd = row["forward"]["total_ms"].get<double>() * row["count"].get<double>();
    if (type == "Linear") expected += fwd / 2;
    else if (name != "attention.core") expected += fwd;
  }
  CHECK(r["breakdown"]["recompute_ms"].get<double>() == Approx(expected).epsilon(1e-9));
  CHECK(r["parallel"]["recompute"] == "selective_op");
  // It keeps less than no recompute and more than full recompute.
  request["recompute"] = "none";
  const double none = answer(request)["memory"]["activations_bytes"].get<double>();
  request["recompute"] = "full";
  const double full = answer(request)["memory"]["activations_bytes"].get<double>();
  const double op = r["memory"]["activations_bytes"].get<double>();
  CHECK(op < none);
  CHECK(op > full);
}

TEST_CASE("FSDP under a pipeline keeps the weights for the whole step: one gather, one scatter", "[transformer][zero3]") {
  // torchtitan's default policy (reshard_after_forward = not pp_enabled) and PyTorch's pipeline
  // stages, which keep the gathered weights and the unsharded gradients until the last
  // micro-batch. Two stages of two layers on 1 s links: the forward gathers (L + 1) times, the
  // backward scatters (L + 1) times, 6 collectives a step whatever the micro-batch count.
  Json request = zero3_request("H100_SXM", 4, {{"latency_us", 1e6}, {"bandwidth_gb_per_s", 1000}});
  request["software_era"] = "pytorch_fsdp_hopper_2024";
  request["collective_library"] = "any";  // the link's latency per step (NCCL prices its own)
  request["pp"] = 2;
  request["dp"] = 2;
  request["global_batch"] = 8;  // 4 micro-batches per replica
  const Json four = answer(request);
  CHECK(four["assumed"]["reshard_after_forward"] == false);
  CHECK(four["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(6 * 1000.0).epsilon(0.01));
  request["global_batch"] = 16;  // 8 micro-batches
  CHECK(answer(request)["breakdown"]["zero3_exposed_ms"].get<double>() == Approx(6 * 1000.0).epsilon(0.01));
  // The unsharded gradients and weights are held: each stage's full parameters, twice over.
  const double params = four["memory"]["params_bytes"].get<double>();
  request["reshard_after_forward"] = true;
  const Json resharded = answer(request);
  CHECK_FALSE(resharded["assumed"].contains("reshard_after_forward"));
  CHECK(params > resharded["memory"]["params_bytes"].get<double>());
  // Without a pipeline the same stack reshards after the forward pass.
  const Json flat = answer({{"command", "estimate"}, {"net", tiny_model()}, {"device", "H100_SXM"},
                            {"software_era", "pytorch_fsdp_hopper_2024"}, {"global_batch", 8}});
  CHECK(flat["assumed"]["reshard_after_forward"] == true);
}

TEST_CASE("torchao's float8 keeps no fp8 weights, and an unfused loss holds an fp32 copy of the logits", "[transformer][memory]") {
  Json request = {{"command", "estimate"}, {"net", tiny_model()}, {"device", "H100_SXM"}, {"precision", "fp8"},
                  {"global_batch", 4}, {"micro_batch", 4}, {"zero", 0}, {"recompute", "none"}};
  request["fp8_weight_copy"] = true;
  const Json te = answer(request);
  request["fp8_weight_copy"] = false;
  const Json torchao = answer(request);
  CHECK(te["memory"]["fp8_state_bytes"].get<double>() > 0);
  CHECK(torchao["memory"]["fp8_state_bytes"] == 0);
  // 4 x 128 tokens x a 1,024-entry vocabulary (padded to 1,024). Fused: the bf16 logits (2 bytes
  // each). Unfused, the backward's peak: nll_loss's fp32 gradient and log-softmax's fp32 gradient
  // beside the freed bf16 logits' block the allocator still holds (2 + 4 + 4 bytes, more than the
  // forward's 2 + 4): 8 more bytes each, by hand.
  request["fused_cross_entropy"] = false;
  const double unfused = answer(request)["memory"]["workspace_bytes"].get<double>();
  CHECK(unfused - torchao["memory"]["workspace_bytes"].get<double>() == Approx(4.0 * 128 * 1024 * 8));
}

TEST_CASE("tp smallest_that_fits is the first power of two whose explicit estimate fits", "[transformer][defaults]") {
  // The page's starting layout: 8 H100s, 64 sequences, selective recompute, ZeRO 1; sequence
  // parallel with tp. The smallest tp is found here by asking for each in turn.
  for (const char* net : {"llama3_8b", "llama2_13b", "gpt3_13b"}) {
    INFO(net);
    Json request = {{"command", "estimate"}, {"net", net}, {"device", "H100_SXM"}, {"nodes", 1},
                    {"devices_per_node", 8}, {"global_batch", 64}, {"micro_batch", 1}, {"recompute", "selective"},
                    {"zero", 1}, {"precision", "bf16"}};
    std::int64_t expected = 0;
    for (std::int64_t tp = 1; tp <= 8 && expected == 0; tp *= 2) {
      Json explicit_tp = request;
      explicit_tp["tp"] = tp;
      explicit_tp["sequence_parallel"] = tp > 1;
      if (answer(explicit_tp)["fits"] == true) expected = tp;
    }
    REQUIRE(expected > 0);
    request["tp"] = "smallest_that_fits";
    const Json r = answer(request);
    CHECK(r["parallel"]["tp"] == expected);
    CHECK(r["parallel"]["dp"] == 8 / expected);
    if (expected > 1) CHECK(r["parallel"]["sequence_parallel"] == true);  // the Hopper stack's default
    CHECK(r["assumed"]["tp"] == expected);
    CHECK(r["fits"] == true);
  }
  // Where none fits, the largest: Llama 3 70B does not fit 8 H100s at this batch.
  const Json none = answer({{"command", "estimate"}, {"net", "llama3_70b"}, {"device", "H100_SXM"}, {"nodes", 1},
                            {"devices_per_node", 8}, {"global_batch", 64}, {"recompute", "selective"}, {"zero", 1},
                            {"tp", "smallest_that_fits"}});
  CHECK(none["parallel"]["tp"] == 8);
  CHECK(none["fits"] == false);
  // Only an estimate chooses, and dp then follows.
  const Json plan = paleo::handle_request({{"command", "inference"}, {"net", "llama3_8b"}, {"tp", "smallest_that_fits"}});
  CHECK(plan["error"]["field"] == "tp");
  const Json dp = paleo::handle_request({{"command", "estimate"}, {"net", "llama3_8b"}, {"tp", "smallest_that_fits"}, {"dp", 2}});
  CHECK(dp["error"]["field"] == "dp");
  const Json bad = paleo::handle_request({{"command", "estimate"}, {"net", "llama3_8b"}, {"tp", "biggest"}});
  CHECK(bad["error"]["field"] == "tp");
}

TEST_CASE("an estimate that names no layout and does not fit says which tp fits", "[transformer][defaults]") {
  // Llama 3 70B on 8 nodes of 8 H100s, 512 sequences: at tp 1 each GPU holds the whole model
  // (about 140 GB in bf16 alone, above 80 GB). The hint must name the tp that
  // "smallest_that_fits" chooses, whose estimate fits, and the half of it must not fit.
  const Json base = {{"command", "estimate"}, {"net", "llama3_70b"}, {"device", "H100_SXM"}, {"nodes", 8},
                     {"devices_per_node", 8}, {"global_batch", 512}, {"recompute", "full"}, {"zero", 1}};
  const Json silent = answer(base);
  REQUIRE(silent["fits"] == false);
  Json chosen_request = base;
  chosen_request["tp"] = "smallest_that_fits";
  const Json chosen = answer(chosen_request);
  REQUIRE(chosen["fits"] == true);
  const std::int64_t tp = chosen["parallel"]["tp"].get<std::int64_t>();
  Json half = base;
  half["tp"] = tp / 2;
  half["sequence_parallel"] = tp / 2 > 1;
  CHECK(answer(half)["fits"] == false);
  const std::string expected = "tp " + std::to_string(tp) + " with dp " + std::to_string(64 / tp) + " fits";
  bool hinted = false;
  for (const Json& w : silent["warnings"]) hinted = hinted || w.get<std::string>().find(expected) != std::string::npos;
  CHECK(hinted);
  // A request that names its layout gets no hint: the user chose it.
  Json named = base;
  named["tp"] = 1;
  const Json named_answer = answer(named);
  for (const Json& w : named_answer["warnings"])
    CHECK(w.get<std::string>().find("names no layout") == std::string::npos);
}
