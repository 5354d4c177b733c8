// The transformer part of the page state: its inputs, their defaults, and the request documents
// (docs/api.md) they stand for: estimate and plan. The core does all the modelling.
import { CUSTOM_DEVICE, deviceOf } from './custom_device.js';
import { withProfile } from './calibration_request.js';

export const TRANSFORMER_DEFAULTS = {
  config: '', precision: 'bf16', tp: 1, pp: 1, cp: 1, ep: 1, virtual_stages: 1, sequence_parallel: false,
  expert_tp: 0,  // 0: the request's tp (the core's default), so nothing is sent
  // recompute may be '': the software era's stack chooses (the answer's `assumed` says what).
  schedule: '1f1b', seq_len: 0, global_batch: 64, micro_batch: 1, recompute: 'selective', zero: 1, attention: 'flash',
  fused_elementwise: '',  // '': the stack's ('true' fused kernels or torch.compile, 'false' eager PyTorch)
  tp_comm_overlap: '',  // '': the stack's (none); 'forward': async TP, 'forward_backward': --tp-comm-overlap
  t_cluster: '', t_nodes: 1, t_per_node: 8, train_btokens: 1000,
  t_software_era: '',  // '': the era of the device's generation
};

// What a newcomer gets on picking a transformer after a CNN: a current GPU, one 8-GPU node, bf16
// and its price. Inputs, not model numbers: the layout itself is then chosen with the core.
export const NEWCOMER_HARDWARE = { device: 'H100_SXM', t_cluster: '', t_nodes: 1, t_per_node: 8, precision: 'bf16',
  price_preset: 'aws_p5_h100_capacity_block' };

// The request field an error names -> the id of the input that sets it (the others are their own id).
export const FIELD_INPUTS = { nodes: 't_nodes', devices_per_node: 't_per_node', cluster: 't_cluster',
  software_era: 't_software_era',
  price_per_gpu_hour: 'price', train_tokens: 'train_btokens' };

// The inputs a plan depends on (a plan made for other values is out of date).
const PLAN_KEYS = ['net', 'device', 'cluster', 'nodes', 'devices_per_node', 'global_batch', 'seq_len', 'precision',
  'software_era', 'efficiency', 'fused_elementwise', 'tp_comm_overlap'];

// The stack's choices the page states: its element-wise kernels and its TP overlap ('' leaves the
// stack's default).
function withStackChoices(request, state) {
  const out = { ...request };
  if (state.fused_elementwise !== '') out.fused_elementwise = state.fused_elementwise === 'true';
  if (state.tp_comm_overlap !== '') out.tp_comm_overlap = state.tp_comm_overlap;
  return out;
}

// The "net" of a request: the pasted config (a compact {"transformer": ...} or a Hugging Face
// config.json), else the preset key. Throws a SyntaxError when the config is not JSON.
export const transformerNet = (state) => (state.config.trim() ? JSON.parse(state.config) : state.net);

function hardware(state) {
  const request = { device: deviceOf(state), nodes: state.t_nodes, devices_per_node: state.t_per_node };
  if (state.t_software_era) request.software_era = state.t_software_era;
  if (state.t_cluster) request.cluster = state.t_cluster;
  else if (state.device === CUSTOM_DEVICE && state.cd_cluster) request.cluster = state.cd_cluster;  // its preset's links
  return request;
}

export function transformerRequest(state, command = 'estimate') {
  const request = { command, net: transformerNet(state), ...hardware(state), precision: state.precision,
    tp: state.tp, pp: state.pp, cp: state.cp, sequence_parallel: state.sequence_parallel, schedule: state.schedule,
    micro_batch: state.micro_batch, global_batch: state.global_batch, attention: state.attention };
  if (state.recompute !== '') request.recompute = state.recompute;
  request.zero = state.zero;
  if (state.ep > 1) request.ep = state.ep;
  if (state.expert_tp > 0) request.expert_tp = state.expert_tp;
  if (state.virtual_stages > 1) request.virtual_stages = state.virtual_stages;
  if (state.seq_len > 0) request.seq_len = state.seq_len;
  if (state.train_btokens > 0) {
    request.train_tokens = state.train_btokens * 1e9;
    request.price_per_gpu_hour = state.price_preset || state.price;
  }
  return withProfile(withStackChoices(request, state), state.calibration, 'transformer');
}

export function planRequest(state, top = 10) {
  const request = { command: 'plan', net: transformerNet(state), ...hardware(state), precision: state.precision,
    global_batch: state.global_batch, top };
  if (state.seq_len > 0) request.seq_len = state.seq_len;
  return withProfile(withStackChoices(request, state), state.calibration, 'transformer');
}

// A fingerprint of the plan's inputs, to tell when a plan on screen is out of date.
export function planKey(request) {
  return JSON.stringify(PLAN_KEYS.map((k) => request[k] ?? null));
}

// The inputs of a plan's candidate (dp follows from the devices).
export function layoutOf(candidate) {
  const layout = {};
  for (const key of ['tp', 'pp', 'cp', 'micro_batch', 'virtual_stages', 'sequence_parallel', 'recompute', 'zero']) {
    if (candidate[key] !== undefined) layout[key] = candidate[key];
  }
  if (candidate.ep !== undefined) layout.ep = candidate.ep;
  return layout;
}
