// Writes a compact copy of presets/ for the WebAssembly modules (CMakeLists.txt,
// PALEO_PRESETS_COMPACT): each JSON file without the whitespace between its tokens, and, with
// --drop-records, without the records the core never reads (no answer carries them): each
// software era's fit (its residuals, cases, notes and sources), the nets' sources and notes, the
// error bands' note and per-family cross_validated; with --drop-provenance, the presets'
// provenance (below).
// Every kept token is copied as written (a number's text too, so "1.0" stays a float), and the
// copy is checked against the file parsed with those members deleted.
// Usage: node compact_presets.mjs <presets dir> <output dir> [--drop-records] [--drop-provenance]
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

// The members of software_eras.json that document a fit; core/efficiency/software_era.cpp reads
// none of them (nor does any other part of the core).
const ERA_RECORD_MEMBERS = new Set(['note', 'notes', 'sources', 'fit', 'fitted_on', 'residuals', 'cv_residuals',
  'loso_residuals', 'loso_fallback', 'median_abs_cv_residual', 'max_abs_cv_residual', 'median_abs_loso_residual',
  'max_abs_loso_residual', 'collective_library_source', 'zero3_gather_source', 'zero3_generations_source']);

// The preset nets' sources and notes: where each layer table comes from, in words; the core reads
// a net's name, label and layers.
const NET_RECORD_MEMBERS = new Set(['sources', 'notes']);

// The presets' provenance in words: where each device's, link's, cluster's, interconnect's and
// software preset's numbers come from. `presets` lists it; no estimate reads it and the page shows
// none, so --drop-provenance (the estimate-only module: the page's first load, the embed) leaves
// it to the full module, the CLI and the npm package. Prices keep theirs: the page prints it.
const PROVENANCE_FILES = new Set(['devices.json', 'links.json', 'clusters.json', 'interconnects.json',
  'software.json']);
const PROVENANCE_MEMBERS = new Set(['sources', 'notes']);
function provenanceOf(rel) {
  return PROVENANCE_FILES.has(rel) ? (key, depth) => depth === 2 && PROVENANCE_MEMBERS.has(key) : () => false;
}

// What --drop-records leaves out of the file `rel`: (member name, depth) => whether.
function recordsOf(rel) {
  if (rel === 'software_eras.json') return (key) => ERA_RECORD_MEMBERS.has(key);
  // The bands' note is for readers, and each family's cross_validated follows from its
  // cross_validation (core/validation/expected_error.cpp reads the figures and that).
  if (rel === 'error_bands.json')
    return (key, depth) => (depth === 0 && key === 'note') || (depth === 2 && key === 'cross_validated');
  if (rel.startsWith('nets/')) return (key, depth) => depth === 0 && NET_RECORD_MEMBERS.has(key);
  return () => false;
}

// The JSON text `text` without whitespace between tokens and without the members `drop` names;
// tokens are copied verbatim.
function compact(text, drop) {
  let at = 0;
  const space = () => { while (' \t\r\n'.includes(text[at]) && at < text.length) ++at; };
  const string = () => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    return text.slice(start, ++at);
  };
  const value = (depth) => {
    space();
    const c = text[at];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      ++at;
      const close = c === '{' ? '}' : ']';
      const parts = [];
      space();
      while (text[at] !== close) {
        if (c === '{') {
          const key = string();
          space();
          ++at;  // the colon
          const member = value(depth + 1);
          if (!drop(JSON.parse(key), depth)) parts.push(key + ':' + member);
        } else {
          parts.push(value(depth + 1));
        }
        space();
        if (text[at] === ',') ++at;
        space();
      }
      ++at;
      return c + parts.join(',') + close;
    }
    const start = at;
    while (at < text.length && !',]} \t\r\n'.includes(text[at])) ++at;
    return text.slice(start, at);
  };
  const out = value(0);
  space();
  if (at !== text.length) throw new Error('text after the JSON document');
  return out;
}

function withoutMembers(doc, drop, depth = 0) {
  if (Array.isArray(doc)) return doc.map((v) => withoutMembers(v, drop, depth + 1));
  if (doc && typeof doc === 'object')
    return Object.fromEntries(Object.entries(doc).filter(([k]) => !drop(k, depth))
      .map(([k, v]) => [k, withoutMembers(v, drop, depth + 1)]));
  return doc;
}

const [source, output, ...options] = process.argv.slice(2);
const dropRecords = options.includes('--drop-records');
const dropProvenance = options.includes('--drop-provenance');
const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) walk(join(dir, entry.name));
    else if (entry.name.endsWith('.json')) files.push(relative(source, join(dir, entry.name)));
  }
};
walk(source);
rmSync(output, { recursive: true, force: true });  // a file removed from presets/ leaves no copy
for (const rel of files) {
  const text = readFileSync(join(source, rel), 'utf8');
  const records = dropRecords ? recordsOf(rel) : () => false;
  const provenance = dropProvenance ? provenanceOf(rel) : () => false;
  const drop = (key, depth) => records(key, depth) || provenance(key, depth);
  const out = compact(text, drop);
  if (!isDeepStrictEqual(JSON.parse(out), withoutMembers(JSON.parse(text), drop)))
    throw new Error(`compact_presets: ${rel} does not read back as the file`);
  const target = join(output, rel);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, out);
}
