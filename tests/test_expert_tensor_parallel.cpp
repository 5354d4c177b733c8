// Expert tensor parallelism (expert_tp) and Megatron-Core's parallel folding: the experts' ranks
// (expert_tp x ep x expert data-parallel) laid over a stage's tp x cp x dp ranks. By hand: where
// the expert-parallel group sits, an expert's products and parameters per device, the all-to-all's
// bytes and the MoE layer's TP collectives; which layouts are refused, naming the field.
#include <catch2/catch.hpp>

#include <string>

#include "api_answer.h"
#include "core/api.h"
#include "core/transformer/device_groups.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& answer = ok_answer;  // tests/api_answer.h

// Mixtral 8x7B (8 experts, top 2, inner size 14336, hidden 4096) on one 8-GPU H100 node, TP 2
// with sequence parallelism, one micro-batch of 4,096 tokens.
Json mixtral_request(const Json& extra) {
  Json r = {{"command", "estimate"},
            {"net", "mixtral_8x7b"},
            {"device", "H100_SXM"},
            {"cluster", "dgx_h100_ndr"},
            {"nodes", 1},
            {"devices_per_node", 8},
            {"precision", "bf16"},
            {"seq_len", 4096},
            {"global_batch", 4},
            {"micro_batch", 1},
            {"tp", 2},
            {"sequence_parallel", true},
            {"zero", 1}};
  r.update(extra);
  return r;
}

std::string error_field(const Json& request) {
  const Json out = paleo::handle_request(request);
  INFO(out.dump().substr(0, 600));
  REQUIRE_FALSE(out.value("ok", true));
  return out["error"]["field"].get<std::string>();
}

}  // namespace

TEST_CASE("expert_tp defaults to tp, and stating it changes nothing", "[transformer][moe]") {
  const Json implicit = answer(mixtral_request({{"ep", 4}}));
  const Json stated = answer(mixtral_request({{"ep", 4}, {"expert_tp", 2}}));
  CHECK(implicit["parallel"]["expert_tp"] == 2);
  CHECK(stated["step_ms"].get<double>() == implicit["step_ms"].get<double>());
  CHECK(stated["memory_per_device_bytes"].get<double>() == implicit["memory_per_device_bytes"].get<double>());
}

TEST_CASE("The expert-parallel group sits expert_tp ranks apart", "[transformer][moe]") {
  // Two nodes of 8, TP 2, DP 8: ranks are numbered TP fastest. EP 8 at expert_tp 1 takes ranks
  // 0..7 (one node); at expert_tp 2 it takes ranks 0, 2, ..., 14 (both nodes).
  paleo::Cluster cluster;
  cluster.nodes = 2;
  cluster.devices_per_node = 8;
  paleo::ParallelLayout p;
  p.tp = 2;
  p.dp = 8;
  p.ep = 8;
  p.expert_tp = 1;
  paleo::LayoutGroups folded = paleo::layout_groups(cluster, p);
  CHECK(folded.ep.size == 8);
  CHECK_FALSE(folded.ep.crosses_nodes());
  CHECK(folded.expert_dp.size == 2);  // 2 x 8 / (1 x 8)
  p.expert_tp = 2;
  paleo::LayoutGroups split = paleo::layout_groups(cluster, p);
  CHECK(split.ep.crosses_nodes());
  CHECK(split.expert_dp.size == 1);  // 2 x 8 / (2 x 8)
  p.expert_tp = 0;                   // = tp
  CHECK(paleo::layout_groups(cluster, p).expert_dp.size == split.expert_dp.size);
}

TEST_CASE("Below tp an expert is whole on its device and sees its tokens from every TP rank", "[transformer][moe]") {
  // EP 8 over TP 2 x DP 4 at expert_tp 1: one whole expert per device. Each TP rank routes its
  // 2,048 tokens (sequence parallel), top 2, to 8 experts over 8 devices: 4,096 x 2 / 2 = 4,096
  // token copies per device, through the up-projection of 2 x 14336 (gated) by 4096.
  const Json folded = answer(mixtral_request({{"ep", 8}, {"expert_tp", 1}, {"command", "layers"}}));
  const Json& up = layer_row(folded, "mlp.experts.up");
  CHECK(up["forward"]["flops"].get<double>() == Approx(2.0 * 4096 * (2 * 14336) * 4096));
  CHECK(up["params"].get<double>() == Approx(4096.0 * 2 * 14336));
  // At expert_tp 2 (EP 4): 2 experts a device, each half as wide, 8,192 token copies: the same work.
  const Json split = answer(mixtral_request({{"ep", 4}, {"command", "layers"}}));
  const Json& up_split = layer_row(split, "mlp.experts.up");
  CHECK(up_split["forward"]["flops"].get<double>() == Approx(2.0 * 8192 * 14336 * 4096));
  CHECK(up_split["params"].get<double>() == Approx(2 * 4096.0 * 14336));
}

TEST_CASE("Folded experts send half the all-to-all and skip the MLP's TP collectives", "[transformer][moe]") {
  // EP 4 inside the node either way. At expert_tp 1 a device dispatches its own 2,048 tokens x 2
  // (not the TP group's 4,096 x 2): half the bytes. Its MoE layers keep only the attention's TP
  // collectives (the MLP's all-gather and reduce-scatter go), so every layer's TP time halves; the
  // embedding's and the head's stay.
  const Json folded = answer(mixtral_request({{"ep", 4}, {"expert_tp", 1}}));
  const Json split = answer(mixtral_request({{"ep", 4}}));
  const double ep_ratio =
      folded["breakdown"]["ep_comm_ms"].get<double>() / split["breakdown"]["ep_comm_ms"].get<double>();
  CHECK(ep_ratio == Approx(0.5).margin(0.02));  // the latency terms keep it a little above 0.5
  CHECK(ep_ratio >= 0.5);
  const double tp_ratio =
      folded["breakdown"]["tp_comm_ms"].get<double>() / split["breakdown"]["tp_comm_ms"].get<double>();
  CHECK(tp_ratio > 0.5);
  CHECK(tp_ratio < 0.53);  // 32 layers halve; the embedding's and head's collectives are a few %
}

TEST_CASE("Expert layouts the ranks cannot hold are refused, naming the field", "[transformer][moe]") {
  // EP 8 is more than dp x cp = 4: only with the experts folded over the TP ranks.
  CHECK(error_field(mixtral_request({{"ep", 8}})) == "ep");
  CHECK(error_field(mixtral_request({{"ep", 8}, {"expert_tp", 3}})) == "ep");  // 3 x 8 does not divide 8
  CHECK(error_field(mixtral_request({{"ep", 8}, {"expert_tp", 1}, {"sequence_parallel", false}})) == "expert_tp");
  CHECK(error_field(mixtral_request({{"ep", 8}, {"expert_tp", 0}})) == "expert_tp");
  CHECK(error_field(mixtral_request({{"net", "llama3_8b"}, {"expert_tp", 2}})) == "expert_tp");
}
