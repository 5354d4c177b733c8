#include "core/api/command_registry.h"

#include <algorithm>
#include <initializer_list>

#include "core/api.h"
#include "core/api/command_handlers.h"
#include "core/base/error.h"
#include "core/base/version.h"
#include "core/calibration/robust_loss.h"
#include "core/cluster/collectives.h"
#include "core/cost/conv_algorithms.h"
#include "core/precision/dtype.h"
#include "core/spec/model_profile.h"
#include "core/spec/presets.h"
#include "core/training_scheme/consistency.h"
#include "core/training_scheme/model_averaging.h"
#include "core/training_scheme/parameter_server.h"
#include "core/transformer/training_options.h"

namespace paleo {
namespace {

using Names = std::vector<std::string>;

// ---- Allowed values, each read from the core's own table or name function ----------------------

Names profiles() { return profile_names(); }
Names conv_algorithms() { return conv_algorithm_names(); }

// The names of `values`, each as the core's own name function writes it.
template <class E, class NameOf>
Names names_of(std::initializer_list<E> values, NameOf name_of) {
  Names names;
  for (E v : values) names.push_back(name_of(v));
  return names;
}

Names collective_libraries() {
  return names_of({CollectiveLibrary::kAny, CollectiveLibrary::kNcclRing, CollectiveLibrary::kNccl},
                  collective_library_name);
}

const std::initializer_list<CollectiveOp> kCollectiveOps = {CollectiveOp::kAllReduce, CollectiveOp::kReduceScatter,
                                                            CollectiveOp::kAllGather, CollectiveOp::kBroadcast,
                                                            CollectiveOp::kAllToAll};

Names collective_ops() { return names_of(kCollectiveOps, collective_op_name); }

// The `collective` command's algorithms: auto, every flat algorithm of some operation, hierarchical.
Names collective_algorithms() {
  Names names = {collective_algorithm_name(CollectiveAlgorithm::kAuto)};
  for (CollectiveOp op : kCollectiveOps)
    for (CollectiveAlgorithm a : flat_algorithms(op)) {
      const std::string name = collective_algorithm_name(a);
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  names.push_back(collective_algorithm_name(CollectiveAlgorithm::kHierarchical));
  return names;
}

Names recomputes() {
  return names_of({Recompute::kNone, Recompute::kSelective, Recompute::kSelectiveOp, Recompute::kFull}, recompute_name);
}

Names attentions() {
  return {attention_name(AttentionKernel::kFlash), attention_name(AttentionKernel::kMaterialized)};
}

Names consistencies() {
  return names_of({Consistency::kSynchronous, Consistency::kStaleSynchronous, Consistency::kAsynchronous},
                  consistency_name);
}

Names averagings() {
  return names_of({AveragingKind::kNone, AveragingKind::kLocalSgd, AveragingKind::kElastic, AveragingKind::kGossip,
                   AveragingKind::kEnsemble},
                  averaging_name);
}

Names server_layouts() {
  return names_of({ServerLayout::kSingle, ServerLayout::kSharded, ServerLayout::kHierarchical}, server_layout_name);
}

Names losses() { return names_of({LossKind::kLinear, LossKind::kSoftL1, LossKind::kHuber}, loss_kind_name); }

// Enumerations the core has no name table for: the request readers (core/api/request.cpp,
// transformer_request.cpp) check values against these lists (is_allowed), in the order their
// errors name them; tests/test_command_schema.cpp sends each value, and one more to be refused.
Names optimizers() { return {"sgd", "momentum", "adam"}; }
Names parallels() { return {"data", "model", "hybrid"}; }
Names scalings() { return {"weak", "strong"}; }
Names memory_formats() { return {"nhwc", "nchw"}; }
Names timings() { return {"step", "kernel"}; }
Names schedules() { return {"gpipe", "1f1b"}; }
// Members of training_scheme that core/api/training_scheme_section.cpp checks in place.
Names exchanges() { return {"allreduce", "parameter_server"}; }
Names pushes() { return {"gradients", "weights"}; }
Names batch_norms() { return {"local", "global"}; }
Names zero_stages() { return {"0", "1", "2", "3"}; }
Names runtimes() { return {"pytorch", "tensorrt"}; }
Names decode_attentions() { return {"per_kv_head", "per_query_head"}; }
Names zero3_gathers() { return {"layer_prefetched", "tensor_blocking"}; }
Names tp_comm_overlaps() { return {"none", "forward", "forward_backward"}; }

Names command_names() {
  Names names;
  for (const CommandSpec& c : command_specs()) names.push_back(c.name);
  return names;
}

// ---- Preset keys -------------------------------------------------------------------------------

Names keys_of(const Json& list) {
  Names names;
  for (const Json& entry : list) names.push_back(entry.at("key").get<std::string>());
  return names;
}

Names net_presets() {
  Names names = Presets::instance().net_keys();
  for (const std::string& k : Presets::instance().transformer_keys()) names.push_back(k);
  return names;
}
Names device_presets() { return keys_of(Presets::instance().devices()); }
Names interconnect_presets() { return keys_of(Presets::instance().interconnects()); }
Names software_presets() { return keys_of(Presets::instance().software_list()); }
Names era_presets() { return keys_of(Presets::instance().software_eras()); }
Names price_presets() { return keys_of(Presets::instance().prices()); }
Names link_presets() { return keys_of(Presets::instance().links()); }
Names cluster_presets() { return keys_of(Presets::instance().clusters()); }

// ---- The tables --------------------------------------------------------------------------------

const Names kCnnNetCommands = {"estimate", "layers", "simulate", "search"};
const Names kNetCommands = {"estimate", "layers", "summary", "simulate", "search", "plan", "inference"};
const Names kDeviceCommands = {"estimate", "layers", "simulate", "search", "collective", "plan", "inference"};
const Names kClusterCommands = {"estimate", "layers", "search", "collective", "plan", "inference"};
const Names kTransformerCommands = {"estimate", "layers", "plan", "inference"};
// A training run's own fields: serving (`inference`) does not read them.
const Names kTrainingCommands = {"estimate", "layers", "plan"};
const Names kKernelCommands = {"estimate", "layers", "simulate", "search", "plan", "inference", "calibrate"};

FieldSpec field(std::string name, std::string type, std::string unit, Json default_value, std::string meaning,
                Names commands, FieldNets nets) {
  FieldSpec f;
  f.name = std::move(name);
  f.type = std::move(type);
  f.unit = std::move(unit);
  f.default_value = std::move(default_value);
  f.meaning = std::move(meaning);
  f.commands = std::move(commands);
  f.nets = nets;
  return f;
}

FieldSpec with_allowed(FieldSpec f, Names (*allowed)()) {
  f.allowed = allowed;
  return f;
}

FieldSpec with_presets(FieldSpec f, Names (*keys)()) {
  f.preset_keys = keys;
  return f;
}

FieldSpec with_examples(FieldSpec f, Names examples) {
  f.examples = std::move(examples);
  return f;
}

FieldSpec only_for(FieldSpec f, std::string command, std::string needs = "") {
  f.only_command = std::move(command);
  f.needs = std::move(needs);
  return f;
}

// A serving field (core/api/serving_request.cpp reads them): a transformer's, read by `inference`
// only; another command answers it with a warning.
FieldSpec serving(std::string name, std::string type, std::string unit, Json default_value, std::string meaning) {
  return only_for(field(std::move(name), std::move(type), std::move(unit), std::move(default_value), std::move(meaning),
                        {"inference"}, FieldNets::kTransformer),
                  "inference");
}

// The members of "training_scheme" (core/api/training_scheme_section.cpp reads them).
std::vector<FieldSpec> training_scheme_members() {
  const Json none;
  const Names estimate = {"estimate"};
  const FieldNets cnn = FieldNets::kCnn;
  return {
      with_allowed(field("consistency", "string", "", "sync", "how workers wait for each other", estimate, cnn),
                   consistencies),
      field("staleness", "integer", "steps", none, "SSP's bound on how far a worker runs ahead", estimate, cnn),
      with_examples(field("jitter", "string", "", "none", "workers' step-time spread: none, normal:CV or lognormal:CV",
                          estimate, cnn),
                    {"none", "lognormal:0.1", "lognormal:0.2", "normal:0.1"}),
      field("slow_worker", "number", "fraction", none, "one worker that much slower", estimate, cnn),
      with_examples(
          field("compression", "string", "", "none", "gradient compression (docs/training-schemes.md)", estimate, cnn),
          {"none", "fp16", "bf16", "onebit", "ternary", "qsgd:4", "topk:0.01", "threshold:0.001", "powersgd:4", "sfb"}),
      with_allowed(field("exchange", "string", "", "allreduce", "how gradients are exchanged", estimate, cnn),
                   exchanges),
      with_allowed(field("server_layout", "string", "", "single", "the parameter servers' layout", estimate, cnn),
                   server_layouts),
      field("servers", "integer", "", none, "parameter servers", estimate, cnn),
      with_allowed(field("push", "string", "", "gradients", "what workers push to the servers", estimate, cnn), pushes),
      field("offload_fc", "boolean", "", false, "Project Adam's offload of fully-connected gradients", estimate, cnn),
      with_allowed(field("averaging", "string", "", "none", "model averaging between steps", estimate, cnn),
                   averagings),
      field("averaging_every", "integer", "steps", none, "steps between averagings", estimate, cnn),
      field("gossip_peers", "integer", "", none, "peers each worker averages with (gossip)", estimate, cnn),
      with_allowed(field("batch_norm", "string", "", "local", "batch-norm statistics", estimate, cnn), batch_norms),
  };
}

std::vector<FieldSpec> make_field_specs() {
  using N = FieldNets;
  const Json none;
  std::vector<FieldSpec> f;
  f.push_back(with_allowed(field("command", "string", "", none, "what to answer (see \"commands\")", {}, N::kAny),
                           command_names));
  f.push_back(with_allowed(field("profile", "string", "", "paleo2026", "model profile: the set of modelling choices",
                                 {"estimate", "layers", "summary", "simulate", "search", "collective"}, N::kCnn),
                           profiles));
  f.push_back(with_presets(field("device", "string|object", "", none,
                                 "device preset key or object (default TITAN_X for a CNN, H100_SXM for a transformer)",
                                 kDeviceCommands, N::kAny),
                           device_presets));
  f.push_back(with_presets(field("interconnect", "string|object", "", "ethernet",
                                 "PALEO's interconnect between workers: preset key or {name, bandwidth_gbit_per_s}",
                                 {"estimate", "layers", "simulate"}, N::kCnn),
                           interconnect_presets));
  f.push_back(with_presets(field("network", "string|object", "", none, "the name of \"interconnect\" before API 0.2",
                                 {"estimate", "layers", "simulate"}, N::kCnn),
                           interconnect_presets));
  f.push_back(with_presets(field("software", "string", "", none, "software preset: sets ppp_comp and ppp_comm",
                                 kCnnNetCommands, N::kCnn),
                           software_presets));
  f.push_back(field("ppp_comp", "number", "fraction", 1.0, "platform percent of peak for computation and local memory",
                    kCnnNetCommands, N::kCnn));
  f.push_back(field("ppp_comm", "number", "fraction", 1.0, "platform percent of peak for the network", kCnnNetCommands,
                    N::kCnn));
  f.push_back(with_presets(field("cluster", "string|object", "", none,
                                 "cluster preset key or object; default: the device's node preset when nodes or "
                                 "devices_per_node is given",
                                 kClusterCommands, N::kAny),
                           cluster_presets));
  f.push_back(field("nodes", "integer", "", none, "nodes of the cluster (default: the cluster's)", kClusterCommands,
                    N::kAny));
  f.push_back(field("devices_per_node", "integer", "", none,
                    "devices per node of the cluster, or of the search (default: the cluster's)", kClusterCommands,
                    N::kAny));
  f.push_back(field("devices", "integer", "", none, "devices in all: the search's, or a transformer's cluster",
                    {"search", "estimate", "layers", "plan", "inference"}, N::kAny));
  f.push_back(with_allowed(field("conv_algorithm", "string", "", "gemm",
                                 "convolution algorithm; auto: the fastest that fits workspace_limit_bytes",
                                 kCnnNetCommands, N::kCnn),
                           conv_algorithms));
  f.push_back(field("workspace_limit_bytes", "number", "bytes", 4294967296.0, "workspace limit of conv_algorithm auto",
                    kCnnNetCommands, N::kCnn));
  f.push_back(field("fetch_bandwidth_gb_per_s", "number", "GB/s", none,
                    "bandwidth of activation fetches between model-parallel splits (default: device memory's)",
                    kCnnNetCommands, N::kCnn));
  f.push_back(field("use_pipeline", "boolean", "", false, "per layer max(comp, comm) instead of their sum",
                    kCnnNetCommands, N::kCnn));
  f.push_back(with_allowed(field("parallel", "string", "", "data", "the simulation's parallelism", {"simulate"}, N::kCnn),
                           parallels));
  f.push_back(field("workers", "integer|array", "", Json::array({1, 2, 4, 8, 16, 32, 64, 128}),
                    "worker counts of the data-parallel simulation", {"simulate", "estimate"}, N::kCnn));
  f.push_back(with_allowed(field("scaling", "string|array", "", Json::array({"weak", "strong"}),
                                 "weak and/or strong scaling, in that order", {"simulate", "estimate"}, N::kCnn),
                           scalings));
  f.push_back(field("hybrid_workers", "integer", "", 1, "workers of the hybrid simulation", {"simulate"}, N::kCnn));
  f.push_back(with_allowed(field("collective", "string", "", "auto", "the gradient all-reduce algorithm", {"estimate"},
                                 N::kCnn),
                           gradient_collective_names));
  f.push_back(field("bucket_bytes", "number", "bytes", 26214400.0,
                    "gradient bucket size (PyTorch DDP's 25 MiB); 0: one bucket per layer", {"estimate"}, N::kCnn));
  f.push_back(field("sections", "array", "", none,
                    "the answer's top-level members wanted (ok, command, kind and warnings always come); default: "
                    "all",
                    {"estimate", "layers", "summary", "inference"}, N::kAny));
  f.push_back(field("omit_sections", "array", "", none,
                    "the answer's top-level members not wanted (ok, command, kind and warnings always come); not "
                    "with sections",
                    {"estimate", "layers", "summary", "inference"}, N::kAny));
  f.push_back(only_for(field("node_scaling_max_nodes", "integer", "", none,
                             "node_scaling covers 1, 2, 4, ... nodes up to this or nodes, whichever is more "
                             "(default: nodes)",
                             {"estimate"}, N::kCnn),
                       "estimate", "cluster"));
  f.push_back(with_allowed(
      field("collective_library", "string", "", none, "the stack's collective library (default: the era's, else any)",
            {"estimate", "layers", "plan"}, N::kAny),
      collective_libraries));
  f.push_back(with_allowed(field("optimizer", "string", "", none,
                                 "the weight update's state and traffic (default: sgd for a CNN, adam for a transformer)",
                                 {"estimate", "layers", "plan", "inference"}, N::kAny),
                           optimizers));
  f.push_back(field("pipeline", "object", "", none, "{stages, micro_batches, schedule, split}: a CNN's pipeline",
                    {"estimate"}, N::kCnn));
  f.push_back(field("overlap", "boolean", "", true,
                    "gradient sync overlapped with the backward pass (search: false unless given)",
                    {"estimate", "search", "plan"}, N::kAny));
  f.push_back(field("roofline", "boolean", "", false, "each pass takes max(compute, memory) instead of their sum",
                    kCnnNetCommands, N::kCnn));
  f.push_back(field("training_scheme", "object", "", none, "how the data-parallel step is synchronised on the cluster",
                    {"estimate"}, N::kCnn));
  f.back().members = training_scheme_members();
  f.push_back(field("work_depth", "boolean", "", false, "add each layer's work, depth and parallelism",
                    {"estimate", "layers"}, N::kCnn));
  f.push_back(field("scheme_comparison", "boolean", "", false, "add schemes compared over node counts", {"estimate"},
                    N::kCnn));
  f.push_back(field("input_gradient", "boolean", "", false, "layers fed by the input also compute its gradient",
                    kCnnNetCommands, N::kCnn));
  f.push_back(with_allowed(field("memory_format", "string", "", "nhwc", "how activations are stored", kCnnNetCommands,
                                 N::kCnn),
                           memory_formats));
  f.push_back(with_allowed(field("timing", "string", "", "step", "a framework's step, or kernels back to back",
                                 kCnnNetCommands, N::kCnn),
                           timings));
  f.push_back(field("cuda_graph_step", "boolean", "", false,
                    "the step's kernels are replayed from a CUDA graph: each costs the device's launch time, not the "
                    "era's per-kernel overhead",
                    kCnnNetCommands, N::kCnn));
  f.push_back(
      field("fused_batchnorm_activation", "boolean", "", false,
            "each batch norm also performs the ReLU after it, or the residual add and the ReLU: one kernel each "
            "way for the chain, no pass or kernel for the ReLU and the add",
            kCnnNetCommands, N::kCnn));
  f.push_back(only_for(field("dataset_samples", "integer", "samples", none,
                             "samples in one pass over the dataset; adds train (time and cost to train)", {"estimate"},
                             N::kCnn),
                       "estimate"));
  f.push_back(only_for(field("epochs", "integer", "", 1, "passes over the dataset", {"estimate"}, N::kCnn), "estimate",
                       "dataset_samples"));
  f.push_back(only_for(with_presets(field("price_per_gpu_hour", "number|string", "USD per device-hour", none,
                                          "a device-hour's price, or a price preset key; adds cost_usd to train "
                                          "(inference: the cost of a million output tokens)",
                                          {"estimate", "plan", "inference"}, N::kAny),
                                    price_presets),
                       "estimate", "dataset_samples"));
  f.push_back(with_allowed(field("op", "string", "", "allreduce", "the collective operation", {"collective"}, N::kCnn),
                           collective_ops));
  f.push_back(with_allowed(field("algorithm", "string", "", "auto", "the collective's algorithm", {"collective"},
                                 N::kCnn),
                           collective_algorithms));
  f.push_back(field("bytes", "number", "bytes", 0.0, "the vector each process holds", {"collective"}, N::kCnn));
  f.push_back(with_presets(field("link", "string|object", "", none,
                                 "link preset key or {latency_us, bandwidth_gb_per_s}, unless a cluster is given",
                                 {"collective"}, N::kCnn),
                           link_presets));
  f.push_back(field("servers", "integer", "", 1, "parameter servers (sharded_parameter_server)", {"collective"}, N::kCnn));
  f.push_back(with_presets(field("net", "string|object", "", none,
                                 "net preset key, a network spec, an imported net, or a transformer", kNetCommands,
                                 N::kAny),
                           net_presets));
  f.push_back(field("batch_size", "integer", "samples", none,
                    "per-worker batch (default: the spec's); a transformer's inference batch (default 1)",
                    {"estimate", "layers", "summary", "simulate", "search", "inference"}, N::kAny));
  // The kernel model a CNN shares with transformers.
  f.push_back(
      with_allowed(field("precision", "string|object", "", none,
                         "number formats: fp32, tf32, fp16, bf16, fp8 or an object of formats (default fp32 for "
                         "a CNN, bf16 for a transformer)",
                         kKernelCommands, N::kAny),
                   dtype_names));
  f.push_back(with_presets(field("software_era", "string", "", none,
                                 "software era pricing each kernel (default: the era of the device's generation; a "
                                 "transformer's ZeRO-3 training there: its FSDP era)",
                                 kKernelCommands, N::kAny),
                           era_presets));
  f.push_back(field("efficiency", "object", "", none, "overrides single parameters of the era's kernel efficiency",
                    kKernelCommands, N::kAny));
  // Transformer nets (docs/transformer.md).
  f.push_back(field("seq_len", "integer", "tokens", none, "tokens per sequence (default: the model's)",
                    kTransformerCommands, N::kTransformer));
  f.push_back(field("global_batch", "integer", "sequences", none, "sequences per step (default: dp x micro_batch)",
                    kTrainingCommands, N::kTransformer));
  f.push_back(field("micro_batch", "integer", "sequences", 1, "sequences per micro-batch per replica",
                    kTrainingCommands, N::kTransformer));
  f.push_back(field("tp", "integer|string", "", 1,
                    "tensor parallelism; estimate, layers: \"smallest_that_fits\" chooses the smallest that fits",
                    kTransformerCommands, N::kTransformer));
  f.push_back(field("pp", "integer", "", 1, "pipeline parallelism", kTransformerCommands, N::kTransformer));
  f.push_back(field("dp", "integer", "", none, "data-parallel replicas (default: devices / (tp pp cp))",
                    kTransformerCommands, N::kTransformer));
  f.push_back(field("cp", "integer", "", 1, "context parallelism", kTrainingCommands, N::kTransformer));
  f.push_back(field("ep", "integer", "", 1, "expert parallelism", kTrainingCommands, N::kTransformer));
  f.push_back(field("expert_tp", "integer", "", none, "expert tensor parallelism (default: tp)", kTrainingCommands,
                    N::kTransformer));
  f.push_back(field("virtual_stages", "integer", "", 1, "interleaved 1F1B chunks per device (an era may say auto)",
                    kTrainingCommands, N::kTransformer));
  f.push_back(field("sequence_parallel", "boolean", "", false, "sequence parallelism under TP", kTrainingCommands,
                    N::kTransformer));
  f.push_back(with_allowed(
      field("schedule", "string", "", "1f1b", "pipeline schedule (interleaved: 1f1b with virtual_stages > 1)",
            kTrainingCommands, N::kTransformer),
      schedules));
  f.push_back(with_allowed(field("recompute", "string", "", "none", "activation recomputation (an era may choose it)",
                                 kTrainingCommands, N::kTransformer),
                           recomputes));
  f.push_back(with_allowed(field("zero", "integer", "", 0, "ZeRO stage (3 = FSDP)", kTrainingCommands, N::kTransformer),
                           zero_stages));
  f.push_back(with_allowed(field("attention", "string", "", "flash", "attention kernel", kTransformerCommands,
                                 N::kTransformer),
                           attentions));
  f.push_back(field("reshard_after_forward", "boolean", "", true,
                    "ZeRO 3: gather each layer's weights again for its backward", kTrainingCommands, N::kTransformer));
  f.push_back(with_allowed(field("zero3_gather", "string", "", "layer_prefetched",
                                 "ZeRO 3: gathers per layer, prefetched (FSDP), or per weight tensor, blocking "
                                 "(DeepSpeed 2021; an era the request names may choose it)",
                                 kTrainingCommands, N::kTransformer),
                           zero3_gathers));
  f.push_back(field("fp8_weight_copy", "boolean", "", true, "fp8: keep a cached fp8 copy of every weight",
                    kTrainingCommands, N::kTransformer));
  f.push_back(field("fused_cross_entropy", "boolean", "", true, "the loss in one fused kernel on the logits",
                    kTrainingCommands, N::kTransformer));
  f.push_back(field("fused_elementwise", "boolean", "", true,
                    "RMSNorm, rotary embedding and gated activation each in one kernel (fused kernels or "
                    "torch.compile); false: PyTorch's eager composites",
                    kTrainingCommands, N::kTransformer));
  f.push_back(with_allowed(field("tp_comm_overlap", "string", "", "none",
                                 "with sequence parallelism, the passes whose TP all-gathers and reduce-scatters run "
                                 "under the linear layers' GEMMs: forward (torchtitan's async TP), forward_backward "
                                 "(Megatron-Core's --tp-comm-overlap)",
                                 kTrainingCommands, N::kTransformer),
                           tp_comm_overlaps));
  f.push_back(field("train_tokens", "number", "tokens", none, "tokens to train on; adds train (time and cost to train)",
                    {"estimate"}, N::kTransformer));
  f.push_back(field("prompt_len", "integer", "tokens", none, "prompt tokens (default: seq_len)", {"inference"},
                    N::kTransformer));
  f.push_back(field("generate_len", "integer", "tokens", 128, "tokens generated", {"inference"}, N::kTransformer));
  f.push_back(field("top", "integer", "", 10, "candidate layouts returned", {"plan"}, N::kTransformer));
  // Serving under load (docs/serving.md).
  f.push_back(serving("concurrency", "number", "requests", none,
                      "requests in flight per replica under continuous batching (default: batch_size)"));
  f.push_back(serving("request_rate", "number", "requests/s", none,
                      "requests per second over all replicas; the concurrency is solved for it"));
  f.push_back(with_allowed(
      serving("kv_cache_dtype", "string", "", none, "the KV cache's number format (default: the activations')"),
      dtype_names));
  f.push_back(
      serving("gpu_memory_utilization", "number", "fraction", 0.9, "the share of device memory the engine takes"));
  f.push_back(serving("kv_cache_free_gpu_mem_fraction", "number", "fraction", none,
                      "TensorRT-LLM's rule instead: the KV cache's share of the memory left after the weights"));
  f.push_back(serving("cuda_graphs", "boolean", "", true,
                      "decode steps without a prompt replay CUDA graphs: a kernel costs the device's launch time "
                      "(vLLM, SGLang and TensorRT-LLM's default; false: every kernel launched eagerly)"));
  f.push_back(serving("mixed_steps", "boolean", "", true,
                      "new prompts ride in the decode step's pass (in-flight batching, vLLM's chunked prefill): their "
                      "work, not their launches"));
  f.push_back(with_allowed(
      serving("runtime", "string", "", "pytorch",
              "how the engine issues its kernels: pytorch (one by one, each at the era's per-kernel overhead) or "
              "tensorrt (a TensorRT engine enqueued from C++: a step is the longer of host issue and device run)"),
      runtimes));
  f.push_back(with_allowed(
      serving("decode_attention", "string", "", "per_kv_head",
              "how decode attention reads the KV cache: per_kv_head (once per key/value head: FlashDecoding, "
              "XQA) or per_query_head (once per query head: TensorRT-LLM's masked MHA before v0.8)"),
      decode_attentions));
  f.push_back(serving("moe_routing_skew", "number", "", 0,
                      "MoE routing skew s: expert i draws a share of the tokens proportional to i^-s (0: uniform, as "
                      "the routers' load-balancing loss aims for); a decode step reads the experts its tokens touch"));
  f.push_back(serving("block_size", "integer", "tokens", 16, "tokens per KV-cache block"));
  f.push_back(
      serving("max_num_batched_tokens", "integer", "tokens", none, "chunked prefill's chunk (default: whole prompts)"));
  f.push_back(
      serving("speculative", "object", "", none, "speculative decoding: {draft_tokens, acceptance_rate, draft_net}"));
  f.push_back(
      serving("prefix_cache_hit_rate", "number", "fraction", 0, "the share of each prompt found in the prefix cache"));
  f.push_back(
      serving("tpot_target_ms", "number", "ms", none, "adds the most load whose time per output token meets it"));
  f.push_back(serving("ttft_target_ms", "number", "ms", none, "adds the most load whose time to first token meets it"));
  // Fields of `validate` and `calibrate`, read by their own readers.
  f.push_back(field("family", "string", "", none, "only the validation cases of this family (default: all)",
                    {"validate"}, N::kOwn));
  f.push_back(field("measurements", "array|string", "", none, "measured times: a list, or CSV text", {"calibrate"},
                    N::kOwn));
  f.push_back(field("request", "object", "", none, "the request each measurement's fields are laid over",
                    {"calibrate"}, N::kOwn));
  f.push_back(field("holdout", "string|number", "fraction", none,
                    "measurements held out of the fit: \"alternate\" or a fraction in (0, 1)", {"calibrate"}, N::kOwn));
  f.push_back(field("parameters", "array", "", none, "the kernel-efficiency parameters fitted (default: by net kind)",
                    {"calibrate"}, N::kOwn));
  f.push_back(with_allowed(field("loss", "string", "", "soft_l1", "the fit's robust loss", {"calibrate"}, N::kOwn),
                           losses));
  f.push_back(field("loss_scale", "number", "", none, "the robust loss's scale, from 1e-4 to 10", {"calibrate"},
                    N::kOwn));
  f.push_back(field("max_evaluations", "integer", "", none, "the fit's evaluations at most, from 1 to 100000",
                    {"calibrate"}, N::kOwn));
  return f;
}

// Names as JSON strings; an integer field's values (ZeRO stages) as numbers.
Json names_json(const Names& names, bool integers = false) {
  Json j = Json::array();
  for (const std::string& n : names) j.push_back(integers ? Json(std::stoll(n)) : Json(n));
  return j;
}

const char* nets_name(FieldNets nets) {
  switch (nets) {
    case FieldNets::kCnn: return "cnn";
    case FieldNets::kTransformer: return "transformer";
    case FieldNets::kOwn: return "own";
    case FieldNets::kAny: break;
  }
  return "any";
}

Json field_json(const FieldSpec& f) {
  Json j = {{"type", f.type}, {"unit", f.unit}, {"default", f.default_value}, {"meaning", f.meaning},
            {"nets", nets_name(f.nets)}};
  if (f.allowed) j["allowed"] = names_json(f.allowed(), f.type == "integer");
  if (f.preset_keys) j["preset_keys"] = names_json(f.preset_keys());
  if (!f.examples.empty()) j["examples"] = names_json(f.examples);
  if (!f.only_command.empty()) j["only_command"] = f.only_command;
  if (!f.needs.empty()) j["needs"] = f.needs;
  j["commands"] = names_json(f.commands);
  if (!f.members.empty()) {
    Json members = Json::object();
    for (const FieldSpec& m : f.members) members[m.name] = field_json(m);
    j["members"] = std::move(members);
  }
  return j;
}

}  // namespace

std::vector<std::string> gradient_collective_names() {
  Names names = {collective_algorithm_name(CollectiveAlgorithm::kAuto)};
  for (CollectiveAlgorithm a : flat_algorithms(CollectiveOp::kAllReduce)) names.push_back(collective_algorithm_name(a));
  names.push_back(collective_algorithm_name(CollectiveAlgorithm::kHierarchical));
  return names;
}

const std::vector<FieldSpec>& field_specs() {
  static const std::vector<FieldSpec> fields = make_field_specs();
  return fields;
}

const CommandSpec* find_command(const std::string& name) {
  for (const CommandSpec& c : command_specs())
    if (c.name == name) return &c;
  return nullptr;
}

const FieldSpec* find_field_spec(const std::string& name) {
  for (const FieldSpec& f : field_specs())
    if (f.name == name) return &f;
  return nullptr;
}

bool is_allowed(const std::string& field, const std::string& value) {
  const FieldSpec* f = find_field_spec(field);
  if (!f || !f->allowed) return false;
  const Names names = f->allowed();
  return std::find(names.begin(), names.end(), value) != names.end();
}

namespace {

// "a, b or c", each name wrapped in `quote`.
std::string or_list(const Names& names, const std::string& quote = "") {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + (quote + names[i] + quote);
  return text;
}

}  // namespace

std::string allowed_alternatives(const std::string& field) {
  const FieldSpec* f = find_field_spec(field);
  return or_list(f && f->allowed ? f->allowed() : Names(), "\"");
}

std::string known_command_list() {
  std::string known;
  for (const CommandSpec& c : command_specs()) known += (known.empty() ? "" : ", ") + c.name;
  return known;
}

std::string transformer_command_list() {
  Names names;
  for (const CommandSpec& c : command_specs())
    if (c.handle_transformer) names.push_back(c.name);
  return or_list(names);
}

std::string field_command_list(const FieldSpec& f) { return or_list(f.commands, "'"); }

Json schema_json() {
  Json commands = Json::array();
  for (const CommandSpec& c : command_specs()) {
    Json names = Json::array({"command"});
    for (const FieldSpec& f : field_specs())
      if (std::find(f.commands.begin(), f.commands.end(), c.name) != f.commands.end()) names.push_back(f.name);
    commands.push_back({{"name", c.name}, {"meaning", c.meaning}, {"fields", names}});
  }
  Json fields = Json::object();
  for (const FieldSpec& f : field_specs()) fields[f.name] = field_json(f);
  return {{"commands", std::move(commands)}, {"fields", std::move(fields)}};
}

Json schema_answer(const Json& request) {
  for (auto it = request.begin(); it != request.end(); ++it)
    if (it.key() != "command") throw Error("unknown field for 'schema' (it takes none)", "", it.key());
  Json out = {{"ok", true}, {"command", "schema"}, {"version", kVersion}};
  out.update(schema_json());
  return out;
}

}  // namespace paleo
