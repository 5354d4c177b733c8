// Hostile and oversized requests through the WebAssembly module, where `long` is 32 bits and the
// JavaScript stack is small: the same answers as the native CLI (tests/test_request_limits.cpp),
// never a wrapped count, a thrown RangeError or an abort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { singleFileModule, cliApi, assertClose } from './helpers.mjs';

const require = createRequire(import.meta.url);
const paleo = await require(singleFileModule)();
const handleText = (text) => JSON.parse(paleo.handle(text));
const call = (request) => handleText(JSON.stringify(request));
// The CLI's answer, errors included (it exits with status 2 on them).
function cliAnswer(request) {
  try {
    return cliApi(request);
  } catch (e) {
    return JSON.parse(e.stdout.toString());
  }
}

function assertError(response, field, words) {
  assert.equal(response.ok, false, JSON.stringify(response).slice(0, 300));
  assert.equal(response.error.field, field);
  if (words) assert.ok(response.error.message.includes(words), response.error.message);
}

const links = { intra: 'nvlink2_v100', inter: 'infiniband_edr' };
const smallNet = {
  name: 'small',
  layers: {
    data: { parents: [], type: 'Input', tensor: [8, 32, 32, 3] },
    conv: { parents: ['data'], type: 'Convolution', filter: [3, 3, 3, 16], strides: [1, 1, 1, 1], padding: 'SAME' },
    fc: { parents: ['conv'], type: 'InnerProduct', num_outputs: 10 },
  },
};

test('65536 x 65536 and 10^6 x 10^6 devices are errors naming nodes, as natively (once 0 devices and ok)', () => {
  for (const [nodes, perNode] of [[65536, 65536], [1000000, 1000000]]) {
    const request = { command: 'collective', op: 'allreduce', bytes: 1e9, cluster: links, nodes, devices_per_node: perNode };
    const response = call(request);
    assertError(response, 'nodes', 'more than the limit of 1000000');
    assert.deepEqual(response, cliAnswer(request));
    assertError(call({ command: 'estimate', net: 'alex_v2', cluster: 'dgx1_v100_edr', nodes, devices_per_node: perNode }),
      'nodes');
  }
  const atLimit = call({ command: 'collective', op: 'allreduce', bytes: 1e9, cluster: links, nodes: 1000, devices_per_node: 1000 });
  assert.equal(atLimit.cluster.devices, 1000000);
});

test('a batch of 2^31 gives the native answer, FLOPs exactly linear in the batch', () => {
  const one = call({ command: 'estimate', profile: 'paleo2017', net: smallNet, batch_size: 1 });
  const request = { command: 'estimate', profile: 'paleo2017', net: smallNet, batch_size: 2 ** 31, workers: [1, 1000000],
    scaling: ['weak'] };
  const big = call(request);
  assert.equal(big.ok, true, JSON.stringify(big.error));
  assert.equal(big.net.batch_size, 2 ** 31);
  assert.equal(big.totals.forward_flops, 2 ** 31 * one.totals.forward_flops);
  assert.equal(big.simulation.scaling[0].rows[1].batch_size, 2 ** 31 * 1e6);
  assertClose(big, cliApi(request), 1e-12);
  const search = { command: 'search', net: smallNet, devices: 2, devices_per_node: 2, batch_size: 2 ** 31 };
  assert.equal(call(search).global_batch, 2 ** 32);
  assertError(call({ command: 'estimate', net: smallNet, batch_size: 2 ** 31 + 1 }), 'batch_size');
});

test('a search on 1024 devices gives the native answer (n x c x s x s once wrapped to 0: remainder by zero)', () => {
  const request = { command: 'search', net: smallNet, devices: 1024, devices_per_node: 8 };
  const r = call(request);
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assertClose(r, cliApi(request), 1e-12);
});

test('a tensor of 2^40 elements is counted exactly', () => {
  const net = { name: 'huge', layers: {
    data: { parents: [], type: 'Input', tensor: [1, 2 ** 20, 2 ** 20, 1] },
    pre: { parents: ['data'], type: 'Generic' },
    x: { parents: ['pre'], type: 'Dropout' } } };
  const request = { command: 'layers', profile: 'paleo2017', net };
  const r = call(request);
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.layers[2].output, [1, 2 ** 20, 2 ** 20, 1]);
  assert.equal(r.layers[2].forward.flops, 2 ** 40);
  assert.equal(r.layers[2].forward.bytes, 8 * 2 ** 40);
  assertClose(r, cliApi(request), 1e-12);
  assert.equal(call({ command: 'summary', net }).totals.activation_bytes, 3 * 4 * 2 ** 40);
});

test('a transformer of 4096 heads x 10^6 head_dim (q_size over 2^31) gives the native answer, not negative memory', () => {
  const request = { command: 'estimate', net: { transformer: { layers: 2, hidden: 4096, heads: 4096, head_dim: 1000000,
    vocab: 32000 } }, global_batch: 8, seq_len: 128 };
  const r = call(request);
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.ok(r.memory_per_device_bytes > 0 && r.mfu > 0 && r.model_flops_per_step > 0);
  assert.equal(r.fits, false);
  assertClose(r, cliApi(request), 1e-12);
});

test('a request nested 2,750 or 100,000 levels deep is an error, not a RangeError', () => {
  for (const levels of [65, 2750, 100000]) {
    const arrays = '['.repeat(levels) + ']'.repeat(levels);
    const objects = '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    for (const nested of [arrays, objects]) {
      const response = handleText(`{"command":"layers","net":${nested}}`);
      assertError(response, '', 'more than 64 levels deep');
    }
  }
  assert.equal(call({ command: 'version' }).ok, true);  // the module still answers
});

test('invalid UTF-8 in a request comes back as a valid JSON error', () => {
  // Raw bytes reach the module only as a byte array (a JavaScript string is always encoded).
  const bytes = new Uint8Array(Buffer.from('{"command":"layers","net":"\xff\xfe"}', 'latin1'));
  const response = JSON.parse(paleo.handle(bytes));
  assertError(response, '', 'malformed JSON');
  assert.ok(response.error.message.includes('\ufffd'));
});

test('oversized lists, keys, searches and requests are refused quickly with a short error', () => {
  const workers = Array.from({ length: 100000 }, (_, i) => 1 + (i % 64));
  assertError(call({ command: 'simulate', net: smallNet, workers }), 'workers', '100000 entries; the limit is 256');
  const keyText = paleo.handle(`{"command":"version","${'k'.repeat(1 << 20)}":1}`);
  assert.ok(keyText.length < 4096, `${keyText.length} characters`);
  assert.ok(JSON.parse(keyText).error.field.length <= 65);
  // 400 convolutions of 32 x 256 x 256 x 64 on 1024 devices: past the search's work cap.
  const deep = { name: 'deep', layers: { data: { parents: [], type: 'Input', tensor: [32, 256, 256, 64] } } };
  for (let i = 0; i < 400; ++i) {
    deep.layers['c' + i] = { parents: [i ? 'c' + (i - 1) : 'data'], type: 'Convolution', filter: [3, 3, 64, 64],
      strides: [1, 1, 1, 1], padding: 'SAME' };
  }
  assertError(call({ command: 'search', net: deep, devices: 1024, devices_per_node: 8 }), 'devices',
    'configuration pairs on 1024 devices');
  assertError(handleText('{"command":"version"}' + ' '.repeat(8 << 20)), '', 'the limit is 8388608');
});

test('silent choices come back as warnings, as natively', () => {
  const cpu = { command: 'layers', net: smallNet, device: 'CPU_I7', conv_algorithm: 'winograd' };
  const r = call(cpu);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /conv_algorithm 'winograd'/);
  assertClose(r, cliApi(cpu), 1e-12);
  const sweep = { command: 'estimate', net: 'alex_v2', cluster: 'dgx1_v100_edr', nodes: 3,
    pipeline: { stages: 3, micro_batches: 4 } };
  const s = call(sweep);
  assert.equal(s.warnings.length, 2);
  assert.deepEqual(s.cluster.node_scaling.map((p) => p.nodes), [3]);
});

test('issue 33\'s hostile requests answer in the module as natively: the field named, the key escaped', () => {
  const cases = [
    [{ command: 'layers', net: 'ab\u0000cd' }, 'net', "'ab\\u0000cd'"],
    [{ command: 'calibrate', request: { command: 'layers', net: 'alex_v2' },
      measurements: [{ measured_ms: 1, compare: '/layers/99999999999999999999999' }] }, 'measurements[0].compare',
    'no number at /layers/99999999999999999999999'],
    [{ command: 'estimate', net: 'alex_v2', batch_size: 128, cluster: 'dgx1_v100_edr', nodes: 1,
      pipeline: { stages: 2, micro_batches: 1048576 } }, 'pipeline.micro_batches', 'for a batch of 128 samples'],
    [{ command: 'layers', net: 'vgg16', batch_size: 2 ** 30 }, 'batch_size', "(one sample's is 3211264)"],
    [{ command: 'estimate', net: 'alex_v2', ppp_comp: 1e-300, dataset_samples: 1e15, epochs: 1e6 }, 'ppp_comp', '1e-300'],
  ];
  for (const [request, field, words] of cases) {
    const r = call(request);
    assert.equal(r.ok, false, JSON.stringify(request));
    assert.equal(r.error.field, field);
    assert.ok(r.error.message.includes(words), r.error.message);
  }
  // 100 layer selectors of ResNet-152 (30 took 7 s in the module when each copied the rows).
  const request = { command: 'layers', net: 'resnet152_v1_5', device: 'V100_SXM2_16GB' };
  const fc = call(request).layers.find((l) => l.name === 'fc').forward.total_ms;
  const r = call({ command: 'calibrate', request, max_evaluations: 1,
    measurements: Array.from({ length: 100 }, () => ({ measured_ms: fc, compare: { layer: 'fc', pass: 'forward' } })) });
  assert.equal(r.ok, true);
  for (const row of r.before.rows) assertClose(row.predicted, fc, 1e-12);
});
