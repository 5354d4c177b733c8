// paleo-estimator: the request and response documents of Paleo's JSON API (docs/api.md of the
// package's version). Units are in the names: _ms, _bytes, _flops, _gb_per_s, _gbit_per_s.

/** A Paleo network spec (docs/spec-format.md). */
export interface NetSpec {
  name: string;
  layers: Record<string, LayerSpec>;
}

export interface LayerSpec {
  type: string;
  parents: string[];
  [field: string]: unknown;
}

/** A net in another framework's format, converted by the core (docs/import.md). */
export type ImportedNet =
  | { prototxt: string }
  | { onnx_graph: OnnxGraph }
  | { keras: object | string };

/** The graph tools/onnx_to_graph.mjs prints: nodes and initializer dims, no weights. */
export interface OnnxGraph {
  name?: string;
  inputs: { name: string; shape: (number | string | null)[] | null }[];
  nodes: { name?: string; op: string; inputs: string[]; outputs: string[]; attributes?: Record<string, unknown> }[];
  initializers?: Record<string, { dims: number[]; data_type?: number; values?: number[] }>;
  value_shapes?: Record<string, (number | string | null)[]>;
  [field: string]: unknown;
}

/** A transformer: a compact config or a Hugging Face config.json (docs/transformer.md). */
export type TransformerNet = { transformer: Record<string, unknown> } | Record<string, unknown>;

/** A preset key (`paleo presets`), a spec, an imported net or a transformer. */
export type Net = string | NetSpec | ImportedNet | TransformerNet;

export interface DeviceSpec {
  name: string;
  clock_mhz: number;
  peak_gflops: number;
  mem_bandwidth_gb_per_s: number;
  memory_bytes?: number;
  /** Streaming multiprocessors (compute units); 0 or absent: unknown (no wave quantization). */
  sm_count?: number;
  is_gpu?: boolean;
  /** The architecture, one of the presets' ("hopper", "ampere", ...): it picks the software era. */
  generation?: string;
  /** Dense matrix-unit (tensor core) peaks per format, 1e9 FLOP/s. */
  peak_tensor_gflops?: { tf32?: number; fp16?: number; bf16?: number; fp8?: number; int8?: number };
}

export interface InterconnectSpec {
  name: string;
  bandwidth_gbit_per_s: number;
}

export interface LinkSpec {
  latency_us: number;
  bandwidth_gb_per_s: number;
}

export interface ClusterSpec {
  nodes: number;
  devices_per_node: number;
  intra: string | LinkSpec;
  inter?: string | LinkSpec;
  nics_per_node?: number;
}

/** A CNN's pipeline (docs/cluster.md). */
export interface PipelineSpec {
  stages: number;
  micro_batches: number;
  schedule?: 'gpipe' | '1f1b';
  split?: number[];
}

/** Overrides of single kernel-efficiency parameters of the software era (docs/model.md). */
export type Efficiency = Partial<Record<'matmul_ceiling' | 'fp8_matmul_ceiling' | 'conv_ceiling' | 'tile' | 'short_k' |
  'vector_ceiling' | 'winograd_ceiling' | 'memory_fraction' | 'kernel_overhead_ms' | 'step_overhead_ms' |
  'message_overhead_ms' | 'misaligned_tensor_core' | 'unfused_conv_bias' | 'pooling_efficiency' | 'launch_interval_ms' |
  'wave_quantization' | 'odd_tensor_core' | 'simt_tile' | 'transfer_serialization', number>>;

/** Number formats by role: compute, activations, params, master_weights, optimizer_state, gradients, grad_reduce. */
export type PrecisionFormats = Record<string, string>;

// BEGIN request fields: generated from {"command": "schema"} by scripts/gen_from_schema.mjs
export type ConvAlgorithm = 'gemm' | 'precomp_gemm' | 'fft' | 'fft_tiling' | 'winograd' | 'auto';
export type Collective = 'auto' | 'ring' | 'recursive_doubling' | 'rabenseifner' | 'binomial_tree' | 'double_binary_tree' | 'parameter_server' | 'sharded_parameter_server' | 'hierarchical';
export type Command = 'estimate' | 'simulate' | 'layers' | 'summary' | 'collective' | 'search' | 'plan' | 'inference' | 'validate' | 'calibrate' | 'presets' | 'version' | 'schema';

/** Every request field but `command` (docs/api.md, "Request"); the core rejects unknown fields. */
export interface RequestFields {
  /** model profile: the set of modelling choices; default: "paleo2026"; commands: estimate, layers, summary, simulate, search, collective. */
  profile?: 'paleo2017' | 'paleo2026';
  /** device preset key or object (default TITAN_X for a CNN, H100_SXM for a transformer); commands: estimate, layers, simulate, search, collective, plan, inference. */
  device?: string | DeviceSpec;
  /** PALEO's interconnect between workers: preset key or {name, bandwidth_gbit_per_s}; default: "ethernet"; commands: estimate, layers, simulate. */
  interconnect?: string | InterconnectSpec;
  /** the name of "interconnect" before API 0.2; commands: estimate, layers, simulate. */
  network?: string | InterconnectSpec;
  /** software preset: sets ppp_comp and ppp_comm; commands: estimate, layers, simulate, search. */
  software?: string;
  /** platform percent of peak for computation and local memory; unit: fraction; default: 1; commands: estimate, layers, simulate, search. */
  ppp_comp?: number;
  /** platform percent of peak for the network; unit: fraction; default: 1; commands: estimate, layers, simulate, search. */
  ppp_comm?: number;
  /** cluster preset key or object; default: the device's node preset when nodes or devices_per_node is given; commands: estimate, layers, search, collective, plan, inference. */
  cluster?: string | ClusterSpec;
  /** nodes of the cluster (default: the cluster's); commands: estimate, layers, search, collective, plan, inference. */
  nodes?: number;
  /** devices per node of the cluster, or of the search (default: the cluster's); commands: estimate, layers, search, collective, plan, inference. */
  devices_per_node?: number;
  /** devices in all: the search's, or a transformer's cluster; commands: search, estimate, layers, plan, inference. */
  devices?: number;
  /** convolution algorithm; auto: the fastest that fits workspace_limit_bytes; default: "gemm"; commands: estimate, layers, simulate, search. */
  conv_algorithm?: ConvAlgorithm;
  /** workspace limit of conv_algorithm auto; unit: bytes; default: 4294967296; commands: estimate, layers, simulate, search. */
  workspace_limit_bytes?: number;
  /** bandwidth of activation fetches between model-parallel splits (default: device memory's); unit: GB/s; commands: estimate, layers, simulate, search. */
  fetch_bandwidth_gb_per_s?: number;
  /** per layer max(comp, comm) instead of their sum; default: false; commands: estimate, layers, simulate, search. */
  use_pipeline?: boolean;
  /** the simulation's parallelism; default: "data"; commands: simulate. */
  parallel?: 'data' | 'model' | 'hybrid';
  /** worker counts of the data-parallel simulation; default: [1,2,4,8,16,32,64,128]; commands: simulate, estimate. */
  workers?: number | number[];
  /** weak and/or strong scaling, in that order; default: ["weak","strong"]; commands: simulate, estimate. */
  scaling?: 'weak' | 'strong' | ('weak' | 'strong')[];
  /** workers of the hybrid simulation; default: 1; commands: simulate. */
  hybrid_workers?: number;
  /** the gradient all-reduce algorithm; default: "auto"; commands: estimate. */
  collective?: Collective;
  /** gradient bucket size (PyTorch DDP's 25 MiB); 0: one bucket per layer; unit: bytes; default: 26214400; commands: estimate. */
  bucket_bytes?: number;
  /** the answer's top-level members wanted (ok, command, kind and warnings always come); default: all; commands: estimate, layers, summary, inference. */
  sections?: unknown[];
  /** the answer's top-level members not wanted (ok, command, kind and warnings always come); not with sections; commands: estimate, layers, summary, inference. */
  omit_sections?: unknown[];
  /** node_scaling covers 1, 2, 4, ... nodes up to this or nodes, whichever is more (default: nodes); commands: estimate. */
  node_scaling_max_nodes?: number;
  /** the stack's collective library (default: the era's, else any); commands: estimate, layers, plan. */
  collective_library?: 'any' | 'nccl_ring' | 'nccl';
  /** the weight update's state and traffic (default: sgd for a CNN, adam for a transformer); commands: estimate, layers, plan, inference. */
  optimizer?: 'sgd' | 'momentum' | 'adam';
  /** {stages, micro_batches, schedule, split}: a CNN's pipeline; commands: estimate. */
  pipeline?: PipelineSpec;
  /** gradient sync overlapped with the backward pass (search: false unless given); default: true; commands: estimate, search, plan. */
  overlap?: boolean;
  /** each pass takes max(compute, memory) instead of their sum; default: false; commands: estimate, layers, simulate, search. */
  roofline?: boolean;
  /** how the data-parallel step is synchronised on the cluster; commands: estimate. */
  training_scheme?: TrainingScheme;
  /** add each layer's work, depth and parallelism; default: false; commands: estimate, layers. */
  work_depth?: boolean;
  /** add schemes compared over node counts; default: false; commands: estimate. */
  scheme_comparison?: boolean;
  /** layers fed by the input also compute its gradient; default: false; commands: estimate, layers, simulate, search. */
  input_gradient?: boolean;
  /** how activations are stored; default: "nhwc"; commands: estimate, layers, simulate, search. */
  memory_format?: 'nhwc' | 'nchw';
  /** a framework's step, or kernels back to back; default: "step"; commands: estimate, layers, simulate, search. */
  timing?: 'step' | 'kernel';
  /** the step's kernels are replayed from a CUDA graph: each costs the device's launch time, not the era's per-kernel overhead; default: false; commands: estimate, layers, simulate, search. */
  cuda_graph_step?: boolean;
  /** each batch norm also performs the ReLU after it, or the residual add and the ReLU: one kernel each way for the chain, no pass or kernel for the ReLU and the add; default: false; commands: estimate, layers, simulate, search. */
  fused_batchnorm_activation?: boolean;
  /** samples in one pass over the dataset; adds train (time and cost to train); unit: samples; commands: estimate. */
  dataset_samples?: number;
  /** passes over the dataset; default: 1; commands: estimate. */
  epochs?: number;
  /** a device-hour's price, or a price preset key; adds cost_usd to train (inference: the cost of a million output tokens); unit: USD per device-hour; commands: estimate, plan, inference. */
  price_per_gpu_hour?: number | string;
  /** the collective operation; default: "allreduce"; commands: collective. */
  op?: 'allreduce' | 'reducescatter' | 'allgather' | 'broadcast' | 'alltoall';
  /** the collective's algorithm; default: "auto"; commands: collective. */
  algorithm?: 'auto' | 'ring' | 'recursive_doubling' | 'rabenseifner' | 'binomial_tree' | 'double_binary_tree' | 'parameter_server' | 'sharded_parameter_server' | 'pairwise' | 'hierarchical';
  /** the vector each process holds; unit: bytes; default: 0; commands: collective. */
  bytes?: number;
  /** link preset key or {latency_us, bandwidth_gb_per_s}, unless a cluster is given; commands: collective. */
  link?: string | LinkSpec;
  /** parameter servers (sharded_parameter_server); default: 1; commands: collective. */
  servers?: number;
  /** net preset key, a network spec, an imported net, or a transformer; commands: estimate, layers, summary, simulate, search, plan, inference. */
  net?: string | Net;
  /** per-worker batch (default: the spec's); a transformer's inference batch (default 1); unit: samples; commands: estimate, layers, summary, simulate, search, inference. */
  batch_size?: number;
  /** number formats: fp32, tf32, fp16, bf16, fp8 or an object of formats (default fp32 for a CNN, bf16 for a transformer); commands: estimate, layers, simulate, search, plan, inference, calibrate. */
  precision?: 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8' | 'fp8_e4m3' | 'fp8_e5m2' | PrecisionFormats;
  /** software era pricing each kernel (default: the era of the device's generation; a transformer's ZeRO-3 training there: its FSDP era); commands: estimate, layers, simulate, search, plan, inference, calibrate. */
  software_era?: string;
  /** overrides single parameters of the era's kernel efficiency; commands: estimate, layers, simulate, search, plan, inference, calibrate. */
  efficiency?: Efficiency;
  /** tokens per sequence (default: the model's); unit: tokens; commands: estimate, layers, plan, inference. */
  seq_len?: number;
  /** sequences per step (default: dp x micro_batch); unit: sequences; commands: estimate, layers, plan. */
  global_batch?: number;
  /** sequences per micro-batch per replica; unit: sequences; default: 1; commands: estimate, layers, plan. */
  micro_batch?: number;
  /** tensor parallelism; estimate, layers: "smallest_that_fits" chooses the smallest that fits; default: 1; commands: estimate, layers, plan, inference. */
  tp?: number | string;
  /** pipeline parallelism; default: 1; commands: estimate, layers, plan, inference. */
  pp?: number;
  /** data-parallel replicas (default: devices / (tp pp cp)); commands: estimate, layers, plan, inference. */
  dp?: number;
  /** context parallelism; default: 1; commands: estimate, layers, plan. */
  cp?: number;
  /** expert parallelism; default: 1; commands: estimate, layers, plan. */
  ep?: number;
  /** expert tensor parallelism (default: tp); commands: estimate, layers, plan. */
  expert_tp?: number;
  /** interleaved 1F1B chunks per device (an era may say auto); default: 1; commands: estimate, layers, plan. */
  virtual_stages?: number;
  /** sequence parallelism under TP; default: false; commands: estimate, layers, plan. */
  sequence_parallel?: boolean;
  /** pipeline schedule (interleaved: 1f1b with virtual_stages > 1); default: "1f1b"; commands: estimate, layers, plan. */
  schedule?: 'gpipe' | '1f1b';
  /** activation recomputation (an era may choose it); default: "none"; commands: estimate, layers, plan. */
  recompute?: 'none' | 'selective' | 'selective_op' | 'full';
  /** ZeRO stage (3 = FSDP); default: 0; commands: estimate, layers, plan. */
  zero?: 0 | 1 | 2 | 3;
  /** attention kernel; default: "flash"; commands: estimate, layers, plan, inference. */
  attention?: 'flash' | 'materialized';
  /** ZeRO 3: gather each layer's weights again for its backward; default: true; commands: estimate, layers, plan. */
  reshard_after_forward?: boolean;
  /** ZeRO 3: gathers per layer, prefetched (FSDP), or per weight tensor, blocking (DeepSpeed 2021; an era the request names may choose it); default: "layer_prefetched"; commands: estimate, layers, plan. */
  zero3_gather?: 'layer_prefetched' | 'tensor_blocking';
  /** fp8: keep a cached fp8 copy of every weight; default: true; commands: estimate, layers, plan. */
  fp8_weight_copy?: boolean;
  /** the loss in one fused kernel on the logits; default: true; commands: estimate, layers, plan. */
  fused_cross_entropy?: boolean;
  /** RMSNorm, rotary embedding and gated activation each in one kernel (fused kernels or torch.compile); false: PyTorch's eager composites; default: true; commands: estimate, layers, plan. */
  fused_elementwise?: boolean;
  /** with sequence parallelism, the passes whose TP all-gathers and reduce-scatters run under the linear layers' GEMMs: forward (torchtitan's async TP), forward_backward (Megatron-Core's --tp-comm-overlap); default: "none"; commands: estimate, layers, plan. */
  tp_comm_overlap?: 'none' | 'forward' | 'forward_backward';
  /** tokens to train on; adds train (time and cost to train); unit: tokens; commands: estimate. */
  train_tokens?: number;
  /** prompt tokens (default: seq_len); unit: tokens; commands: inference. */
  prompt_len?: number;
  /** tokens generated; unit: tokens; default: 128; commands: inference. */
  generate_len?: number;
  /** candidate layouts returned; default: 10; commands: plan. */
  top?: number;
  /** requests in flight per replica under continuous batching (default: batch_size); unit: requests; commands: inference. */
  concurrency?: number;
  /** requests per second over all replicas; the concurrency is solved for it; unit: requests/s; commands: inference. */
  request_rate?: number;
  /** the KV cache's number format (default: the activations'); commands: inference. */
  kv_cache_dtype?: 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8' | 'fp8_e4m3' | 'fp8_e5m2';
  /** the share of device memory the engine takes; unit: fraction; default: 0.9; commands: inference. */
  gpu_memory_utilization?: number;
  /** TensorRT-LLM's rule instead: the KV cache's share of the memory left after the weights; unit: fraction; commands: inference. */
  kv_cache_free_gpu_mem_fraction?: number;
  /** decode steps without a prompt replay CUDA graphs: a kernel costs the device's launch time (vLLM, SGLang and TensorRT-LLM's default; false: every kernel launched eagerly); default: true; commands: inference. */
  cuda_graphs?: boolean;
  /** new prompts ride in the decode step's pass (in-flight batching, vLLM's chunked prefill): their work, not their launches; default: true; commands: inference. */
  mixed_steps?: boolean;
  /** how the engine issues its kernels: pytorch (one by one, each at the era's per-kernel overhead) or tensorrt (a TensorRT engine enqueued from C++: a step is the longer of host issue and device run); default: "pytorch"; commands: inference. */
  runtime?: 'pytorch' | 'tensorrt';
  /** how decode attention reads the KV cache: per_kv_head (once per key/value head: FlashDecoding, XQA) or per_query_head (once per query head: TensorRT-LLM's masked MHA before v0.8); default: "per_kv_head"; commands: inference. */
  decode_attention?: 'per_kv_head' | 'per_query_head';
  /** MoE routing skew s: expert i draws a share of the tokens proportional to i^-s (0: uniform, as the routers' load-balancing loss aims for); a decode step reads the experts its tokens touch; default: 0; commands: inference. */
  moe_routing_skew?: number;
  /** tokens per KV-cache block; unit: tokens; default: 16; commands: inference. */
  block_size?: number;
  /** chunked prefill's chunk (default: whole prompts); unit: tokens; commands: inference. */
  max_num_batched_tokens?: number;
  /** speculative decoding: {draft_tokens, acceptance_rate, draft_net}; commands: inference. */
  speculative?: Record<string, unknown>;
  /** the share of each prompt found in the prefix cache; unit: fraction; default: 0; commands: inference. */
  prefix_cache_hit_rate?: number;
  /** adds the most load whose time per output token meets it; unit: ms; commands: inference. */
  tpot_target_ms?: number;
  /** adds the most load whose time to first token meets it; unit: ms; commands: inference. */
  ttft_target_ms?: number;
  /** only the validation cases of this family (default: all); commands: validate. */
  family?: string;
  /** measured times: a list, or CSV text; commands: calibrate. */
  measurements?: unknown[] | string;
  /** the request each measurement's fields are laid over; commands: calibrate. */
  request?: Record<string, unknown>;
  /** measurements held out of the fit: "alternate" or a fraction in (0, 1); unit: fraction; commands: calibrate. */
  holdout?: string | number;
  /** the kernel-efficiency parameters fitted (default: by net kind); commands: calibrate. */
  parameters?: unknown[];
  /** the fit's robust loss; default: "soft_l1"; commands: calibrate. */
  loss?: 'linear' | 'soft_l1' | 'huber';
  /** the robust loss's scale, from 1e-4 to 10; commands: calibrate. */
  loss_scale?: number;
  /** the fit's evaluations at most, from 1 to 100000; commands: calibrate. */
  max_evaluations?: number;
}

/** The `training_scheme` request field (docs/api.md); an unknown member is an error. */
export interface TrainingScheme {
  /** how workers wait for each other; default: "sync". */
  consistency?: 'sync' | 'ssp' | 'async';
  /** SSP's bound on how far a worker runs ahead; unit: steps. */
  staleness?: number;
  /** workers' step-time spread: none, normal:CV or lognormal:CV; default: "none". */
  jitter?: Jitter;
  /** one worker that much slower; unit: fraction. */
  slow_worker?: number;
  /** gradient compression (docs/training-schemes.md); default: "none". */
  compression?: Compression;
  /** how gradients are exchanged; default: "allreduce". */
  exchange?: 'allreduce' | 'parameter_server';
  /** the parameter servers' layout; default: "single". */
  server_layout?: 'single' | 'sharded' | 'hierarchical';
  /** parameter servers. */
  servers?: number;
  /** what workers push to the servers; default: "gradients". */
  push?: 'gradients' | 'weights';
  /** Project Adam's offload of fully-connected gradients; default: false. */
  offload_fc?: boolean;
  /** model averaging between steps; default: "none". */
  averaging?: 'none' | 'local_sgd' | 'elastic' | 'gossip' | 'ensemble';
  /** steps between averagings; unit: steps. */
  averaging_every?: number;
  /** peers each worker averages with (gossip). */
  gossip_peers?: number;
  /** batch-norm statistics; default: "local". */
  batch_norm?: 'local' | 'global';
}

/** The fields each command reads. */
export interface CommandFields {
  /** a step's time per layer and in total, with the cluster, scaling and time to train asked for. */
  estimate: Pick<RequestFields, 'profile' | 'device' | 'interconnect' | 'network' | 'software' | 'ppp_comp' | 'ppp_comm' | 'cluster' | 'nodes' | 'devices_per_node' | 'devices' | 'conv_algorithm' | 'workspace_limit_bytes' | 'fetch_bandwidth_gb_per_s' | 'use_pipeline' | 'workers' | 'scaling' | 'collective' | 'bucket_bytes' | 'sections' | 'omit_sections' | 'node_scaling_max_nodes' | 'collective_library' | 'optimizer' | 'pipeline' | 'overlap' | 'roofline' | 'training_scheme' | 'work_depth' | 'scheme_comparison' | 'input_gradient' | 'memory_format' | 'timing' | 'cuda_graph_step' | 'fused_batchnorm_activation' | 'dataset_samples' | 'epochs' | 'price_per_gpu_hour' | 'net' | 'batch_size' | 'precision' | 'software_era' | 'efficiency' | 'seq_len' | 'global_batch' | 'micro_batch' | 'tp' | 'pp' | 'dp' | 'cp' | 'ep' | 'expert_tp' | 'virtual_stages' | 'sequence_parallel' | 'schedule' | 'recompute' | 'zero' | 'attention' | 'reshard_after_forward' | 'zero3_gather' | 'fp8_weight_copy' | 'fused_cross_entropy' | 'fused_elementwise' | 'tp_comm_overlap' | 'train_tokens'>;
  /** the original's data-, model- or hybrid-parallel simulation of a CNN. */
  simulate: Pick<RequestFields, 'profile' | 'device' | 'interconnect' | 'network' | 'software' | 'ppp_comp' | 'ppp_comm' | 'conv_algorithm' | 'workspace_limit_bytes' | 'fetch_bandwidth_gb_per_s' | 'use_pipeline' | 'parallel' | 'workers' | 'scaling' | 'hybrid_workers' | 'roofline' | 'input_gradient' | 'memory_format' | 'timing' | 'cuda_graph_step' | 'fused_batchnorm_activation' | 'net' | 'batch_size' | 'precision' | 'software_era' | 'efficiency'>;
  /** each layer's shapes, work and time on one device. */
  layers: Pick<RequestFields, 'profile' | 'device' | 'interconnect' | 'network' | 'software' | 'ppp_comp' | 'ppp_comm' | 'cluster' | 'nodes' | 'devices_per_node' | 'devices' | 'conv_algorithm' | 'workspace_limit_bytes' | 'fetch_bandwidth_gb_per_s' | 'use_pipeline' | 'sections' | 'omit_sections' | 'collective_library' | 'optimizer' | 'roofline' | 'work_depth' | 'input_gradient' | 'memory_format' | 'timing' | 'cuda_graph_step' | 'fused_batchnorm_activation' | 'net' | 'batch_size' | 'precision' | 'software_era' | 'efficiency' | 'seq_len' | 'global_batch' | 'micro_batch' | 'tp' | 'pp' | 'dp' | 'cp' | 'ep' | 'expert_tp' | 'virtual_stages' | 'sequence_parallel' | 'schedule' | 'recompute' | 'zero' | 'attention' | 'reshard_after_forward' | 'zero3_gather' | 'fp8_weight_copy' | 'fused_cross_entropy' | 'fused_elementwise' | 'tp_comm_overlap'>;
  /** each layer's output shape and parameters, without a device. */
  summary: Pick<RequestFields, 'profile' | 'sections' | 'omit_sections' | 'net' | 'batch_size'>;
  /** the time of one collective operation on a link or cluster. */
  collective: Pick<RequestFields, 'profile' | 'device' | 'cluster' | 'nodes' | 'devices_per_node' | 'op' | 'algorithm' | 'bytes' | 'link' | 'servers'>;
  /** the fastest layer-wise parallelization of a CNN over devices. */
  search: Pick<RequestFields, 'profile' | 'device' | 'software' | 'ppp_comp' | 'ppp_comm' | 'cluster' | 'nodes' | 'devices_per_node' | 'devices' | 'conv_algorithm' | 'workspace_limit_bytes' | 'fetch_bandwidth_gb_per_s' | 'use_pipeline' | 'overlap' | 'roofline' | 'input_gradient' | 'memory_format' | 'timing' | 'cuda_graph_step' | 'fused_batchnorm_activation' | 'net' | 'batch_size' | 'precision' | 'software_era' | 'efficiency'>;
  /** a transformer's layouts that fit, fastest first. */
  plan: Pick<RequestFields, 'device' | 'cluster' | 'nodes' | 'devices_per_node' | 'devices' | 'collective_library' | 'optimizer' | 'overlap' | 'price_per_gpu_hour' | 'net' | 'precision' | 'software_era' | 'efficiency' | 'seq_len' | 'global_batch' | 'micro_batch' | 'tp' | 'pp' | 'dp' | 'cp' | 'ep' | 'expert_tp' | 'virtual_stages' | 'sequence_parallel' | 'schedule' | 'recompute' | 'zero' | 'attention' | 'reshard_after_forward' | 'zero3_gather' | 'fp8_weight_copy' | 'fused_cross_entropy' | 'fused_elementwise' | 'tp_comm_overlap' | 'top'>;
  /** a transformer's prefill and decode times. */
  inference: Pick<RequestFields, 'device' | 'cluster' | 'nodes' | 'devices_per_node' | 'devices' | 'sections' | 'omit_sections' | 'optimizer' | 'price_per_gpu_hour' | 'net' | 'batch_size' | 'precision' | 'software_era' | 'efficiency' | 'seq_len' | 'tp' | 'pp' | 'dp' | 'attention' | 'prompt_len' | 'generate_len' | 'concurrency' | 'request_rate' | 'kv_cache_dtype' | 'gpu_memory_utilization' | 'kv_cache_free_gpu_mem_fraction' | 'cuda_graphs' | 'mixed_steps' | 'runtime' | 'decode_attention' | 'moe_routing_skew' | 'block_size' | 'max_num_batched_tokens' | 'speculative' | 'prefix_cache_hit_rate' | 'tpot_target_ms' | 'ttft_target_ms'>;
  /** the estimates of the validation cases against their published measurements. */
  validate: Pick<RequestFields, 'family'>;
  /** kernel-efficiency parameters fitted to measured times. */
  calibrate: Pick<RequestFields, 'precision' | 'software_era' | 'efficiency' | 'measurements' | 'request' | 'holdout' | 'parameters' | 'loss' | 'loss_scale' | 'max_evaluations'>;
  /** the preset nets, devices, clusters, eras and names a request may use. */
  presets: Record<string, never>;
  /** the core's version and its model profiles. */
  version: Record<string, never>;
  /** this description of every command and its fields. */
  schema: Record<string, never>;
}
// END request fields

/** Jitter of the workers' step times: `none`, `normal:CV` or `lognormal:CV`. */
export type Jitter = 'none' | `normal:${number}` | `lognormal:${number}`;

/** Gradient compression (docs/training-schemes.md, "Compression"). */
export type Compression =
  | 'none' | 'fp32' | 'fp16' | 'bf16' | 'onebit' | 'ternary' | `qsgd:${number}` | `qsgd:${number}:${number}`
  | `threshold:${number}` | `topk:${number}` | `powersgd:${number}` | 'sfb';

/** Any other member: RequestFields types every field of this version; the core rejects a field it does not know. */
export interface OtherFields {
  [field: string]: unknown;
}

/** Any request document. */
export type Request = RequestFields & OtherFields & { command: Command };
/** estimate(): the request without its command. */
export type EstimateRequest = RequestFields & OtherFields;
/** search(): a net and the devices, per-device batch in `batch_size`. */
export type SearchRequest = RequestFields & OtherFields & { net: Net; devices: number };

export interface ErrorResponse {
  ok: false;
  error: { message: string; layer: string; field: string };
}

export interface PassCost {
  comp_ms: number;
  mem_ms: number;
  total_ms: number;
  flops?: number;
  bytes?: number;
  algorithm?: string;
}

export interface LayerResult {
  name: string;
  type: string;
  device_id: string;
  inputs: number[][];
  output: number[];
  params: number;
  weights_bytes: number;
  forward: PassCost;
  backward_data: PassCost;
  backward_filter: PassCost;
  backward: PassCost;
}

export interface Totals {
  forward_ms: number;
  backward_ms: number;
  update_ms: number;
  step_ms: number;
  forward_comp_ms: number;
  forward_mem_ms: number;
  backward_comp_ms: number;
  backward_mem_ms: number;
  update_comp_ms: number;
  update_mem_ms: number;
  forward_pipelined_ms: number;
  backward_pipelined_ms: number;
  update_pipelined_ms: number;
  forward_branch_parallel_ms: number;
  backward_branch_parallel_ms: number;
  throughput_samples_per_s: number;
  forward_flops: number;
  params: number;
  params_bytes: number;
  activation_bytes: number;
}

export interface ExpectedError {
  family: string;
  median_abs_error: number;
  max_abs_error: number;
  cases: number;
  cross_validated: boolean;
  /** How the figures were obtained (docs/validation.md): each case predicted without its own
   * source, without itself, by a model with nothing fitted to the family, or in sample. */
  cross_validation: 'leave_one_source_out' | 'leave_one_case_out' | 'out_of_sample' | 'in_sample';
  source: string;
}

export interface SimulationRow {
  workers: number;
  batch_size: number;
  iter: number;
  time_fwd_ms: number;
  time_bwd_ms: number;
  time_apply_ms: number;
  time_comp_ms: number;
  comm_ms: Record<'OneToAll' | 'TreeAllReduce' | 'ButterflyAllReduce' | 'ButterflyMixing', number>;
  speedup: Record<'OneToAll' | 'TreeAllReduce' | 'ButterflyAllReduce' | 'ButterflyMixing', number>;
}

/** One setup of `train` (docs/api.md, "Time to train"). */
export interface TrainSetup {
  setup: string;
  devices: number;
  scheme: string | null;
  samples_per_step: number;
  step_ms: number;
  steps: number;
  time_s: number;
  time_days: number;
  device_hours: number;
  cost_usd?: number;
}

export interface Train {
  dataset_samples: number;
  epochs: number;
  price_per_gpu_hour?: number;
  price_key?: string;
  /** Index of the setup the response's own step is. */
  headline: number;
  /** Index of the setup of least time. */
  fastest: number;
  setups: TrainSetup[];
}

/** The `parameter_server` part of `training_scheme`: present when servers carry the exchange. */
export interface ParameterServerSection {
  layout: 'single' | 'sharded' | 'hierarchical';
  servers: number;
  push: 'gradients' | 'weights';
  pushed_bytes: number;
  pulled_bytes: number;
  offload_fc: boolean;
  fc_values_dense: number;
  fc_values_offloaded: number;
  server_compute_ms: number;
  updates_per_s_cap: number;
  [field: string]: unknown;
}

/** One scheme of `comparison`: its step on 1, 2, 4, ... nodes. */
export interface SchemeComparison {
  scheme: string;
  points: { nodes: number; workers: number; step_ms: number; throughput_samples_per_s: number;
    wire_bytes_per_step: number }[];
}

/** `estimate` with `training_scheme` or `scheme_comparison` (docs/api.md, "training_scheme"). */
export interface TrainingSchemeSection {
  consistency: 'sync' | 'ssp' | 'async';
  exchange: string;
  workers: number;
  compute_ms: number;
  deterministic_step_ms: number;
  step_ms: number;
  exposed_comm_ms: number;
  codec_ms: number;
  batch_norm_sync_ms: number;
  batch_norm_layers: number;
  throughput_samples_per_s: number;
  updates_per_s: number;
  staleness_expected: number;
  staleness_bound: number;
  capped_by_servers: boolean;
  dense_gradient_bytes: number;
  message_bytes: number;
  /** null when nothing is sent. */
  compression_ratio: number | null;
  wire_bytes_per_step: number;
  extra_memory_bytes: number;
  /** Only with gossip. */
  gossip_rounds?: number;
  parameter_server?: ParameterServerSection;
  /** Only with `scheme_comparison`. */
  comparison?: SchemeComparison[];
  [field: string]: unknown;
}

/** `layers` and `estimate` with `work_depth` (work in multiply-adds, as the survey counts it). */
export interface WorkDepthSection {
  device_lanes: number;
  layers_too_small: number;
  layers: { name: string; type: string; work: number; depth: number; parallelism: number; fills_device: boolean }[];
}

/** `estimate` and `layers` of a CNN (docs/api.md, "layers and estimate"). */
export interface EstimateResponse {
  ok: true;
  net: { name: string; batch_size: number; layer_count: number };
  device: DeviceSpec & { key?: string };
  profile: string;
  ppp_comp?: string;
  ppp_comm?: number;
  layers: LayerResult[];
  totals: Totals;
  expected_error: ExpectedError;
  warnings: string[];
  simulation?: { parallel: 'data'; scaling: { scaling: 'weak' | 'strong'; rows: SimulationRow[] }[] } | Record<string, unknown>;
  cluster?: Record<string, unknown>;
  /** With `dataset_samples`: the time and cost to train. */
  train?: Train;
  /** With `training_scheme` or `scheme_comparison`. */
  training_scheme?: TrainingSchemeSection;
  /** With `work_depth`. */
  work_depth?: WorkDepthSection;
  [field: string]: unknown;
}

export interface StrategyConfig {
  n: number;
  c: number;
  h: number;
  w: number;
}

/** `search` (docs/api.md, "search"). */
export interface SearchResponse {
  ok: true;
  command: 'search';
  devices: number;
  devices_per_node: number;
  batch_per_device: number;
  global_batch: number;
  step_ms: number;
  data_parallel_step_ms: number;
  model_parallel_step_ms: number;
  /** Bytes moved per step by the layer-wise strategy found: exchanges plus activations, forward and back. */
  traffic_bytes: number;
  data_parallel_traffic_bytes: number;
  model_parallel_traffic_bytes: number;
  /** Krizhevsky's "one weird trick": samples split up to the first dense layer, channels from it on. */
  one_weird_trick_step_ms: number;
  one_weird_trick_traffic_bytes: number;
  best_uniform: { config: StrategyConfig; step_ms: number };
  speedup_over_data_parallel: number;
  speedup_over_best_uniform: number;
  layers: { name: string; type: string; config: StrategyConfig; devices: number; t_c_ms: number; t_s_ms: number;
    t_x_in_ms: number }[];
  scaling: Record<string, number>[];
  /** Whether the steps were priced with the exchanges overlapping the backward pass. */
  overlap: boolean;
  /** The software era pricing the layers (absent with a PPP). */
  software_era?: Record<string, unknown>;
  /** The `cnn_layer_wise` family's figures (docs/validation.md). */
  expected_error: ExpectedError;
  warnings: string[];
  [field: string]: unknown;
}

/** `presets` (docs/api.md, "presets"). */
export interface PresetsResponse {
  ok: true;
  nets: { key: string; name: string; label?: string; batch_size: number }[];
  devices: (DeviceSpec & { key: string })[];
  interconnects: (InterconnectSpec & { key: string })[];
  software: { key: string; name: string; ppp_comp: number; ppp_comm: number }[];
  software_eras: { key: string; name: string; applies_to: ('cnn' | 'transformer')[]; generations: string[]; zero3_generations: string[]; refitted_on: string[] }[];
  scenarios: { key: string; title: string; request: Request }[];
  conv_algorithms: ConvAlgorithm[];
  original_schemes: string[];
  collectives: string[];
  [field: string]: unknown;
}

/** Any request document; resolves to its response document (`ok` false on a bad request). */
export function request(document: Request): Promise<Record<string, unknown> & ({ ok: true } | ErrorResponse)>;
/** `command: "estimate"` with the given fields. */
export function estimate(request: EstimateRequest): Promise<EstimateResponse | ErrorResponse>;
/** `command: "search"` with the given fields (docs/layerwise.md). */
export function search(request: SearchRequest): Promise<SearchResponse | ErrorResponse>;
/** The built-in presets. */
export function presets(): Promise<PresetsResponse | ErrorResponse>;
/** The API version, which is the package's version. */
export function version(): Promise<string>;
