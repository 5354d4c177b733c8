// The page's selects of a core enumeration (web/src/schema_selects.js) offer exactly the values
// the core's schema allows, and web/index.html lists none of them itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliApi, root } from './helpers.mjs';

const { schemaOptions } = await import(join(root, 'web', 'src', 'schema_selects.js'));
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
