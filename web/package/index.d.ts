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

export type ConvAlgorithm = 'gemm' | 'precomp_gemm' | 'fft' | 'fft_tiling' | 'winograd' | 'auto';
export type Collective =
  | 'ring' | 'recursive_doubling' | 'rabenseifner' | 'binomial_tree' | 'double_binary_tree'
  | 'parameter_server' | 'sharded_parameter_server' | 'hierarchical' | 'auto';

export type Command = 'estimate' | 'simulate' | 'layers' | 'summary' | 'collective' | 'search' | 'plan' | 'inference' |
  'validate' | 'calibrate' | 'presets' | 'version';

/** The common fields of a request (docs/api.md, "Request"); the core rejects unknown fields. */
export interface RequestFields {
  profile?: 'paleo2017' | 'paleo2026';
  net?: Net;
  device?: string | DeviceSpec;
  interconnect?: string | InterconnectSpec;
  /** The name of `interconnect` before API 0.2, still read. */
  network?: string | InterconnectSpec;
  software?: string;
  ppp_comp?: number;
  ppp_comm?: number;
  batch_size?: number;
  conv_algorithm?: ConvAlgorithm;
  workspace_limit_bytes?: number;
  fetch_bandwidth_gb_per_s?: number;
  use_pipeline?: boolean;
  parallel?: 'data' | 'model' | 'hybrid';
  workers?: number[];
  scaling?: ('weak' | 'strong')[];
  hybrid_workers?: number;
  roofline?: boolean;
  input_gradient?: boolean;
  /** How activations are stored; 'nchw' adds cuDNN's layout conversions around tensor-core convolutions (software eras). */
  memory_format?: 'nhwc' | 'nchw';
  /** step (default): a framework's step; kernel: kernels timed back to back (docs/api.md). */
  timing?: 'step' | 'kernel';
  precision?: 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp8' | Record<string, string>;
  software_era?: string;
  efficiency?: Partial<Record<'matmul_ceiling' | 'conv_ceiling' | 'tile' | 'short_k' | 'vector_ceiling' | 'winograd_ceiling' |
    'memory_fraction' | 'kernel_overhead_ms' | 'step_overhead_ms' | 'message_overhead_ms' | 'misaligned_tensor_core' |
    'unfused_conv_bias' | 'pooling_efficiency' | 'launch_interval_ms' | 'wave_quantization' | 'odd_tensor_core' | 'simt_tile' |
    'transfer_serialization', number>>;
  optimizer?: 'sgd' | 'momentum' | 'adam';
  cluster?: string | ClusterSpec;
  nodes?: number;
  devices_per_node?: number;
  collective?: Collective;
  bucket_bytes?: number;
  /** The stack's collective library (default: the CNN software era's, else `any`). */
  collective_library?: 'any' | 'nccl_ring' | 'nccl';
  overlap?: boolean;
  pipeline?: { stages: number; micro_batches: number; schedule?: 'gpipe' | '1f1b'; split?: number[] };
  /** `estimate`: samples in one pass over the dataset; adds `train` (time and cost to train). */
  dataset_samples?: number;
  /** With `dataset_samples`: passes over the dataset. */
  epochs?: number;
  /** US dollars per device-hour, or a price preset key; adds `cost_usd` to `train`. */
  price_per_gpu_hour?: number | string;
  /** The `search` command: devices in all. */
  devices?: number;
  /** With a `cluster`: how the data-parallel step is synchronised (docs/training-schemes.md). */
  training_scheme?: TrainingScheme;
  /** With a `cluster`: `training_scheme` gains `comparison`, six schemes on 1, 2, 4, ... nodes. */
  scheme_comparison?: boolean;
  /** `layers` and `estimate` of a CNN gain `work_depth`. */
  work_depth?: boolean;
}

/** Jitter of the workers' step times: `none`, `normal:CV` or `lognormal:CV`. */
export type Jitter = 'none' | `normal:${number}` | `lognormal:${number}`;

/** Gradient compression (docs/training-schemes.md, "Compression"). */
export type Compression =
  | 'none' | 'fp32' | 'fp16' | 'bf16' | 'onebit' | 'ternary' | `qsgd:${number}` | `qsgd:${number}:${number}`
  | `threshold:${number}` | `topk:${number}` | `powersgd:${number}` | 'sfb';

/** The `training_scheme` request field (docs/api.md); an unknown member is an error. */
export interface TrainingScheme {
  consistency?: 'sync' | 'ssp' | 'async';
  /** SSP's bound: an integer >= 0. */
  staleness?: number;
  jitter?: Jitter;
  /** One worker that much slower, a fraction >= 0. */
  slow_worker?: number;
  compression?: Compression;
  exchange?: 'allreduce' | 'parameter_server';
  server_layout?: 'single' | 'sharded' | 'hierarchical';
  servers?: number;
  push?: 'gradients' | 'weights';
  /** Project Adam's offload of fully-connected gradients. */
  offload_fc?: boolean;
  averaging?: 'none' | 'local_sgd' | 'elastic' | 'gossip' | 'ensemble';
  averaging_every?: number;
  gossip_peers?: number;
  batch_norm?: 'local' | 'global';
}

/** Transformer and other commands' fields (docs/api.md, "Transformers", "collective", ...). */
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
  ppp_comp?: number;
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
  software_eras: { key: string; name: string; applies_to: ('cnn' | 'transformer')[]; generations: string[]; refitted_on: string[] }[];
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
