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
  optimizer: {},
  scaling: {},
  parallel: {},
  'training_scheme.consistency': { sync: 'synchronous (barrier)', ssp: 'stale-synchronous',
    async: 'asynchronous (parameter server)' },
  'training_scheme.averaging': { none: 'none', local_sgd: 'local SGD', elastic: 'elastic', gossip: 'gossip',
    ensemble: 'ensemble' },
};

// The select of a field: its id, but ts_<member> for a member of training_scheme.
const selectId = (field) => field.replace('training_scheme.', 'ts_');

// A field's description; "object.member" for a member of an object field.
function spec(schema, field) {
  const [name, member] = field.split('.');
  const f = schema.fields?.[name];
  return member ? f?.members?.[member] : f;
}

// Selects whose default the page sends as no field at all: the core's default is the option ''.
const DEFAULT_AS_EMPTY = new Set(['memory_format', 'timing']);
// Transformer choices a software era's stack makes where a request is silent (its "defaults":
// docs/transformer.md): a first option '' sends nothing, and the answer's `assumed` says what the
// stack chose.
const STACK_DEFAULT = new Set(['recompute']);

// The [value, label] entries of a field's select, in the page's order, then any the page has no label for.
export function schemaOptions(schema, field) {
  const described = spec(schema, field);
  if (!described?.allowed) return [];
  const labels = LABELS[field] ?? {};
  const allowed = described.allowed.map(String);
  const ordered = [...Object.keys(labels).filter((v) => allowed.includes(v)), ...allowed.filter((v) => !(v in labels))];
  const options = ordered.map((v) => [DEFAULT_AS_EMPTY.has(field) && v === String(described.default) ? '' : v, labels[v] ?? v]);
  return STACK_DEFAULT.has(field) ? [['', 'the stack\'s default'], ...options] : options;
}

export function fillSchemaSelects(schema, byId) {
  for (const field of Object.keys(LABELS)) {
    const select = byId(selectId(field));
    if (!select) continue;
    select.replaceChildren(...schemaOptions(schema, field).map(([value, label]) => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = label;
      return o;
    }));
  }
}
