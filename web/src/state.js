// The page state: every input, its default, its round trip through the URL hash, and the request
// documents of docs/api.md it stands for (a CNN's here, a transformer's in transformer_request.js).
// The hash is compressed: "#z=" and the deflated parameters in base64url (fflate); a link of the
// uncompressed form ("#net=vgg16&...") still loads. Writing one is link_compress.js's.
import { strFromU8 } from 'fflate';
import { LinkTooLong, inflateBounded, inflateBoundedAsync } from './link_inflate.js';
import { TRANSFORMER_DEFAULTS } from './transformer_request.js';
import { SERVING_DEFAULTS } from './serving_request.js';
import { SCHEME_DEFAULTS, schemeRequest } from './training_scheme_request.js';
import { netFromText } from './net_text.js';
import { withInputShape } from './input_shape.js';
import { CUSTOM_DEVICE_DEFAULTS, deviceOf } from './custom_device.js';
import { withProfile } from './calibration_request.js';

// The default scenario is one of today: ResNet-50 on a DGX H100 node, kernels priced with the
// software era of the H100 (no PPP pair), in bf16 mixed precision as it is trained there (the
// core's "bf16": bf16 products, fp32 master weights; '' is the core's fp32).
export const DEFAULTS = {
  net: 'resnet50_v1_5', spec: '', input_shape: '', device: 'H100_SXM', network: 'ethernet',
  software_era: '', software: '', ppp_comp: 1, ppp_comm: 1,  // software_era '': the device's generation's
  profile: 'paleo2026', conv_algorithm: '', cnn_precision: 'bf16', memory_format: '', timing: '', batch_size: 0,
  optimizer: 'sgd',
  workers: '1,2,4,8,16,32,64,128', scaling: 'weak', parallel: 'data', hybrid_workers: 1,
  dataset: 1281167, epochs: 90, price_preset: '', price: 0.9,
  compare_on: false, b_device: '', b_network: '', b_software: '', b_batch: 0,
  cluster_on: true, cluster: 'dgx_h100_ndr', nodes: 1, collective: 'auto', overlap: true, bucket_mib: 25,
  stages: 1, micro_batches: 1,
  search_on: false, search_devices: 16, search_per_node: 4,
  calibration: '',  // a calibration profile applied to every request, as JSON text
  ...TRANSFORMER_DEFAULTS,
  ...SERVING_DEFAULTS,
  ...SCHEME_DEFAULTS,
  ...CUSTOM_DEVICE_DEFAULTS,
};

const NUMBERS = new Set(Object.keys(DEFAULTS).filter((k) => typeof DEFAULTS[k] === 'number'));
const BOOLEANS = new Set(Object.keys(DEFAULTS).filter((k) => typeof DEFAULTS[k] === 'boolean'));

export const isNumberKey = (key) => NUMBERS.has(key);

// Only what differs from the defaults goes into the hash, so links stay short.
export function toParams(state) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    if (!(key in DEFAULTS) || value === DEFAULTS[key]) continue;
    params.set(key, BOOLEANS.has(key) ? (value ? '1' : '0') : String(value));
  }
  return params.toString();
}

// Base64url without padding, of bytes and back (null when the text is not base64url).
export function toBase64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    // A plain loop: Uint8Array.from's callback per byte took 300 ms on a 544 KB link.
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

// Text deflated in base64url (link_compress.js compress) inflated; null when it does not inflate.
// Throws LinkTooLong (link_inflate.js) when it inflates past the request limit.
export function decompress(text) {
  const bytes = fromBase64url(text);
  if (!bytes) return null;
  try {
    return strFromU8(inflateBounded(bytes));
  } catch (e) {
    if (e instanceof LinkTooLong) throw e;
    return null;
  }
}

// decompress without a long task (link_inflate.js inflateBoundedAsync): a promise of the same.
export async function decompressAsync(text, options) {
  const bytes = fromBase64url(text);
  if (!bytes) return null;
  try {
    return strFromU8(await inflateBoundedAsync(bytes, undefined, options));
  } catch (e) {
    if (e instanceof LinkTooLong) throw e;
    return null;
  }
}

// The parameters of a hash: "#z=..." (compressed) or the parameters themselves (links made
// before compression).
// A link too long to inflate gives no parameters; its message goes into `problems` when given.
export function hashParams(hash, problems = []) {
  const text = String(hash).replace(/^#/, '');
  if (!text.startsWith('z=')) return new URLSearchParams(text);
  try {
    return new URLSearchParams(decompress(text.slice(2)) ?? '');
  } catch (e) {
    if (!(e instanceof LinkTooLong)) throw e;
    problems.push(e.message);
    return new URLSearchParams('');
  }
}

// hashParams without a long task: a promise of the same parameters (and problems).
export async function hashParamsAsync(hash, problems = [], options = {}) {
  const text = String(hash).replace(/^#/, '');
  if (!text.startsWith('z=')) return new URLSearchParams(text);
  try {
    return new URLSearchParams(await decompressAsync(text.slice(2), options) ?? '');
  } catch (e) {
    if (!(e instanceof LinkTooLong)) throw e;
    problems.push(e.message);
    return new URLSearchParams('');
  }
}

// An uncompressed link was written against the defaults of its time (API 0.2 and before: VGG-16
// on a Titan X, no cluster): what it leaves out takes those, so that it still shows what it showed.
export const LINK_DEFAULTS_BEFORE_COMPRESSION = {
  net: 'vgg16', device: 'TITAN_X', cluster_on: false, cluster: 'dgx1_v100_edr', nodes: 16, cnn_precision: '',
};

// The cluster's throughput chart over nodes runs from 1 to this many nodes (or to the cluster's
// own, when more): the core prices each point (the request's node_scaling_max_nodes).
export const NODE_SWEEP_NODES = 64;

export function fromHash(hash, problems = []) {
  return stateOf(hash, hashParams(hash, problems));
}

// What the page reads of a link, without a long task: {state, params, problems} (fromHash's
// state, hashParams' parameters and the problems, for one inflating).
export async function readLink(hash, options = {}) {
  const problems = [];
  const params = await hashParamsAsync(hash, problems, options);
  return { state: stateOf(hash, params), params, problems };
}

// The state of a hash, of its parameters.
function stateOf(hash, params) {
  const text = String(hash).replace(/^#/, '');
  const old = text !== '' && !text.startsWith('z=');
  const state = old ? { ...DEFAULTS, ...LINK_DEFAULTS_BEFORE_COMPRESSION } : { ...DEFAULTS };
  for (const [key, raw] of params) {
    if (!(key in DEFAULTS)) continue;
    if (NUMBERS.has(key)) {
      const n = Number(raw);
      if (raw !== '' && Number.isFinite(n)) state[key] = n;
    } else if (BOOLEANS.has(key)) {
      state[key] = raw === '1' || raw === 'true';
    } else {
      state[key] = raw;
    }
  }
  // PALEO 2017 prices fp32 only: a link naming that profile and no precision means fp32 (the
  // precision select refuses the others beside it).
  if (state.profile === 'paleo2017' && !params.has('cnn_precision')) state.cnn_precision = '';
  return state;
}

export function parseWorkers(text) {
  const list = String(text).split(/[\s,]+/).filter(Boolean).map(Number);
  return list.length && list.every((n) => Number.isInteger(n) && n >= 1 && n <= 1e6) ? list : null;
}

// A CNN estimate without its per-layer table (the request's "omit_sections", docs/api.md), while the
// table is closed: the table is most of the answer (95 KB of Inception-v3's 100), and leaving it
// out spares the core writing it and the page parsing it on every re-estimate.
const WITHOUT_LAYERS = ['layers'];

// The request documents for one state: `estimate` (layers, totals, and the scaling simulation
// when the worker list parses), `compare` (configuration B, when comparing) and `search`.
// `layers`: false asks the estimates without their per-layer tables (WITHOUT_LAYERS).
// `paleo2017`: false leaves the PALEO 2017 simulation out (no `workers`), which only its sections
// show, while they are closed: half the core's time and most of the answer left once the table is out.
// Throws a SyntaxError when the pasted spec is neither JSON nor a Caffe prototxt.
export function requests(state, { layers = true, paleo2017 = true } = {}) {
  const net = state.spec.trim() ? withInputShape(netFromText(state.spec), state.input_shape) : state.net;
  const base = { net, device: deviceOf(state), interconnect: state.network, profile: state.profile,
    optimizer: state.optimizer };
  // '': the core's default (the software era's algorithm choice, or GEMM under a PPP).
  if (state.conv_algorithm) base.conv_algorithm = state.conv_algorithm;
  // '': the core's fp32 and channels-last; a precision under paleo2017 is the core's error, shown
  // beside the select.
  if (state.cnn_precision) base.precision = state.cnn_precision;
  if (state.memory_format) base.memory_format = state.memory_format;
  if (state.timing) base.timing = state.timing;  // '': the core's `step`
  // By default the core prices kernels with the software era of the device (docs/model.md); a
  // software preset names its PPP pair; by hand, the page sends the pair itself.
  if (state.software === 'hand') Object.assign(base, { ppp_comp: state.ppp_comp, ppp_comm: state.ppp_comm });
  else if (state.software) base.software = state.software;
  else if (state.software_era) base.software_era = state.software_era;  // '': the device's generation's
  // A calibration profile applied (the calibration panel): its era and efficiencies.
  Object.assign(base, withProfile({}, state.calibration, 'cnn'));
  if (state.batch_size) base.batch_size = state.batch_size;  // 0: the spec's batch

  // Time and cost to train, priced by the core (docs/api.md, "Time to train"). The values go as
  // entered: a dataset, epochs or price out of range is the core's error, shown beside its input,
  // never a number quietly changed here. A dataset or price of 0 asks for none.
  if (state.dataset !== 0) Object.assign(base, { dataset_samples: state.dataset, epochs: state.epochs });
  if (state.price_preset || state.price !== 0) base.price_per_gpu_hour = state.price_preset || state.price;

  const estimate = { command: 'estimate', ...base };
  const workers = paleo2017 ? parseWorkers(state.workers) : null;
  if (workers) {
    Object.assign(estimate, { parallel: state.parallel, workers, scaling: [state.scaling] });
    if (state.parallel === 'hybrid') estimate.hybrid_workers = state.hybrid_workers;
  }
  if (state.cluster_on) {
    Object.assign(estimate, { cluster: state.cluster, nodes: state.nodes, collective: state.collective,
      overlap: state.overlap, bucket_bytes: state.bucket_mib * 1024 * 1024, node_scaling_max_nodes: NODE_SWEEP_NODES });
    if (state.stages > 1) estimate.pipeline = { stages: state.stages, micro_batches: state.micro_batches };
    const scheme = schemeRequest(state);
    if (scheme) Object.assign(estimate, { training_scheme: scheme, scheme_comparison: true });
  }

  let compare = null;
  if (state.compare_on) {
    compare = { command: 'estimate', ...base };
    if (state.b_device) compare.device = state.b_device;
    if (state.b_network) compare.interconnect = state.b_network;
    if (state.b_software) {  // B's PPP pair replaces A's kernel model, a calibration profile too
      compare.software = state.b_software;
      for (const key of ['ppp_comp', 'ppp_comm', 'software_era', 'efficiency']) delete compare[key];
    }
    if (state.b_batch) compare.batch_size = state.b_batch;
  }

  if (!layers) {
    estimate.omit_sections = WITHOUT_LAYERS;
    if (compare) compare.omit_sections = WITHOUT_LAYERS;
  }

  const search = { command: 'search', ...base, devices: state.search_devices, devices_per_node: state.search_per_node };
  for (const key of ['optimizer', 'dataset_samples', 'epochs', 'price_per_gpu_hour']) delete search[key];
  return { estimate, compare, search: state.search_on ? search : null };
}
