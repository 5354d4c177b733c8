// The attributes of <paleo-estimate task="serve"> (docs/embed.md, "Serving an LLM"): a
// transformer served under load, in one table with the page's serving inputs they stand for. The
// page writes the snippet from its own `inference` request (servingAttributesOf); the element reads
// the attributes back into the page's inputs and builds its request with the page's own builder
// (inferenceRequest), so both price the same scenario. The model, hardware and layout attributes
// are the transformer element's (embed_transformer.js).
import { SERVING_DEFAULTS, inferenceRequest } from './serving_request.js';
import { transformerAttributesOf, transformerStateOf } from './embed_transformer.js';

// [attribute, request field, page input, kind]. Kinds: number; bool ("false" or not); text.
// The speculative pair is one request object ({draft_tokens, acceptance_rate}).
export const SERVING_ATTRIBUTES = [
  ['prompt-len', 'prompt_len', 'prompt_len', 'number'],
  ['generate-len', 'generate_len', 'generate_len', 'number'],
  ['concurrency', 'concurrency', 's_concurrency', 'number'],
  ['request-rate', 'request_rate', 's_request_rate', 'number'],
  ['kv-cache-dtype', 'kv_cache_dtype', 'kv_cache_dtype', 'text'],
  ['draft-tokens', 'speculative.draft_tokens', 'draft_tokens', 'number'],
  ['acceptance-rate', 'speculative.acceptance_rate', 'acceptance_rate', 'number'],
  ['cuda-graphs', 'cuda_graphs', 's_cuda_graphs', 'bool'],
  ['mixed-steps', 'mixed_steps', 's_mixed_steps', 'bool'],
];

// The element is a serving one with task="serve".
export const SERVING_TASK = 'serve';

// The members of a serving answer the element shows (the request's "sections", docs/api.md).
export const SERVING_EMBED_SECTIONS = ['model', 'device', 'tp', 'prompt_len', 'generate_len', 'precision', 'software_era',
  'memory_per_device_bytes', 'capacity_bytes', 'fits', 'serving', 'expected_error'];

const fieldOf = (request, path) => path.split('.').reduce((v, key) => (v == null ? undefined : v[key]), request);

// The attributes for a serving `inference` request, in table order after the transformer's:
// [[name, value], ...]. Throws for a field no attribute carries, so a snippet never drops part of
// the scenario.
export function servingAttributesOf(request) {
  const serving = new Set(SERVING_ATTRIBUTES.map(([, field]) => field.split('.')[0]));
  const shared = {};
  for (const [key, value] of Object.entries(request)) if (!serving.has(key)) shared[key] = value;
  const attributes = [['task', SERVING_TASK], ...transformerAttributesOf(shared)];
  for (const [name, field, , kind] of SERVING_ATTRIBUTES) {
    const value = fieldOf(request, field);
    if (value === undefined || value === null) continue;
    attributes.push([name, kind === 'bool' ? (value ? 'true' : 'false') : String(value)]);
  }
  return attributes;
}

// The `inference` request for a serving element's attributes: the page's builder on the page's
// inputs (the serving ones at the page's defaults where the element says nothing). A request rate
// sets the load instead of a concurrency. Throws a SyntaxError for a config that is not JSON.
export function servingRequestOf(get, config = null) {
  const state = { ...SERVING_DEFAULTS, ...transformerStateOf(get, config), t_task: SERVING_TASK };
  for (const [name, , key, kind] of SERVING_ATTRIBUTES) {
    const text = get(name);
    if (text === null || text === '') continue;
    state[key] = kind === 'number' ? Number(text) : kind === 'bool' ? text !== 'false' : text;
  }
  const rate = get('request-rate');
  if (rate !== null && rate !== '') state.s_load = 'request_rate';
  return inferenceRequest(state);
}
