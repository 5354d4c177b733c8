// The page's selects of a core enumeration (web/src/schema_selects.js) offer exactly the values
// the core's schema allows, and web/index.html lists none of them itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliApi, root } from './helpers.mjs';

const { schemaOptions, schemaExamples, SCHEMA_SELECT_IDS, SCHEMA_DATALIST_IDS } = await import(join(root, 'web', 'src', 'schema_selects.js'));
const schema = cliApi({ command: 'schema' });
const fields = ['memory_format', 'timing', 'schedule', 'zero', 'recompute', 'attention', 'optimizer', 'scaling', 'parallel',
  'training_scheme.consistency', 'training_scheme.averaging'];
const described = (field) => field.split('.').reduce((f, name, i) => (i ? f.members[name] : schema.fields[name]), null);

// The transformer choices a software era's stack makes: their first option sends nothing.
const stackDefault = new Set(['recompute']);

test('each select offers every value the core allows, once', () => {
  for (const field of fields) {
    const allowed = described(field).allowed.map(String);
    const options = schemaOptions(schema, field).slice(stackDefault.has(field) ? 1 : 0);
    const values = options.map(([value]) => value || String(described(field).default));
    assert.deepEqual([...values].sort(), [...allowed].sort(), field);
  }
  // A value the core adds is offered under its own name; one it drops is not.
  const grown = structuredClone(schema);
  grown.fields.recompute.allowed = ['none', 'everything'];
  assert.deepEqual(schemaOptions(grown, 'recompute'),
    [['', 'the stack\'s default'], ['none', 'none'], ['everything', 'everything']]);
});

test('the defaults the page sends as no field are the core\'s', () => {
  assert.deepEqual(schemaOptions(schema, 'memory_format')[0], ['', 'NHWC']);
  assert.equal(schema.fields.memory_format.default, 'nhwc');
  assert.equal(schemaOptions(schema, 'timing')[0][0], '');
  assert.equal(schema.fields.timing.default, 'step');
});

test('web/index.html lists no option of these selects', () => {
  const html = readFileSync(join(root, 'web', 'index.html'), 'utf8');
  for (const field of fields) {
    const id = field.replace('training_scheme.', 'ts_');
    assert.match(html, new RegExp(`<select id="${id}"></select>`), id);
  }
});

test('the number-format and serving selects offer what they did, drawn from the schema', () => {
  // The labels and order the page had written in index.html; '' sends no field (the CNN default).
  assert.deepEqual(schemaOptions(schema, 'cnn_precision'), [['', 'fp32'], ['tf32', 'tf32'], ['bf16', 'bf16 (mixed)'],
    ['fp16', 'fp16 (mixed)'], ['fp8', 'fp8 (bf16 elsewhere)']]);
  assert.match(schema.fields.precision.meaning, /default fp32 for a CNN/);
  assert.deepEqual(schemaOptions(schema, 'precision').map(([v]) => v), ['bf16', 'fp16', 'fp8', 'tf32', 'fp32']);
  assert.equal(schemaOptions(schema, 'precision')[0][1], 'bf16 (mixed, fp32 master weights)');
  assert.deepEqual(schemaOptions(schema, 'kv_cache_dtype'), [['', 'as the activations'], ['fp8', 'fp8']]);
  assert.deepEqual(schemaOptions(schema, 's_load'),
    [['concurrency', 'requests in flight per replica'], ['request_rate', 'requests per second']]);
  // Each value is one the core reads: a number format it allows, a field `inference` takes.
  for (const entry of ['cnn_precision', 'precision']) {
    for (const [v] of schemaOptions(schema, entry)) assert.ok(v === '' || schema.fields.precision.allowed.includes(v), v);
  }
  assert.ok(schema.fields.kv_cache_dtype.allowed.includes('fp8'));
  const inference = schema.commands.find((c) => c.name === 'inference').fields;
  for (const [v] of schemaOptions(schema, 's_load')) assert.ok(inference.includes(v), v);
  // A format the core drops is not offered.
  const shrunk = structuredClone(schema);
  shrunk.fields.precision.allowed = ['fp32', 'bf16'];
  assert.deepEqual(schemaOptions(shrunk, 'precision').map(([v]) => v), ['bf16', 'fp32']);
});

// Every value of a core enumeration the schema describes: fields' and members' allowed values.
function coreValues() {
  const values = new Set();
  const add = (f) => [...(f.allowed ?? []), ...(f.examples ?? [])].forEach((v) => values.add(String(v)));
  for (const f of Object.values(schema.fields)) {
    add(f);
    Object.values(f.members ?? {}).forEach(add);
  }
  return values;
}

test('web/index.html writes no option of a core enumeration in any select or datalist', () => {
  const html = readFileSync(join(root, 'web', 'index.html'), 'utf8');
  for (const id of SCHEMA_SELECT_IDS) assert.match(html, new RegExp(`<select id="${id}"></select>`), id);
  const core = coreValues();
  assert.ok(core.has('bf16') && core.has('1f1b') && core.has('sync'));
  const selects = [...html.matchAll(/<select id="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)];
  assert.ok(selects.length >= 20, `${selects.length} selects`);
  for (const id of SCHEMA_DATALIST_IDS) assert.match(html, new RegExp(`<datalist id="${id}"></datalist>`), id);
  selects.push(...html.matchAll(/<datalist id="([^"]+)"[^>]*>([\s\S]*?)<\/datalist>/g));
  for (const [, id, body] of selects) {
    for (const [, value] of body.matchAll(/<option value="([^"]*)"/g)) {
      assert.ok(!core.has(value), `#${id} lists the core's value "${value}": build it from the schema (schema_selects.js)`);
    }
  }
});

test('the jitter and compression suggestions are the core\'s examples, as the page listed them', () => {
  assert.deepEqual(schemaExamples(schema, 'training_scheme.jitter'), ['none', 'lognormal:0.1', 'lognormal:0.2', 'normal:0.1']);
  assert.deepEqual(schemaExamples(schema, 'training_scheme.compression'),
    ['none', 'fp16', 'bf16', 'onebit', 'ternary', 'qsgd:4', 'topk:0.01', 'threshold:0.001', 'powersgd:4', 'sfb']);
});
