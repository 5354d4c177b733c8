// The attributes of <paleo-estimate> (docs/embed.md) and the request fields of docs/api.md they
// stand for, in one table: the page writes its embed snippet from its own `estimate` request
// (attributesOf), and the element builds its request back from its attributes (requestOf), so
// the element prices the scenario the page priced. Used by the page (main.js) and the element
// (web/embed/element.js, bundled with this file).

// [attribute, request field, kind]. Kinds: text; number; list (comma-separated numbers); words
// (comma-separated words); bool ("false" or not); mib (MiB in the attribute, bytes in the
// request); price (a number, or a price preset key); json (a preset key, or an object as JSON
// text: a custom device, a calibration's efficiencies); a field "a.b" is b inside the object a.
export const EMBED_ATTRIBUTES = [
  ['net', 'net', 'text'],  // a spec object travels as spec-z instead
  ['device', 'device', 'json'],
  ['interconnect', 'interconnect', 'text'],
  ['profile', 'profile', 'text'],
  ['software', 'software', 'text'],
  ['ppp-comp', 'ppp_comp', 'number'],
  ['ppp-comm', 'ppp_comm', 'number'],
  ['precision', 'precision', 'text'],
  ['software-era', 'software_era', 'text'],
  ['efficiency', 'efficiency', 'json'],
  ['conv-algorithm', 'conv_algorithm', 'text'],
  ['memory-format', 'memory_format', 'text'],
  ['timing', 'timing', 'text'],
  ['optimizer', 'optimizer', 'text'],
  ['batch', 'batch_size', 'number'],
  ['workers', 'workers', 'list'],
  ['scaling', 'scaling', 'words'],
  ['parallel', 'parallel', 'text'],
  ['hybrid-workers', 'hybrid_workers', 'number'],
  ['cluster', 'cluster', 'text'],
  ['nodes', 'nodes', 'number'],
  ['collective', 'collective', 'text'],
  ['overlap', 'overlap', 'bool'],
  ['bucket-mib', 'bucket_bytes', 'mib'],
  ['node-scaling-max-nodes', 'node_scaling_max_nodes', 'number'],  // the page's chart; the element shows none
  ['stages', 'pipeline.stages', 'number'],
  ['micro-batches', 'pipeline.micro_batches', 'number'],
  ['dataset', 'dataset_samples', 'number'],
  ['epochs', 'epochs', 'number'],
  ['price', 'price_per_gpu_hour', 'price'],
];

const MIB = 1024 * 1024;

function toAttribute(kind, value) {
  if (kind === 'json') return typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (kind === 'list' || kind === 'words') return [].concat(value).join(',');
  if (kind === 'bool') return value ? 'true' : 'false';
  if (kind === 'mib') return String(value / MIB);
  return String(value);
}

function fromAttribute(kind, text) {
  if (kind === 'json') {
    if (!text.trim().startsWith('{')) return text;
    try {
      return JSON.parse(text);
    } catch {
      return text;  // the core's error names the device
    }
  }
  if (kind === 'list') return text.split(/[\s,]+/).filter(Boolean).map(Number);
  if (kind === 'words') return text.split(/[\s,]+/).filter(Boolean);
  if (kind === 'bool') return text !== 'false';
  if (kind === 'mib') return Number(text) * MIB;
  if (kind === 'number') return Number(text);
  if (kind === 'price') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

const read = (request, field) => field.split('.').reduce((v, key) => (v == null ? undefined : v[key]), request);

// The attributes for an `estimate` request, in table order: [[name, value], ...]. A net spec
// (an object) is left out: the snippet carries it as spec-z. Throws for a request field the
// table has no attribute for, so the snippet never silently drops part of the scenario.
export function attributesOf(request) {
  const fields = new Set(EMBED_ATTRIBUTES.map(([, field]) => field.split('.')[0]));
  for (const key of Object.keys(request)) {
    if (key !== 'command' && !fields.has(key)) throw new Error(`the embed snippet has no attribute for "${key}"`);
  }
  for (const key of Object.keys(request.pipeline ?? {})) {
    if (!EMBED_ATTRIBUTES.some(([, field]) => field === 'pipeline.' + key)) {
      throw new Error(`the embed snippet has no attribute for "pipeline.${key}"`);
    }
  }
  const attributes = [];
  for (const [name, field, kind] of EMBED_ATTRIBUTES) {
    const value = read(request, field);
    if (value === undefined || value === null || (field === 'net' && typeof value !== 'string')) continue;
    if (typeof value === 'object' && kind !== 'list' && kind !== 'words' && kind !== 'json') {
      throw new Error(`the embed snippet has no attribute form for the object "${field}"`);  // a precision object
    }
    attributes.push([name, toAttribute(kind, value)]);
  }
  return attributes;
}

// The `estimate` request for an element's attributes (`get(name)`: the value, or null when
// absent); `net` defaults to `fallbackNet`. The old attribute name `network` reads as `interconnect`.
export function requestOf(get, fallbackNet) {
  const request = { command: 'estimate', net: fallbackNet };
  for (const [name, field, kind] of EMBED_ATTRIBUTES) {
    const text = get(name) ?? (name === 'interconnect' ? get('network') : null);
    if (text === null || text === '') continue;
    const value = fromAttribute(kind, text);
    const [outer, inner] = field.split('.');
    if (inner) (request[outer] ??= {})[inner] = value;
    else request[outer] = value;
  }
  // With worker counts, the element's own defaults: weak scaling, data parallel.
  if (request.workers) {
    request.scaling ??= ['weak'];
    request.parallel ??= 'data';
  }
  return request;
}

// The members of the answer the element shows for a CNN (the request's "sections", docs/api.md):
// not the per-layer table, most of the answer.
export const EMBED_SECTIONS = ['net', 'device', 'interconnect', 'cluster', 'software_era', 'ppp_comp', 'ppp_comm',
  'totals', 'simulation', 'train', 'expected_error'];

// Every attribute name the element observes.
export const EMBED_ATTRIBUTE_NAMES = [...EMBED_ATTRIBUTES.map(([name]) => name), 'network', 'spec-z'];
