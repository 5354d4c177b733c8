// PyTorch's eager composites of RMSNorm, the rotary embedding and SwiGLU against one fused kernel
// each (fused_elementwise): the bytes and kernels counted by hand from the elementary operators of
// torchtitan's model code, and what the request field changes in an estimate.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "api_answer.h"
#include "core/api.h"
#include "core/transformer/layer_ops.h"
#include "llama3_shape.h"

namespace {

using Json = nlohmann::ordered_json;

constexpr auto& answer = ok_answer;  // tests/api_answer.h

const paleo::TransformerOp& op_named(const std::vector<paleo::TransformerOp>& ops, const std::string& name) {
  for (const paleo::TransformerOp& op : ops)
    if (op.name == name) return op;
  FAIL("no operator " << name);
  return ops.front();
}

paleo::OpContext context(bool fused) {
  paleo::OpContext x;
  x.micro_batch = 2;
  x.seq_len = 128;
  x.activations = paleo::Dtype::kBf16;
  x.fused_elementwise = fused;
  return x;
}

Json llama_request(const Json& extra) {
  Json r = {{"command", "estimate"},
            {"net", "llama3_8b"},
            {"device", "H100_SXM"},
            {"software_era", "pytorch_fsdp_hopper_2024"},
            {"cluster", "dgx_h100_ndr"},
            {"nodes", 1},
            {"devices_per_node", 8},
            {"precision", "bf16"},
            {"seq_len", 8192},
            {"micro_batch", 2},
            {"recompute", "selective_op"}};
  r.update(extra);
  return r;
}

}  // namespace

TEST_CASE("Eager RMSNorm, rotary and SwiGLU: bytes and kernels of their elementary operators", "[transformer][eager]") {
  const paleo::TransformerConfig c = llama3_8b_layers(2);
  const std::vector<paleo::TransformerOp> fused = paleo::layer_ops(c, context(true), false);
  const std::vector<paleo::TransformerOp> eager = paleo::layer_ops(c, context(false), false);
  const double tokens = 2 * 128, h = 4096;

  // RMSNorm, per element, bf16 in and out (2 B), fp32 inside (4 B). Forward: float() 2 + 4,
  // pow(2) 4 + 4, mean 4, x * rsqrt 4 + 4, type_as 4 + 2, * weight 2 + 2 = 36; 8 kernels with
  // + eps and rsqrt. Backward: * weight's two gradients 2 + 2 and 2 + 2 + 2 + 2, type_as 2 + 4,
  // x * rsqrt's two 4 + 4 and 4 + 4 + 4 + 4, mean's expanded gradient 4, pow's three kernels
  // 4 + 4, 4 + 4, 4 + 4 + 4, the fp32 gradients added 4 + 4 + 4, float() 4 + 2 = 92; 14 kernels.
  const paleo::TransformerOp& norm = op_named(eager, "attention.norm");
  CHECK(norm.fwd_bytes == Approx(tokens * h * 36));
  CHECK(norm.bwd_bytes == Approx(tokens * h * 92));
  CHECK(norm.fwd_kernels == 8);
  CHECK(norm.bwd_kernels == 14);
  CHECK(op_named(fused, "attention.norm").fwd_bytes == Approx(tokens * h * 4));  // read x, write y
  CHECK(op_named(fused, "attention.norm").bwd_bytes == Approx(tokens * h * 6));
  CHECK(op_named(fused, "attention.norm").fwd_kernels == 1);

  // Rotary over Q and K (32 + 8 heads of 128 columns): float() 2 + 4, times the frequencies
  // 4 + 4, type_as 4 + 2 = 20 each way, 3 kernels each way.
  const double qk = tokens * (4096 + 1024);
  CHECK(op_named(eager, "attention.rotary").fwd_bytes == Approx(qk * 20));
  CHECK(op_named(eager, "attention.rotary").bwd_bytes == Approx(qk * 20));
  CHECK(op_named(eager, "attention.rotary").fwd_kernels == 3);
  CHECK(op_named(fused, "attention.rotary").fwd_bytes == Approx(qk * 4));

  // SwiGLU per output element: silu 2 + 2, times w3(x) 4 + 2 = 10; backward: two products
  // 4 + 2 each and silu's 4 + 2 = 18; 2 and 3 kernels.
  const double ffn = tokens * 14336;
  CHECK(op_named(eager, "mlp.act").fwd_bytes == Approx(ffn * 10));
  CHECK(op_named(eager, "mlp.act").bwd_bytes == Approx(ffn * 18));
  CHECK(op_named(eager, "mlp.act").bwd_kernels == 3);
  CHECK(op_named(fused, "mlp.act").fwd_bytes == Approx(ffn * 6));

  // The residual adds and the matrix products are the same either way.
  CHECK(op_named(eager, "attention.dropout_add").fwd_bytes == op_named(fused, "attention.dropout_add").fwd_bytes);
  CHECK(op_named(eager, "mlp.down").m == op_named(fused, "mlp.down").m);
}

TEST_CASE("LayerNorm, GELU and learned positions are single kernels in eager PyTorch too", "[transformer][eager]") {
  paleo::TransformerConfig c = llama3_8b_layers(2);
  c.norm = paleo::NormKind::kLayerNorm;
  c.activation = paleo::Activation::kGelu;
  c.position = paleo::PositionKind::kLearned;
  const std::vector<paleo::TransformerOp> fused = paleo::layer_ops(c, context(true), false);
  const std::vector<paleo::TransformerOp> eager = paleo::layer_ops(c, context(false), false);
  REQUIRE(fused.size() == eager.size());
  for (std::size_t i = 0; i < fused.size(); ++i) {
    CHECK(eager[i].fwd_bytes == fused[i].fwd_bytes);
    CHECK(eager[i].bwd_bytes == fused[i].bwd_bytes);
    CHECK(eager[i].fwd_kernels == fused[i].fwd_kernels);
  }
}

TEST_CASE("fused_elementwise: the PyTorch-native era runs eagerly unless the request says compiled",
          "[transformer][eager][api]") {
  const Json eager = answer(llama_request(Json::object()));
  CHECK(eager["assumed"]["fused_elementwise"] == false);
  const Json compiled = answer(llama_request({{"fused_elementwise", true}}));
  CHECK_FALSE(compiled["assumed"].contains("fused_elementwise"));
  // Same products, same communication: only the element-wise work differs, and it is slower eagerly.
  CHECK(eager["model_flops_per_step"].get<double>() == compiled["model_flops_per_step"].get<double>());
  CHECK(eager["step_ms"].get<double>() > compiled["step_ms"].get<double>());
  CHECK(eager["breakdown"]["compute_ms"].get<double>() - compiled["breakdown"]["compute_ms"].get<double>() > 0);
  // The Megatron era's fused kernels are the default; asking for the composites slows it down.
  Json megatron = llama_request({{"software_era", "megatron_core_hopper_2024"}});
  const Json fused_default = answer(megatron);
  CHECK_FALSE(fused_default["assumed"].contains("fused_elementwise"));
  megatron["fused_elementwise"] = false;
  CHECK(answer(megatron)["step_ms"].get<double>() > fused_default["step_ms"].get<double>());

  const Json bad = paleo::handle_request(llama_request({{"fused_elementwise", "yes"}}));
  REQUIRE(bad["ok"] == false);
  CHECK(bad["error"]["field"] == "fused_elementwise");
}
