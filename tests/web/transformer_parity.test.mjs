// The WebAssembly module answers transformer requests exactly as the native CLI does: every
// transformer preset, the 36 published validation cases with their papers' settings, a Hugging
// Face config.json, the planner and inference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { singleFileModule, cliApi, assertClose } from './helpers.mjs';

const require = createRequire(import.meta.url);
const createPaleo = require(singleFileModule);
const paleo = await createPaleo();
const call = (request) => JSON.parse(paleo.handle(JSON.stringify(request)));
const root = new URL('../../', import.meta.url);
const readJson = (path) => JSON.parse(fs.readFileSync(new URL(path, root), 'utf8'));

test('every transformer preset estimates as the native CLI does', () => {
  const presets = call({ command: 'presets' }).transformers;
  assert.ok(presets.length >= 20);
  for (const { key } of presets) {
    const request = { command: 'estimate', net: key, device: 'H100_SXM', nodes: 1, devices_per_node: 8,
                      global_batch: 8, seq_len: 2048 };
    const wasm = call(request);
    assert.equal(wasm.ok, true, `${key}: ${JSON.stringify(wasm.error)}`);
    assertClose(wasm, cliApi(request), 1e-12);
  }
});

test('the 36 validation cases run in the module with their papers\' settings, as natively', () => {
  const { cases } = readJson('presets/validation/transformer_cases.json');
  assert.equal(cases.length, 36);
  for (const c of cases) {
    const wasm = call(c.request);
    assert.equal(wasm.ok, true, `${c.id}: ${JSON.stringify(wasm.error)}`);
    assert.ok(wasm[c.compare] > 0, c.id);
    assertClose(wasm, cliApi(c.request), 1e-12);
  }
});

test('a Hugging Face config.json, the planner and inference equal the native CLI', () => {
  const llama = readJson('tests/data/hf/Meta-Llama-3-8B.config.json');
  for (const request of [
    { command: 'estimate', net: llama, device: 'H100_SXM', tp: 8, global_batch: 64, seq_len: 8192, recompute: 'selective' },
    { command: 'plan', net: 'gpt3_175b', device: 'A100_80GB_SXM', devices: 1024, devices_per_node: 8,
      global_batch: 1536, seq_len: 2048, precision: 'bf16' },
    { command: 'inference', net: 'llama3_70b', device: 'H100_SXM', tp: 8, batch_size: 16, prompt_len: 4096,
      generate_len: 512 },
  ]) {
    const wasm = call(request);
    assert.equal(wasm.ok, true, JSON.stringify(wasm.error));
    assertClose(wasm, cliApi(request), 1e-12);
  }
});
