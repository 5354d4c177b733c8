#!/usr/bin/env node
// Writes the parts of web/package/index.d.ts and docs/api.md that describe request fields from
// the core's own description of them, `{"command": "schema"}` (core/api/command_registry.cpp):
// the request option types of index.d.ts and the field table of docs/api.md, each between its
// "generated" markers. The rest of both files (response types, shapes of object fields, prose)
// is written by hand.
//
//   node scripts/gen_from_schema.mjs [--paleo build/native/paleo]          rewrite both files
//   node scripts/gen_from_schema.mjs --check [--paleo build/native/paleo]  exit 1 when they differ
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const paleoAt = args.indexOf('--paleo');
const paleo = paleoAt >= 0 ? args[paleoAt + 1] : join(root, 'build', 'native', 'paleo');

const schema = JSON.parse(execFileSync(paleo, ['api'], { input: JSON.stringify({ command: 'schema' }), encoding: 'utf8' }));
if (!schema.ok) throw new Error(`paleo api {"command":"schema"}: ${JSON.stringify(schema.error)}`);
const fields = Object.entries(schema.fields).filter(([name]) => name !== 'command');

// ---- index.d.ts ------------------------------------------------------------------------------

// Object fields whose shape the schema does not spell out: the hand-written types of index.d.ts.
const objectTypes = {
  net: 'Net',
  device: 'DeviceSpec',
  interconnect: 'InterconnectSpec',
  network: 'InterconnectSpec',
  cluster: 'ClusterSpec',
  link: 'LinkSpec',
  training_scheme: 'TrainingScheme',
  pipeline: 'PipelineSpec',
  efficiency: 'Efficiency',
  precision: 'PrecisionFormats',
};

// Members whose strings have a form (a parameter after a colon): the hand-written template types.
const memberTypes = { jitter: 'Jitter', compression: 'Compression' };

const literal = (v) => (typeof v === 'string' ? `'${v}'` : String(v));

function tsType(name, f) {
  const enumerated = f.allowed ? f.allowed.map(literal).join(' | ') : null;
  const parts = f.type.split('|').map((t) => {
    switch (t) {
      case 'string': return enumerated ?? 'string';
      case 'integer': return enumerated ?? 'number';
      case 'number': return 'number';
      case 'boolean': return 'boolean';
      case 'array': return enumerated ? `(${enumerated})[]` : name === 'workers' ? 'number[]' : 'unknown[]';
      case 'object': return objectTypes[name] ?? 'Record<string, unknown>';
      default: throw new Error(`field ${name}: type ${t} has no TypeScript form`);
    }
  });
  if (objectTypes[name] && !parts.includes(objectTypes[name])) parts.push(objectTypes[name]);
  return [...new Set(parts)].join(' | ');
}

function docComment(f, withCommands = true) {
  const notes = [f.meaning];
  if (f.unit) notes.push(`unit: ${f.unit}`);
  if (f.default !== null) notes.push(`default: ${JSON.stringify(f.default)}`);
  if (withCommands) notes.push(`commands: ${f.commands.join(', ')}`);
  return `/** ${notes.join('; ')}. */`;
}

function typings() {
  const lines = [];
  lines.push(`export type ConvAlgorithm = ${schema.fields.conv_algorithm.allowed.map(literal).join(' | ')};`);
  lines.push(`export type Collective = ${schema.fields.collective.allowed.map(literal).join(' | ')};`);
  lines.push(`export type Command = ${schema.fields.command.allowed.map(literal).join(' | ')};`);
  lines.push('');
  lines.push('/** Every request field but `command` (docs/api.md, "Request"); the core rejects unknown fields. */');
  lines.push('export interface RequestFields {');
  for (const [name, f] of fields) {
    lines.push(`  ${docComment(f)}`);
    const type = name === 'conv_algorithm' ? 'ConvAlgorithm' : name === 'collective' ? 'Collective' : tsType(name, f);
    lines.push(`  ${name}?: ${type};`);
  }
  lines.push('}');
  lines.push('');
  lines.push('/** The `training_scheme` request field (docs/api.md); an unknown member is an error. */');
  lines.push('export interface TrainingScheme {');
  for (const [name, m] of Object.entries(schema.fields.training_scheme.members)) {
    lines.push(`  ${docComment(m, false)}`);
    lines.push(`  ${name}?: ${memberTypes[name] ?? tsType(name, m)};`);
  }
  lines.push('}');
  lines.push('');
  lines.push('/** The fields each command reads. */');
  lines.push('export interface CommandFields {');
  for (const c of schema.commands) {
    const names = c.fields.filter((n) => n !== 'command');
    lines.push(`  /** ${c.meaning}. */`);
    lines.push(`  ${c.name}: ${names.length ? `Pick<RequestFields, ${names.map(literal).join(' | ')}>` : 'Record<string, never>'};`);
  }
  lines.push('}');
  return lines.join('\n');
}

// ---- docs/api.md ----------------------------------------------------------------------------

const cell = (text) => String(text).replaceAll('|', '\\|');

function valuesCell(f) {
  if (f.allowed) return f.allowed.map((v) => `\`${v}\``).join(', ');
  if (f.preset_keys) return 'a preset key (`presets`)';
  return '';
}

function fieldTable() {
  const lines = ['| field | type | unit | values | default | commands | meaning |', '|---|---|---|---|---|---|---|'];
  for (const [name, f] of Object.entries(schema.fields)) {
    const dflt = f.default === null ? '–' : `\`${JSON.stringify(f.default)}\``;
    const commands = name === 'command' ? 'all' : f.commands.map((c) => `\`${c}\``).join(', ');
    lines.push(`| \`${name}\` | ${cell(f.type)} | ${f.unit} | ${valuesCell(f)} | ${dflt} | ${commands} | ${cell(f.meaning)} |`);
  }
  return lines.join('\n');
}

// ---- Writing or checking ---------------------------------------------------------------------

const begin = (what) => `<!-- BEGIN ${what}: generated from {"command": "schema"} by scripts/gen_from_schema.mjs -->`;
const end = (what) => `<!-- END ${what} -->`;

function replaceBetween(text, file, open, close, body) {
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${file}: no "${open}" ... "${close}" markers`);
  return text.slice(0, a + open.length) + '\n' + body + '\n' + text.slice(b);
}

const targets = [
  {
    file: join('web', 'package', 'index.d.ts'),
    open: `// ${begin('request fields').slice(5, -4)}`,
    close: `// ${end('request fields').slice(5, -4)}`,
    body: typings(),
  },
  { file: join('docs', 'api.md'), open: begin('field table'), close: end('field table'), body: fieldTable() },
];

let stale = 0;
for (const t of targets) {
  const path = join(root, t.file);
  const text = readFileSync(path, 'utf8');
  const wanted = replaceBetween(text, t.file, t.open, t.close, t.body);
  if (wanted === text) continue;
  if (check) {
    console.error(`${t.file} differs from what scripts/gen_from_schema.mjs writes from the schema: run it`);
    stale++;
  } else {
    writeFileSync(path, wanted);
    console.log(`wrote ${t.file}`);
  }
}
process.exit(stale ? 1 : 0);
