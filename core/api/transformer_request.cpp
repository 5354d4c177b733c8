#include "core/api/transformer_request.h"

#include "core/api/command_registry.h"
#include "core/api/price_field.h"
#include "core/api/serving_request.h"
#include "core/api/zero3_plan_stack.h"
#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/spec/presets.h"
#include "core/base/request_limits.h"
#include "core/base/utf8.h"

namespace paleo {
namespace {

std::int64_t read_count_field(const Json& request, const char* field, std::int64_t low, std::int64_t high) {
  Dim n = read_dim(request[field], field, "");
  if (n < low || n > high)
    throw Error("must be an integer from " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                    echo(request[field]), "", field);
  return static_cast<std::int64_t>(n);
}

}  // namespace

const std::vector<std::string>& transformer_request_fields() {
  static const std::vector<std::string> fields = {"precision",
                                                  "seq_len",
                                                  "global_batch",
                                                  "micro_batch",
                                                  "tp",
                                                  "pp",
                                                  "dp",
                                                  "cp",
                                                  "ep",
                                                  "expert_tp",
                                                  "virtual_stages",
                                                  "sequence_parallel",
                                                  "schedule",
                                                  "recompute",
                                                  "zero",
                                                  "attention",
                                                  "train_tokens",
                                                  "price_per_gpu_hour",
                                                  "prompt_len",
                                                  "generate_len",
                                                  "top",
                                                  "software_era",
                                                  "efficiency",
                                                  "reshard_after_forward",
                                                  "fp8_weight_copy",
                                                  "fused_cross_entropy",
                                                  "fused_elementwise",
                                                  "tp_comm_overlap",
                                                  "zero3_gather",
                                                  "collective_library"};
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v = fields;
    for (const std::string& f : serving_request_fields()) v.push_back(f);
    return v;
  }();
  return all;
}

// Each product checked before it is formed.
std::int64_t layout_devices(const Json& request) {
  std::int64_t devices = 1;
  for (const char* field : {"tp", "pp", "cp", "dp"})
    if (request.contains(field) && !request[field].is_string())  // "smallest_that_fits": chosen within them
      devices = checked_multiply(devices, read_count_field(request, field, 1, kMaxDevices), field, kMaxDevices);
  return devices;
}

namespace {

// The request with the era's defaults laid under it: each field the request leaves out and the
// stack sets, recorded in `t.assumed`. Two defaults are choices made later on the cluster.
Json with_stack_defaults(const Json& request, TransformerRequest& t) {
  Json effective = request;
  for (auto it = t.era.defaults.begin(); it != t.era.defaults.end(); ++it) {
    if (request.contains(it.key())) continue;
    if (it.key() == "recompute" && it.value() == "least_that_fits") {
      t.recompute_auto = true;
    } else if (it.key() == "virtual_stages" && it.value() == "auto") {
      t.virtual_stages_auto = true;
    } else if (it.key() == "reshard_after_forward" && it.value() == "unless_pipeline") {
      // torchtitan's "default" policy: reshard_after_forward = not pp_enabled, for whichever layout
      // is priced (a plan weighs many: TrainingOptions::reshards_after_forward).
      const bool pipeline =
          request.contains("pp") && request["pp"].is_number_integer() && request["pp"].get<std::int64_t>() > 1;
      t.assumed[it.key()] = !pipeline;
      t.training.reshard_unless_pipeline = true;
      continue;
    } else {
      if (!is_stack_default_field(it.key()))
        throw Error("software era '" + t.era.key + "' has a default for '" + it.key() + "', which is not a stack choice",
                    "", "software_era");
      effective[it.key()] = it.value();
    }
    t.assumed[it.key()] = it.value();
  }
  return effective;
}

}  // namespace

bool is_stack_default_field(const std::string& field) {
  for (const char* f :
       {"sequence_parallel", "zero", "recompute", "virtual_stages", "attention", "reshard_after_forward", "micro_batch",
        "fp8_weight_copy", "fused_cross_entropy", "fused_elementwise", "tp_comm_overlap"})
    if (field == f) return true;
  return false;
}

TransformerRequest parse_transformer_request(const Json& given, const Device& device, std::int64_t devices) {
  TransformerRequest t;
  // Serving takes a serving stack's era where the device's generation has one (docs/serving.md).
  const bool serving = given.contains("command") && given["command"].is_string() && given["command"] == "inference";
  // A plan weighs every ZeRO stage: it runs on the generation's default stack, and its ZeRO-3
  // layouts on the ZeRO-3 default (t.zero3_plan, below), as their estimates would.
  const bool planning = given.contains("command") && given["command"].is_string() && given["command"] == "plan";
  t.era = software_era_of_request(given, device, serving ? "inference" : "transformer", !planning);
  const Json request = with_stack_defaults(given, t);
  t.net = transformer_net(request["net"], "net");
  TrainingOptions& o = t.training;
  ParallelLayout& p = o.parallel;
  o.seq_len = t.net.config.seq_len;
  if (request.contains("precision")) o.precision = precision_from_json(request["precision"], "precision");
  if (request.contains("seq_len")) o.seq_len = read_count_field(request, "seq_len", 1, 10000000);
  t.layout_silent = !request.contains("tp") && !request.contains("pp") && !request.contains("cp") &&
                    !request.contains("dp") && !request.contains("ep");
  if (t.layout_silent) t.sequence_parallel_follows_tp = !request.contains("sequence_parallel");
  if (request.contains("tp") && request["tp"].is_string()) {
    if (request["tp"] != "smallest_that_fits")
      throw Error("must be an integer from 1 to 4096 or \"smallest_that_fits\", got " + echo(request["tp"]), "", "tp");
    const std::string command = given.value("command", "");
    if (command != "estimate" && command != "layers")
      throw Error("\"smallest_that_fits\" is an estimate's choice; '" + shortened_utf8(command, kMaxEchoedNameBytes) +
                      "' takes a whole number", "", "tp");
    if (request.contains("dp")) throw Error("\"smallest_that_fits\" gives dp the remaining devices: leave dp out", "", "dp");
    t.tp_auto = true;
    t.sequence_parallel_follows_tp = !request.contains("sequence_parallel");
  } else if (request.contains("tp")) {
    p.tp = read_count_field(request, "tp", 1, 4096);
  }
  if (request.contains("pp")) p.pp = read_count_field(request, "pp", 1, 4096);
  if (request.contains("cp")) p.cp = read_count_field(request, "cp", 1, 4096);
  if (request.contains("ep")) p.ep = read_count_field(request, "ep", 1, 65536);
  if (request.contains("expert_tp")) p.expert_tp = read_count_field(request, "expert_tp", 1, 4096);
  if (request.contains("virtual_stages")) p.virtual_stages = read_count_field(request, "virtual_stages", 1, 1024);
  if (request.contains("sequence_parallel")) p.sequence_parallel = read_bool(request, "sequence_parallel", "");
  const std::int64_t model_parallel =
      checked_multiply(checked_multiply(p.tp, p.pp, "tp", kMaxDevices), p.cp, "tp", kMaxDevices);
  if (request.contains("dp")) {
    p.dp = read_count_field(request, "dp", 1, kMaxDevices);
    t.dp_given = true;
  } else {
    if (devices % model_parallel != 0)
      throw Error("tp x pp x cp = " + std::to_string(model_parallel) + " does not divide the " +
                      std::to_string(devices) + " devices", "", "tp");
    p.dp = devices / model_parallel;
  }
  if (request.contains("micro_batch")) {
    o.micro_batch = read_count_field(request, "micro_batch", 1, 1 << 20);
    t.micro_batch_given = true;
  }
  checked_multiply(p.dp, model_parallel, "dp", kMaxDevices);
  o.global_batch = checked_multiply(p.dp, o.micro_batch, "micro_batch", std::int64_t{1} << 26);
  if (request.contains("global_batch")) {
    o.global_batch = read_count_field(request, "global_batch", 1, 1 << 26);
    t.global_batch_given = true;
  }
  if (request.contains("schedule")) {
    o.schedule = read_string(request, "schedule", "");
    if (!is_allowed("schedule", o.schedule))
      throw Error("must be " + allowed_alternatives("schedule") + " (interleaved: 1f1b with virtual_stages > 1)", "",
                  "schedule");
  }
  if (request.contains("recompute")) o.recompute = parse_recompute(read_string(request, "recompute", ""), "recompute");
  if (request.contains("zero")) o.zero = static_cast<int>(read_count_field(request, "zero", 0, 3));
  if (request.contains("attention")) o.attention = parse_attention(read_string(request, "attention", ""), "attention");
  if (request.contains("overlap")) o.overlap = read_bool(request, "overlap", "");
  if (request.contains("reshard_after_forward"))
    o.reshard_after_forward = read_bool(request, "reshard_after_forward", "");
  if (request.contains("zero3_gather"))
    o.zero3_gather = parse_zero3_gather(read_string(request, "zero3_gather", ""), "zero3_gather");
  // An era's gather schedule is its stack's ZeRO-3 (megatron_lm_2021: the DeepSpeed library its
  // paper integrated; Megatron-LM itself has none), so only a request that names the era runs it.
  // One that takes its generation's default era for the kernels states no ZeRO-3 library: FSDP's.
  else if (!t.era.zero3_gather.empty() && request.contains("software_era"))
    o.zero3_gather = parse_zero3_gather(t.era.zero3_gather, "software_era.zero3_gather");
  if (request.contains("fp8_weight_copy")) o.fp8_weight_copy = read_bool(request, "fp8_weight_copy", "");
  if (request.contains("fused_cross_entropy")) o.fused_cross_entropy = read_bool(request, "fused_cross_entropy", "");
  if (request.contains("fused_elementwise")) o.fused_elementwise = read_bool(request, "fused_elementwise", "");
  if (request.contains("tp_comm_overlap"))
    o.tp_comm_overlap = parse_tp_comm_overlap(read_string(request, "tp_comm_overlap", ""), "tp_comm_overlap");
  if (request.contains("optimizer")) {
    const std::string opt = read_string(request, "optimizer", "");
    if (!is_allowed("optimizer", opt)) throw Error("must be " + allowed_alternatives("optimizer"), "", "optimizer");
    o.optimizer = opt == "adam" ? Optimizer::kAdam : opt == "momentum" ? Optimizer::kMomentum : Optimizer::kSgd;
  }
  if (request.contains("train_tokens")) {
    t.train_tokens = read_number(request, "train_tokens", "");
    if (!(t.train_tokens >= 0 && t.train_tokens <= 1e16)) throw Error("must be from 0 to 1e16 tokens", "", "train_tokens");
  }
  const DevicePrice price = read_price_per_gpu_hour(request);
  t.price_per_gpu_hour = price.usd_per_device_hour;
  t.price_key = price.key;
  o.efficiency = t.era.efficiency;
  if (request.contains("collective_library"))
    o.collective_library =
        parse_collective_library(read_string(request, "collective_library", ""), "collective_library");
  else if (!t.era.collective_library.empty())
    o.collective_library = parse_collective_library(t.era.collective_library, "software_era.collective_library");
  if (request.contains("batch_size")) t.batch = read_count_field(request, "batch_size", 1, 1 << 20);
  if (request.contains("prompt_len")) t.prompt_len = read_count_field(request, "prompt_len", 1, 10000000);
  if (request.contains("generate_len")) t.generate_len = read_count_field(request, "generate_len", 1, 10000000);
  if (request.contains("top")) t.top = read_count_field(request, "top", 1, 1000);
  read_serving_request(request, t.serving);
  t.serving_assumed = serving_assumed(request, t.serving, o.precision.activations, t.net.config.moe_layer_count() > 0);
  if (planning && !given.contains("software_era")) t.zero3_plan = zero3_plan_stack(given, device, devices);
  return t;
}

}  // namespace paleo
