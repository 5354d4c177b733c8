// Tensor-parallel communication overlapped with the linear layers' GEMMs (tp_comm_overlap): the
// exposed share of the pieces by hand, which passes overlap, that nothing changes without
// sequence parallelism or a request that asks, and torchtitan's measured async-TP speedup.
#include <catch2/catch.hpp>

#include <string>

#include "api_answer.h"
#include "core/api.h"
#include "core/transformer/layer_communication.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& answer = ok_answer;  // tests/api_answer.h

// Llama 3 8B on one 8-GPU H100 node, TP 8 with sequence parallelism, one micro-batch of 8,192
// tokens per GPU: every layer's TP collectives are on the critical path unless overlapped.
Json tp8_request(const Json& extra) {
  Json r = {{"command", "estimate"},
            {"net", "llama3_8b"},
            {"device", "H100_SXM"},
            {"cluster", "dgx_h100_ndr"},
            {"nodes", 1},
            {"devices_per_node", 8},
            {"precision", "bf16"},
            {"seq_len", 8192},
            {"global_batch", 8},
            {"micro_batch", 1},
            {"tp", 8},
            {"zero", 1},
            {"sequence_parallel", true},
            {"recompute", "none"},
            {"software_era", "megatron_lm_2021"}};
  for (auto it = extra.begin(); it != extra.end(); ++it) r[it.key()] = it.value();
  return r;
}

double tp_comm_ms(const Json& extra) { return answer(tp8_request(extra))["breakdown"]["tp_comm_ms"].get<double>(); }

}  // namespace

TEST_CASE("Overlapped TP collectives leave one piece exposed, more when they outrun the GEMMs", "[transformer][tp]") {
  // 8 ms of collectives in 4 pieces under 4 ms of GEMMs: three pieces move under three GEMM
  // pieces (3 ms of GEMM hide 3 ms), 5 ms stay exposed.
  CHECK(paleo::overlapped_tp_ms(8, 4, 4) == Approx(5));
  // 1 ms in 8 pieces under 10 ms of GEMMs: all but one piece, 1/8 ms, hidden.
  CHECK(paleo::overlapped_tp_ms(1, 10, 8) == Approx(0.125));
  // One piece: nothing to overlap with.
  CHECK(paleo::overlapped_tp_ms(3, 10, 1) == Approx(3));
  CHECK(paleo::overlapped_tp_ms(0, 10, 8) == Approx(0));
}

TEST_CASE("tp_comm_overlap hides the forward's or both passes' TP collectives, only with sequence parallelism",
          "[transformer][tp]") {
  const double none = tp_comm_ms({{"tp_comm_overlap", "none"}});
  const double forward = tp_comm_ms({{"tp_comm_overlap", "forward"}});
  const double both = tp_comm_ms({{"tp_comm_overlap", "forward_backward"}});
  CHECK(none > 0);
  CHECK(forward < none);
  CHECK(both < forward);
  // Without recompute the forward and backward move the same bytes: the forward overlap hides at
  // most half, and the backward's hiding is the rest.
  CHECK(none - forward <= 0.5 * none + 1e-9);
  CHECK(answer(tp8_request({{"tp_comm_overlap", "none"}}))["step_ms"].get<double>() >
        answer(tp8_request({{"tp_comm_overlap", "forward_backward"}}))["step_ms"].get<double>());

  // All-reduces (no sequence parallelism) are not split: the field changes nothing.
  const Json plain_none = answer(tp8_request({{"sequence_parallel", false}, {"tp_comm_overlap", "none"}}));
  const Json plain_both = answer(tp8_request({{"sequence_parallel", false}, {"tp_comm_overlap", "forward_backward"}}));
  CHECK(plain_both["step_ms"].get<double>() == Approx(plain_none["step_ms"].get<double>()));

  const Json bad = paleo::handle_request(tp8_request({{"tp_comm_overlap", "yes"}}));
  REQUIRE_FALSE(bad["ok"].get<bool>());
  CHECK(bad["error"]["field"] == "tp_comm_overlap");
}

TEST_CASE("No stack overlaps TP communication unless the request says so", "[transformer][tp]") {
  // The overlap is a launch option (Megatron-Core's --tp-comm-overlap, torchtitan's
  // enable_async_tensor_parallel), off in both stacks' defaults.
  Json request = tp8_request({});
  request.erase("software_era");  // the H100's default era: megatron_core_hopper_2024
  const Json out = answer(request);
  CHECK_FALSE(out["assumed"].contains("tp_comm_overlap"));
  request["tp_comm_overlap"] = "none";
  CHECK(answer(request)["breakdown"]["tp_comm_ms"].get<double>() ==
        Approx(out["breakdown"]["tp_comm_ms"].get<double>()));
}

TEST_CASE("torchtitan's async TP speedup on Llama 3.1 8B, 64 H100, FSDP 8 x TP 8, within 5 %", "[transformer][tp]") {
  // benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md: bf16, vanilla 4378 and async 4809.4
  // tokens/s per GPU (1.10x).
  Json r = {{"command", "estimate"},
            {"net", "llama3_8b"},
            {"device", "H100_SXM"},
            {"software_era", "pytorch_fsdp_hopper_2024"},
            {"cluster", "dgx_h100_ndr"},
            {"nodes", 8},
            {"devices_per_node", 8},
            {"precision", "bf16"},
            {"seq_len", 8192},
            {"global_batch", 96},
            {"micro_batch", 12},
            {"tp", 8},
            {"sequence_parallel", true},
            {"recompute", "selective_op"},
            {"zero", 3},
            {"fused_elementwise", true}};
  r["tp_comm_overlap"] = "none";
  const double vanilla = answer(r)["tokens_per_s"].get<double>();
  r["tp_comm_overlap"] = "forward";
  const double async = answer(r)["tokens_per_s"].get<double>();
  CHECK(async / vanilla == Approx(4809.4 / 4378).epsilon(0.05));
}
