#include "core/api/transformer_response.h"

#include "core/api/device_section.h"
#include "core/base/error.h"
#include "core/cost/time_to_train.h"
#include "core/planner/layout_planner.h"
#include "core/planner/stack_choices.h"
#include "core/transformer/inference_step.h"
#include "core/api/serving_request.h"
#include "core/api/zero3_plan_stack.h"
#include "core/transformer/training_step.h"
#include "core/validation/expected_error.h"

namespace paleo {
namespace {

Cluster request_cluster(const Request& r) {
  if (r.scenario.has_cluster) return r.scenario.cluster;
  Cluster one;
  one.key = "single";
  one.name = "one device";
  return one;
}

// The request's warnings (the cluster's assumptions, a device other than the cluster's), then the
// model's.
std::vector<std::string> with_request_warnings(const Request& r, const std::vector<std::string>& model) {
  std::vector<std::string> all = r.warnings;
  all.insert(all.end(), model.begin(), model.end());
  return all;
}

Json model_json(const TransformerRequest& t) {
  const ParameterCount p = parameter_count(t.net.config);
  Json j = {{"key", t.net.key}, {"name", t.net.name}, {"source", t.net.source},
            {"config", transformer_config_json(t.net.config)},
            {"params", p.total}, {"active_params", p.active_total},
            {"params_breakdown", {{"embedding", p.embedding}, {"per_layer_attention", p.per_layer_attention},
                                  {"per_layer_norms", p.per_layer_norms}, {"dense_mlp", p.dense_mlp},
                                  {"moe_mlp", p.moe_mlp}, {"layers_total", p.layers_total},
                                  {"final_norm", p.final_norm}, {"head", p.head}}}};
  for (auto it = t.net.meta.begin(); it != t.net.meta.end(); ++it) j[it.key()] = it.value();
  return j;
}

Json layout_json(const TrainingEstimate& e) {
  const ParallelLayout& p = e.options.parallel;
  const TrainingOptions& o = e.options;
  return {{"devices", e.devices},
          {"tp", p.tp},
          {"pp", p.pp},
          {"dp", p.dp},
          {"cp", p.cp},
          {"ep", p.ep},
          {"expert_tp", p.etp()},
          {"virtual_stages", p.virtual_stages},
          {"sequence_parallel", p.sequence_parallel},
          {"schedule", p.virtual_stages > 1 ? "interleaved_1f1b" : o.schedule},
          {"micro_batch", o.micro_batch},
          {"micro_batches", e.micro_batches},
          {"global_batch", o.global_batch},
          {"seq_len", o.seq_len},
          {"recompute", recompute_name(o.recompute)},
          {"zero", o.zero},
          {"attention", attention_name(o.attention)},
          {"overlap", o.overlap}};
}

Json parallel_json(const TrainingEstimate& e) {
  Json j = layout_json(e);
  if (e.options.zero >= 3) j["zero3_gather"] = zero3_gather_name(e.options.zero3_gather);
  j["collective_library"] = collective_library_name(e.options.collective_library);
  return j;
}

Json memory_json(const TransformerMemory& m) {
  return {{"stage", m.stage},
          {"params_bytes", m.params_bytes},
          {"gradients_bytes", m.gradients_bytes},
          {"optimizer_bytes", m.optimizer_bytes},
          {"activations_bytes", m.activations_bytes},
          {"fp8_state_bytes", m.fp8_state_bytes},
          {"workspace_bytes", m.workspace_bytes},
          {"allocator_reserved_bytes", m.allocator_reserved_bytes()},
          {"runtime_bytes", m.runtime_bytes},
          {"total_bytes", m.total_bytes()},
          {"capacity_bytes", m.capacity_bytes},
          {"fits", m.fits()}};
}

Json breakdown_json(const StepBreakdown& b) {
  return {{"compute_ms", b.compute_ms}, {"recompute_ms", b.recompute_ms}, {"tp_comm_ms", b.tp_comm_ms},
          {"cp_comm_ms", b.cp_comm_ms}, {"ep_comm_ms", b.ep_comm_ms}, {"pp_comm_ms", b.pp_comm_ms},
          {"bubble_ms", b.bubble_ms}, {"dp_comm_ms", b.dp_comm_ms}, {"dp_exposed_ms", b.dp_exposed_ms},
          {"zero3_exposed_ms", b.zero3_exposed_ms}, {"optimizer_ms", b.optimizer_ms}};
}

Json op_rows_json(const std::vector<OpRow>& rows) {
  Json out = Json::array();
  for (const OpRow& r : rows) {
    Json row = {{"name", r.name}, {"type", r.type}, {"count", r.count},
                {"forward", {{"total_ms", r.fwd_ms}, {"flops", r.fwd_flops}}},
                {"backward", {{"total_ms", r.bwd_ms}, {"flops", r.bwd_flops}}},
                {"params", r.params}, {"activation_bytes", r.saved_bytes}};
    if (r.m > 0) row["shape"] = {{"m", r.m}, {"n", r.n}, {"k", r.k}};
    out.push_back(std::move(row));
  }
  return out;
}

Json train_json(const TrainingEstimate& e, const TransformerRequest& t) {
  if (t.train_tokens <= 0) return nullptr;
  const TimeToTrain train = time_to_train(t.train_tokens / e.tokens_per_step, e.step_ms,
                                          static_cast<double>(e.devices), t.price_per_gpu_hour);
  Json j = {{"tokens", t.train_tokens}, {"steps", train.steps}, {"time_s", train.time_s},
            {"time_days", train.time_days}, {"device_hours", train.device_hours}};
  if (t.price_per_gpu_hour > 0) {
    j["price_per_gpu_hour"] = t.price_per_gpu_hour;
    j["cost_usd"] = train.cost_usd;
    if (!t.price_key.empty()) j["price_key"] = t.price_key;
  }
  return j;
}

Json era_json(const SoftwareEra& era) {
  Json j = {{"key", era.key}, {"name", era.name}, {"efficiency", efficiency_json(era.efficiency)}};
  if (!era.chosen_by.empty()) j["chosen_by"] = era.chosen_by;
  return j;
}

Json cluster_json(const Cluster& c) {
  return {{"key", c.key}, {"name", c.name}, {"nodes", c.nodes}, {"devices_per_node", c.devices_per_node},
          {"intra", c.intra.key}, {"inter", c.inter.key}, {"nics_per_node", c.nics_per_node},
          {"assumed", c.assumed}, {"assumed_from", c.assumed_from.empty() ? Json() : Json(c.assumed_from)}};
}

// The request's options with the choices it left to its stack made on its cluster, and the
// fields so assumed (with the values chosen).
struct ResolvedTraining {
  TrainingOptions options;
  Json assumed;
};

ResolvedTraining resolve_training(const Request& r) {
  const TransformerRequest& t = r.transformer;
  ResolvedTraining out{t.training, t.assumed};
  const StackChoices which{t.recompute_auto, t.virtual_stages_auto};
  if (t.tp_auto) {
    out.options = smallest_tp_that_fits(t.net.config, t.training, r.scenario.device, request_cluster(r), which,
                                        t.sequence_parallel_follows_tp, !t.global_batch_given);
    out.assumed["tp"] = out.options.parallel.tp;
    if (t.sequence_parallel_follows_tp) out.assumed["sequence_parallel"] = out.options.parallel.sequence_parallel;
  } else if (!t.recompute_auto && !t.virtual_stages_auto) {
    return out;
  } else {
    out.options = resolve_stack_choices(t.net.config, t.training, r.scenario.device, request_cluster(r), which);
  }
  if (t.recompute_auto) out.assumed["recompute"] = recompute_name(out.options.recompute);
  if (t.virtual_stages_auto) out.assumed["virtual_stages"] = out.options.parallel.virtual_stages;
  return out;
}

// A request that names no layout and does not fit gets the layout a user tries first: the
// smallest tensor parallelism that fits (the same choice as "tp": "smallest_that_fits").
std::string smallest_fitting_tp_hint(const Request& r) {
  const TransformerRequest& t = r.transformer;
  const StackChoices which{t.recompute_auto, t.virtual_stages_auto};
  const TrainingOptions o = smallest_tp_that_fits(t.net.config, t.training, r.scenario.device, request_cluster(r),
                                                  which, t.sequence_parallel_follows_tp, !t.global_batch_given);
  const TrainingEstimate fitted = estimate_training(t.net.config, o, r.scenario.device, request_cluster(r));
  if (!fitted.memory.fits() || o.parallel.tp == t.training.parallel.tp) return "";
  return "the request names no layout and tp " + std::to_string(t.training.parallel.tp) +
         " does not fit: tp " + std::to_string(o.parallel.tp) + " with dp " + std::to_string(o.parallel.dp) +
         " fits (" + std::to_string(static_cast<long long>(fitted.memory.total_bytes() / 1e9 + 0.5)) +
         " GB a device); ask \"tp\": \"smallest_that_fits\" (--tp smallest_that_fits), or plan for the fastest layout";
}

// "name value, name value" of an `assumed` object.
std::string assumed_list(const Json& assumed) {
  std::string text;
  for (auto it = assumed.begin(); it != assumed.end(); ++it)
    text += (text.empty() ? "" : ", ") + it.key() + " " + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  return text;
}

// "assumed the defaults of <stack> where the request is silent: zero 1, ..."
std::string assumed_warning(const Json& assumed, const SoftwareEra& era) {
  return "assumed the defaults of " + era.name + " where the request is silent: " + assumed_list(assumed);
}

// Why a ZeRO-3 request that names no era runs on another stack than its generation's default.
std::string zero3_stack_warning(const SoftwareEra& era, const std::string& what) {
  return what + " priced on " + era.name + " (" + era.key +
         "): Megatron, the generation's default stack, shards no parameters; name software_era for another stack";
}

Json estimate_json(const Request& r) {
  const TransformerRequest& t = r.transformer;
  const ResolvedTraining resolved = resolve_training(r);
  const TrainingEstimate e = estimate_training(t.net.config, resolved.options, r.scenario.device, request_cluster(r));
  Json out = {{"ok", true}, {"command", r.command}, {"kind", "transformer"},
              {"step_ms", e.step_ms}, {"tokens_per_s", e.tokens_per_s}, {"samples_per_s", e.samples_per_s},
              {"model_tflops_per_gpu", e.model_tflops_per_gpu}, {"hardware_tflops_per_gpu", e.hardware_tflops_per_gpu},
              {"mfu", e.mfu}, {"hfu", e.hfu}, {"memory_per_device_bytes", e.memory.total_bytes()},
              {"fits", e.memory.fits()}, {"max_micro_batch", e.max_micro_batch},
              {"model_flops_per_step", e.model_flops_per_step}, {"hardware_flops_per_step", e.hardware_flops_per_step},
              {"tokens_per_step", e.tokens_per_step}, {"peak_tflops_per_gpu", e.peak_tflops_per_gpu},
              {"pipeline_ms", e.pipeline_ms}, {"bubble_fraction", e.bubble_fraction},
              {"breakdown", breakdown_json(e.breakdown)}, {"memory", memory_json(e.memory)},
              {"parallel", parallel_json(e)}, {"precision", precision_json(t.training.precision)},
              {"software_era", era_json(t.era)},
              {"model", model_json(t)}, {"device", device_json(r.scenario.device)},
              {"cluster", cluster_json(request_cluster(r))}};
  Json train = train_json(e, t);
  if (!train.is_null()) out["train"] = train;
  out["layers"] = op_rows_json(e.ops);
  out["assumed"] = resolved.assumed;
  out["warnings"] = with_request_warnings(r, e.warnings);
  if (!resolved.assumed.empty()) out["warnings"].push_back(assumed_warning(resolved.assumed, t.era));
  if (t.era.chosen_by == "zero3") out["warnings"].push_back(zero3_stack_warning(t.era, "ZeRO 3 with no software_era:"));
  if (!e.memory.fits() && t.layout_silent) {
    const std::string hint = smallest_fitting_tp_hint(r);
    if (!hint.empty()) out["warnings"].push_back(hint);
  }
  // How far estimates of this kind land from published measurements (docs/validation.md); a
  // mixture of experts' training has its own family, which the dense runs' band would flatter.
  out["expected_error"] = expected_error_json(t.net.config.moe.enabled() ? "moe_training" : "transformers");
  return out;
}

Json plan_json(const Request& r) {
  const TransformerRequest& t = r.transformer;
  const Cluster cluster = request_cluster(r);
  const LayoutPlan plan = plan_layouts(t.net.config, t.training, r.scenario.device, cluster, t.top,
                                       t.zero3_plan ? &t.zero3_plan->training : nullptr);
  Json candidates = Json::array();
  std::int64_t rank = 0;
  for (const PlanCandidate& c : plan.ranked) {
    const ParallelLayout& p = c.options.parallel;
    candidates.push_back({{"rank", ++rank}, {"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"cp", p.cp},
                          {"micro_batch", c.options.micro_batch}, {"virtual_stages", p.virtual_stages},
                          {"sequence_parallel", p.sequence_parallel}, {"recompute", recompute_name(c.options.recompute)},
                          {"zero", c.options.zero}, {"step_ms", c.step_ms}, {"tokens_per_s", c.tokens_per_s},
                          {"mfu", c.mfu}, {"memory_per_device_bytes", c.memory_bytes}, {"fits", true},
                          {"breakdown", breakdown_json(c.breakdown)}});
  }
  Json out = {{"ok", true},
              {"command", "plan"},
              {"kind", "transformer"},
              {"model", model_json(t)},
              {"device", device_json(r.scenario.device)},
              {"cluster", cluster_json(cluster)},
              {"devices", cluster.devices()},
              {"global_batch", t.training.global_batch},
              {"seq_len", t.training.seq_len},
              {"precision", precision_json(t.training.precision)},
              {"software_era", era_json(t.era)},
              {"evaluated", plan.evaluated},
              {"feasible", plan.feasible},
              {"candidates", candidates},
              {"why", plan.why},
              {"warnings", with_request_warnings(r, {})}};
  if (t.zero3_plan) {
    out["zero3_software_era"] = era_json(t.zero3_plan->era);
    out["warnings"].push_back(zero3_stack_warning(t.zero3_plan->era, "ZeRO-3 layouts (no software_era):"));
  }
  return out;
}

Json inference_json(const Request& r) {
  const TransformerRequest& t = r.transformer;
  // A replica is priced on its tp x pp devices: a served MoE's experts are split by tp, and the
  // prompt is not split along the sequence, so neither layout may pass for one that is priced.
  if (t.training.parallel.cp > 1)
    throw Error("context parallelism is not priced for serving (a replica runs on tp x pp devices): leave cp out", "",
                "cp");
  if (t.training.parallel.ep > 1)
    throw Error("expert parallelism is not priced for serving (the experts are split by tp): leave ep out", "", "ep");
  // The engine's own options as the request read them (kv_cache, runtime, decode attention,
  // routing skew), then the model's and the batch's.
  InferenceOptions o = t.serving.inference;
  o.batch = t.batch;
  o.prompt_len = t.prompt_len > 0 ? t.prompt_len : t.training.seq_len;
  o.generate_len = t.generate_len;
  o.tp = t.training.parallel.tp;
  o.precision = t.training.precision;
  o.attention = t.training.attention;
  o.efficiency = t.training.efficiency;
  o.cuda_graph_decode = t.serving.cuda_graphs;  // a static batch's decode steps carry no prompt
  ServingOptions serving = t.serving;
  serving.inference = o;
  serving.pp = t.training.parallel.pp;
  Cluster cluster = request_cluster(r);
  if (!r.scenario.has_cluster) cluster.devices_per_node = o.tp * serving.pp;  // one replica on one node
  const InferenceEstimate e = estimate_inference(t.net.config, o, r.scenario.device, cluster);
  const ServingEstimate s = estimate_serving(t.net.config, serving, r.scenario.device, cluster);
  std::vector<std::string> warnings = e.warnings;
  warnings.insert(warnings.end(), s.warnings.begin(), s.warnings.end());
  Json out = {{"ok", true}, {"command", "inference"}, {"kind", "transformer"}, {"model", model_json(t)},
              {"device", device_json(r.scenario.device)}, {"tp", o.tp}, {"batch_size", o.batch},
              {"prompt_len", o.prompt_len}, {"generate_len", o.generate_len},
              {"precision", precision_json(o.precision)}, {"software_era", era_json(t.era)}, {"prefill_ms", e.prefill_ms},
              {"time_to_first_token_ms", e.prefill_ms}, {"decode_ms_per_token", e.decode_ms_per_token},
              {"tokens_per_s", e.decode_tokens_per_s}, {"total_ms", e.total_ms},
              {"tp_comm_per_token_ms", e.tp_comm_per_token_ms}, {"weights_bytes", e.weights_bytes},
              {"kv_cache_bytes", e.kv_cache_bytes}, {"memory_per_device_bytes", e.memory_per_device_bytes},
              {"capacity_bytes", e.capacity_bytes}, {"fits", e.fits},
              {"serving", serving_json(s, t.price_per_gpu_hour)}, {"warnings", with_request_warnings(r, warnings)}};
  out["serving"]["cuda_graphs"] = t.serving.cuda_graphs;
  out["serving"]["mixed_steps"] = t.serving.mixed_steps;
  out["serving"]["runtime"] = runtime_name(t.serving.inference.kernel_issue);
  out["serving"]["decode_attention"] = decode_attention_name(t.serving.inference.decode_attention);
  out["serving"]["moe_routing_skew"] = t.serving.inference.moe_routing_skew;
  out["assumed"] = t.serving_assumed;
  if (!t.serving_assumed.empty())
    out["warnings"].push_back(
        "assumed today's serving engines (vLLM, SGLang, TensorRT-LLM) where the request is "
        "silent: " +
        assumed_list(t.serving_assumed));
  // The serving family's band, once the suite scores one (docs/validation.md).
  if (error_bands()["families"].contains("inference")) out["expected_error"] = expected_error_json("inference");
  return out;
}

Json summary_json(const Request& r) {
  return {{"ok", true}, {"command", r.command}, {"kind", "transformer"}, {"model", model_json(r.transformer)}};
}

}  // namespace

Json transformer_estimate_answer(const Request& r) { return estimate_json(r); }
Json transformer_summary_answer(const Request& r) { return summary_json(r); }
Json transformer_plan_answer(const Request& r) { return plan_json(r); }
Json transformer_inference_answer(const Request& r) { return inference_json(r); }

}  // namespace paleo
