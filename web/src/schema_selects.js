// The selects whose options are a core enumeration take their values from the core's own
// description of its request fields ({"command": "schema"}, docs/api.md): the page adds only a
// label for a value, and the order it shows them in. A value the core adds shows under its name;
// one it drops is not offered.
const LABELS = {
  memory_format: { nhwc: 'NHWC', nchw: 'NCHW' },
  timing: { step: 'a training step, framework overhead included', kernel: 'the kernels only, as a benchmark loop times them' },
  schedule: { '1f1b': '1F1B', gpipe: 'GPipe' },
  zero: { 0: '0: none', 1: '1: optimizer', 2: '2: + grads', 3: '3: + params' },
  recompute: { none: 'none', selective: 'selective (attention)', selective_op: 'selective ops (torchtitan)',
    full: 'full (every layer)' },
  attention: { flash: 'flash (fused, no score matrix)', materialized: 'materialized (score matrix in memory)' },
  fused_elementwise: { true: 'fused (torch.compile, Megatron)', false: 'eager PyTorch (small kernels)' },
  tp_comm_overlap: { none: 'none (on the critical path)', forward: 'forward (torchtitan\'s async TP)',
    forward_backward: 'forward and backward (Megatron-Core\'s --tp-comm-overlap)' },
  optimizer: {},
  scaling: {},
  parallel: {},
  'training_scheme.consistency': { sync: 'synchronous (barrier)', ssp: 'stale-synchronous',
    async: 'asynchronous (parameter server)' },
  'training_scheme.averaging': { none: 'none', local_sgd: 'local SGD', elastic: 'elastic', gossip: 'gossip',
    ensemble: 'ensemble' },
  // Number formats (the field "precision" for the transformer view, its CNN select below).
  precision: { bf16: 'bf16 (mixed, fp32 master weights)', fp16: 'fp16 (mixed, fp32 master weights)',
    fp8: 'fp8 (bf16 elsewhere)', tf32: 'tf32', fp32: 'fp32' },
  cnn_precision: { fp32: 'fp32', tf32: 'tf32', bf16: 'bf16 (mixed)', fp16: 'fp16 (mixed)', fp8: 'fp8 (bf16 elsewhere)' },
  kv_cache_dtype: { fp8: 'fp8' },
  // Which field sets a serving load: the page's value is the field's name.
  s_load: { concurrency: 'requests in flight per replica', request_rate: 'requests per second' },
};

// Selects of a field under another name: the CNN view's precision.
const FIELD_OF = { cnn_precision: 'precision' };
// Selects whose values are field names of a command rather than one field's values.
const FIELD_NAMES = { s_load: 'inference' };

// The select of an entry: its name, but ts_<member> for a member of training_scheme.
const selectId = (entry) => entry.replace('training_scheme.', 'ts_');

// A field's description; "object.member" for a member of an object field.
function spec(schema, field) {
  const [name, member] = field.split('.');
  const f = schema.fields?.[name];
  return member ? f?.members?.[member] : f;
}

// The values an entry may offer: the field's allowed values, or the command's field names.
function allowedOf(schema, entry) {
  if (FIELD_NAMES[entry]) {
    return schema.commands?.find((c) => c.name === FIELD_NAMES[entry])?.fields.filter((f) => f in LABELS[entry]) ?? [];
  }
  const field = spec(schema, FIELD_OF[entry] ?? entry);
  if (field?.type === 'boolean') return ['true', 'false'];
  return field?.allowed?.map(String) ?? [];
}

// Selects whose default the page sends as no field at all: the option '' stands for this value
// (the core's default: the field's own, or for the CNN view's precision the CNN default the
// field's meaning states).
const DEFAULT_AS_EMPTY = { memory_format: (f) => String(f.default), timing: (f) => String(f.default),
  cnn_precision: () => 'fp32' };
// Transformer choices a software era's stack makes where a request is silent (its "defaults":
// docs/transformer.md): a first option '' sends nothing, and the answer's `assumed` says what the
// stack chose. The KV cache's format likewise defaults to the activations'.
const FIRST_EMPTY = { recompute: 'the stack\'s default', fused_elementwise: 'the stack\'s default',
  tp_comm_overlap: 'the stack\'s default',
  kv_cache_dtype: 'as the activations' };
// Selects offering only the values they label: number formats the core also reads under other
// names (fp8_e4m3, fp8_e5m2) that the page does not offer.
const LABELLED_ONLY = new Set(['precision', 'cnn_precision', 'kv_cache_dtype']);

// The [value, label] entries of a select, in the page's order, then any the page has no label for.
export function schemaOptions(schema, entry) {
  const allowed = allowedOf(schema, entry);
  if (!allowed.length) return [];
  const labels = LABELS[entry] ?? {};
  const unlabelled = LABELLED_ONLY.has(entry) ? [] : allowed.filter((v) => !(v in labels));
  const ordered = [...Object.keys(labels).filter((v) => allowed.includes(v)), ...unlabelled];
  const empty = DEFAULT_AS_EMPTY[entry]?.(spec(schema, FIELD_OF[entry] ?? entry));
  const options = ordered.map((v) => [v === empty ? '' : v, labels[v] ?? v]);
  return FIRST_EMPTY[entry] ? [['', FIRST_EMPTY[entry]], ...options] : options;
}

// The select ids this module fills (tests/web/schema_selects.test.mjs checks index.html lists none of their options).
export const SCHEMA_SELECT_IDS = Object.keys(LABELS).map(selectId);

// Datalists of a field whose strings take a parameter (qsgd:4): the core's examples of it.
const DATALISTS = { ts_jitter_list: 'training_scheme.jitter', ts_compression_list: 'training_scheme.compression' };
export const SCHEMA_DATALIST_IDS = Object.keys(DATALISTS);

export const schemaExamples = (schema, field) => spec(schema, field)?.examples?.map(String) ?? [];

export function fillSchemaSelects(schema, byId) {
  for (const entry of Object.keys(LABELS)) {
    const select = byId(selectId(entry));
    if (!select) continue;
    select.replaceChildren(...schemaOptions(schema, entry).map(([value, label]) => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = label;
      return o;
    }));
  }
  for (const [id, field] of Object.entries(DATALISTS)) {
    const list = byId(id);
    if (!list) continue;
    list.replaceChildren(...schemaExamples(schema, field).map((value) => {
      const o = document.createElement('option');
      o.value = value;
      return o;
    }));
  }
}
