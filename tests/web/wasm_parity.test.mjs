// The WebAssembly module answers exactly as the native CLI does, for every preset net.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { singleFileModule, cliApi, assertClose } from './helpers.mjs';

const require = createRequire(import.meta.url);
const createPaleo = require(singleFileModule);
const paleo = await createPaleo();
const call = (request) => JSON.parse(paleo.handle(JSON.stringify(request)));

const nets = call({ command: 'presets' }).nets.map((n) => n.key);

test('the module lists the built-in presets and its version as the CLI does', () => {
  assert.ok(nets.includes('vgg16') && nets.includes('inception_v3'));
  assertClose(call({ command: 'presets' }), cliApi({ command: 'presets' }), 0);
  assert.deepEqual(call({ command: 'version' }), cliApi({ command: 'version' }));
  assert.equal(paleo.version(), cliApi({ command: 'version' }).version);
});

for (const net of nets) {
  test(`estimate, layers, simulate and summary of ${net} equal the native CLI to 1e-12`, () => {
    for (const request of [
      { command: 'estimate', net, device: 'TITAN_X', conv_algorithm: 'auto' },
      { command: 'estimate', net, device: 'TITAN_X', software: 'tensorflow', workers: [1, 4, 32], scaling: ['strong'] },
      { command: 'summary', net },
      { command: 'layers', net, device: 'K40', profile: 'paleo2017', software: 'tensorflow' },
      { command: 'simulate', net, device: 'K80', interconnect: 'ethernet20', workers: [1, 2, 8, 64], scaling: ['weak', 'strong'] },
    ]) {
      const wasm = call(request);
      assert.equal(wasm.ok, true, JSON.stringify(wasm.error));
      assertClose(wasm, cliApi(request), 1e-12);
    }
  });
}

test('the cluster model and collectives equal the native CLI', () => {
  for (const request of [
    { command: 'estimate', net: 'vgg16', device: 'V100_SXM2_16GB', cluster: 'dgx1_v100_edr', nodes: 16, batch_size: 32 },
    { command: 'estimate', net: 'alex_v2', cluster: 'dgx_a100_hdr', nodes: 2, pipeline: { stages: 4, micro_batches: 8 } },
    { command: 'collective', op: 'allreduce', algorithm: 'auto', workers: 64, bytes: 1e9,
      link: { bandwidth_gb_per_s: 12.5, latency_us: 5 } },
  ]) assertClose(call(request), cliApi(request), 1e-12);
});

test('bad input comes back as a structured error, never an abort', () => {
  const malformed = JSON.parse(paleo.handle('{"command":'));
  assert.equal(malformed.ok, false);
  assert.match(malformed.error.message, /malformed JSON/);
  const cycle = call({ command: 'layers', net: { layers: {
    data: { parents: [], type: 'Input', tensor: [1, 8, 8, 3] },
    a: { parents: ['data', 'b'], type: 'Generic' }, b: { parents: ['a'], type: 'Generic' } } } });
  assert.equal(cycle.ok, false);
  assert.equal(cycle.error.field, 'parents');
  const type = call({ command: 'layers', net: { layers: {
    data: { parents: [], type: 'Input', tensor: [1, 8, 8, 3] }, x: { parents: ['data'], type: 'Convolutionn' } } } });
  assert.deepEqual([type.error.layer, type.error.field], ['x', 'type']);
  // The module still answers after errors.
  assert.equal(call({ command: 'version' }).ok, true);
});
