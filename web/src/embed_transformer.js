// The attributes of <paleo-estimate> for a transformer (docs/embed.md, "LLMs and other
// transformers"), in one table with the request fields and the page's inputs they stand for. The
// page writes its snippet from its own transformer `estimate` request (transformerAttributesOf);
// the element reads its attributes back into the page's inputs and builds its request with the
// page's own builder (transformerRequest), so the element prices the scenario the page priced and
// no request is assembled twice. Used by the page (main.js) and the element (web/embed/element.js).
import { NEWCOMER_HARDWARE, TRANSFORMER_DEFAULTS, transformerRequest } from './transformer_request.js';

// [attribute, request field, page input (null: not a page input, passed to the request as it
// is), kind]. Kinds: text; number; count (a number, or a word such as "smallest_that_fits");
// bool ("false" or not); device (a preset key, or a device object as JSON text); config (an
// object net as JSON text); profile (the request's efficiency object as JSON text); tokens (a
// number of tokens; the page's input counts billions); price (a number, or a price preset key).
export const TRANSFORMER_ATTRIBUTES = [
  ['net', 'net', 'net', 'text'],
  ['config', 'net', 'config', 'config'],  // a pasted or Hugging Face config replaces `net`
  ['device', 'device', 'device', 'device'],
  ['cluster', 'cluster', 't_cluster', 'text'],
  ['nodes', 'nodes', 't_nodes', 'number'],
  ['per-node', 'devices_per_node', 't_per_node', 'number'],
  ['software-era', 'software_era', 't_software_era', 'text'],
  ['efficiency', 'efficiency', 'calibration', 'profile'],
  ['precision', 'precision', 'precision', 'text'],
  ['tp', 'tp', 'tp', 'count'],
  ['pp', 'pp', 'pp', 'number'],
  ['cp', 'cp', 'cp', 'number'],
  ['ep', 'ep', 'ep', 'number'],
  ['expert-tp', 'expert_tp', 'expert_tp', 'number'],
  ['dp', 'dp', null, 'number'],
  ['virtual-stages', 'virtual_stages', 'virtual_stages', 'number'],
  ['sequence-parallel', 'sequence_parallel', 'sequence_parallel', 'bool'],
  ['schedule', 'schedule', 'schedule', 'text'],
  ['global-batch', 'global_batch', 'global_batch', 'number'],
  ['micro-batch', 'micro_batch', 'micro_batch', 'number'],
  ['seq-len', 'seq_len', 'seq_len', 'number'],
  ['recompute', 'recompute', 'recompute', 'text'],
  ['zero', 'zero', 'zero', 'number'],
  ['attention', 'attention', 'attention', 'text'],
  ['train-tokens', 'train_tokens', 'train_btokens', 'tokens'],
  ['price', 'price_per_gpu_hour', 'price', 'price'],
];

// The members of a transformer's answer the element shows (the request's "sections", docs/api.md):
// not its operators, memory parts and step breakdown.
export const TRANSFORMER_EMBED_SECTIONS = ['step_ms', 'tokens_per_s', 'tokens_per_step', 'mfu', 'peak_tflops_per_gpu',
  'memory_per_device_bytes', 'fits', 'memory', 'parallel', 'precision', 'model', 'device', 'cluster', 'train',
  'expected_error'];

// Attributes only a transformer has: one of them (or a config) makes the element a transformer's
// without asking the core what the net is.
export const TRANSFORMER_ONLY_ATTRIBUTES = ['config', 'config-url', 'per-node', 'tp', 'pp', 'cp', 'ep', 'expert-tp', 'dp',
  'virtual-stages', 'sequence-parallel', 'schedule', 'global-batch', 'micro-batch', 'seq-len', 'recompute', 'zero',
  'attention', 'train-tokens'];

// The page's transformer inputs where an element says nothing: the page's layout defaults on the
// newcomer's hardware (an H100 node of 8), no time to train, no profile; recomputation as the
// software era's stack chooses (the page's '', which leaves the field out of the request).
const ELEMENT_STATE = { ...TRANSFORMER_DEFAULTS, net: undefined, device: NEWCOMER_HARDWARE.device, recompute: '',
  train_btokens: 0, price_preset: '', price: 0, calibration: '' };

function toAttribute(kind, value) {
  if (kind === 'device' || kind === 'config' || kind === 'profile') {
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  if (kind === 'bool') return value ? 'true' : 'false';
  return String(value);
}

// The attributes for a transformer `estimate` request, in table order: [[name, value], ...].
// Throws for a request field the table has no attribute for, so the snippet never silently drops
// part of the scenario.
export function transformerAttributesOf(request) {
  const fields = new Set(TRANSFORMER_ATTRIBUTES.map(([, field]) => field));
  for (const key of Object.keys(request)) {
    if (key !== 'command' && !fields.has(key)) throw new Error(`the embed snippet has no attribute for "${key}"`);
  }
  const attributes = [];
  for (const [name, field, , kind] of TRANSFORMER_ATTRIBUTES) {
    const value = request[field];
    if (value === undefined || value === null) continue;
    if (field === 'net' && (typeof value === 'object') !== (kind === 'config')) continue;  // a key, or a config
    if (typeof value === 'object' && kind !== 'device' && kind !== 'config' && kind !== 'profile') {
      throw new Error(`the embed snippet has no attribute form for the object "${field}"`);  // a precision object
    }
    attributes.push([name, toAttribute(kind, value)]);
  }
  return attributes;
}

// The page's inputs for the attributes (`get(name)`: the value, or null when absent); `config`:
// a config's JSON text from elsewhere (a child script, a URL), which a config attribute overrides.
// Also the start of a serving element's inputs (embed_serving.js).
export function transformerStateOf(get, config = null) {
  const state = { ...ELEMENT_STATE, config: config ?? '' };
  for (const [name, , key, kind] of TRANSFORMER_ATTRIBUTES) {
    const text = get(name);
    if (text === null || text === '' || key === null) continue;
    if (kind === 'number') state[key] = Number(text);
    else if (kind === 'count') state[key] = text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    else if (kind === 'bool') state[key] = text !== 'false';
    else if (kind === 'device') state[key] = text.trim().startsWith('{') ? parsedOr(text) : text;
    else if (kind === 'profile') {
      // The page applies a profile's efficiencies (calibration_request.js, withProfile); text that
      // is not an object goes as it is, and the core's error names `efficiency`.
      const value = parsedOr(text);
      state[key] = value && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify({ efficiency: value }) : text;
    } else if (kind === 'tokens') state[key] = Number(text) / 1e9;
    else if (kind === 'price') {
      if (Number.isFinite(Number(text))) state.price = Number(text);
      else state.price_preset = text;
    } else state[key] = text;
  }
  return state;
}

function parsedOr(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;  // the core's error names the field
  }
}

// The `estimate` request for a transformer element's attributes: the page's builder on the page's
// inputs the attributes set. What the page has no input for (dp) and the token count (exact, not
// through the page's billions) go to the request as given. Throws a SyntaxError for a config that
// is not JSON.
export function transformerRequestOf(get, config = null) {
  const request = transformerRequest(transformerStateOf(get, config));
  const dp = get('dp');
  if (dp !== null && dp !== '') request.dp = Number(dp);
  const tokens = get('train-tokens');
  if (tokens !== null && tokens !== '') {
    // Not a number: sent as text, and the core's error names train_tokens.
    if (request.train_tokens !== undefined || !Number.isFinite(Number(tokens))) {
      request.train_tokens = Number.isFinite(Number(tokens)) ? Number(tokens) : tokens;
    }
  }
  return request;
}
