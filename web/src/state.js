// The page state: every input, with defaults, and its round trip through the URL hash.
export const DEFAULTS = {
  net: 'vgg16', spec: '', device: 'TITAN_X', network: 'ethernet', software: '', ppp_comp: 1, ppp_comm: 1,
  profile: 'paleo2026', conv_algorithm: 'gemm', batch_size: 0, workers: '1,2,4,8,16,32,64,128',
  scaling: 'weak', parallel: 'data', hybrid_workers: 1,
  cluster_on: false, cluster: 'dgx1_v100_edr', nodes: 16, collective: 'auto', overlap: true, bucket_mib: 25,
  stages: 1, micro_batches: 1, optimizer: 'sgd',
  dataset: 1281167, epochs: 90, price_preset: '', price: 0.9, compare_device: '',
  search_on: false, search_devices: 16, search_per_node: 4,
};

const NUMBERS = new Set(['ppp_comp', 'ppp_comm', 'batch_size', 'hybrid_workers', 'nodes', 'bucket_mib', 'stages',
  'micro_batches', 'dataset', 'epochs', 'price', 'search_devices', 'search_per_node']);
const BOOLEANS = new Set(['cluster_on', 'overlap', 'search_on']);

// Only what differs from the defaults goes into the hash, so links stay short.
export function toHash(state) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    if (!(key in DEFAULTS) || value === DEFAULTS[key]) continue;
    params.set(key, BOOLEANS.has(key) ? (value ? '1' : '0') : String(value));
  }
  return '#' + params.toString();
}

export function fromHash(hash) {
  const state = { ...DEFAULTS };
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, raw] of params) {
    if (!(key in DEFAULTS)) continue;
    if (NUMBERS.has(key)) {
      const n = Number(raw);
      if (Number.isFinite(n)) state[key] = n;
    } else if (BOOLEANS.has(key)) {
      state[key] = raw === '1';
    } else {
      state[key] = raw;
    }
  }
  return state;
}

export function parseWorkers(text) {
  const list = String(text).split(/[\s,]+/).filter(Boolean).map(Number);
  return list.length && list.every((n) => Number.isInteger(n) && n >= 1) ? list : null;
}

// The request documents of docs/api.md for one state (and, for comparisons, another device).
export function requests(state, device = state.device) {
  let net = state.net;
  if (state.spec.trim()) net = JSON.parse(state.spec);  // the caller reports a syntax error
  const base = { net, device, network: state.network, profile: state.profile, conv_algorithm: state.conv_algorithm,
    ppp_comp: state.ppp_comp, ppp_comm: state.ppp_comm, optimizer: state.optimizer };
  if (state.batch_size > 0) base.batch_size = state.batch_size;
  const estimate = { command: 'estimate', ...base };
  if (state.cluster_on) {
    Object.assign(estimate, { cluster: state.cluster, nodes: state.nodes, collective: state.collective,
      overlap: state.overlap, bucket_bytes: state.bucket_mib * 1024 * 1024 });
    if (state.stages > 1) estimate.pipeline = { stages: state.stages, micro_batches: state.micro_batches };
  }
  const workers = parseWorkers(state.workers);
  const simulate = { command: 'simulate', ...base, parallel: state.parallel, scaling: [state.scaling],
    workers: workers ?? [], hybrid_workers: state.hybrid_workers };
  const search = { command: 'search', ...base, devices: state.search_devices, devices_per_node: state.search_per_node };
  delete search.optimizer;
  return { estimate, simulate, search };
}
