// One model in one place: the requests the page sends for its scenarios, through the native CLI
// (`paleo api`) and the WebAssembly module the page runs, give the same documents; and the page's
// request for a state carries the fields the core prices time to train with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { singleFileModule, cliApi, assertClose, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const paleo = await require(singleFileModule)();
const wasm = (request) => JSON.parse(paleo.handle(JSON.stringify(request)));

// The page's own state module (web/src/state.js, with the link writer link_compress.js), bundled for node, so that the requests compared
// are the ones the page sends.
const bundled = await build({ stdin: { contents: "export * from './state.js'; export * from './link_compress.js';",
  resolveDir: join(root, 'web', 'src') }, bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent' });
const state = await import('data:text/javascript;base64,' + Buffer.from(bundled.outputFiles[0].text).toString('base64'));

// Every net and cluster preset pair the browser tests use, and the page's default.
const SCENARIOS = [
  {},
  { net: 'resnet50_v1_5', cluster: 'dgx_h100_ndr', device: 'H100_SXM' },
  { net: 'resnet50_v1_5', cluster: 'dgx_a100_hdr', device: 'A100_40GB_SXM', nodes: 2 },
  { net: 'vgg16', cluster: 'dgx1_v100_edr', device: 'V100_SXM2_16GB', nodes: 16, batch_size: 32 },
  { net: 'alex_v2', cluster_on: false, device: 'TITAN_X', workers: '1,2,4,8', scaling: 'strong', batch_size: 100 },
  { net: 'vgg16', cluster_on: false, device: 'TITAN_X', batch_size: 100000 },
  { net: 'vgg16', cluster_on: true, cluster: 'dgx_h100_ndr', device: 'TITAN_X' },  // a deliberate mismatch
  { net: 'mobilenet_v2', cluster_on: false, device: 'CPU_I7', software: 'tensorflow', price_preset: 'aws_p5_h100_capacity_block' },
  { cnn_precision: 'bf16', memory_format: 'nchw' },  // the default scenario as PyTorch's AMP runs it
  { net: 'vgg16', cluster_on: false, device: 'V100_SXM2_16GB', cnn_precision: 'fp8' },  // priced as fp16
  { net: 'alex_v2', cluster_on: false, cnn_precision: 'bf16', timing: 'kernel' },  // a benchmark loop's times
];

// The time to train each setup of a state, derived here from the state and the step times of the
// response (docs/api.md, "Time to train"): steps = epochs x ceil(dataset / samples a step).
const PRICES = cliApi({ command: 'presets' }).prices;
function expectedTrain(s, response) {
  const usd = s.price_preset ? PRICES.find((p) => p.key === s.price_preset).usd_per_device_hour : s.price;
  const batch = response.net.batch_size;
  const setups = [{ devices: 1, samples: batch, step_ms: response.totals.step_ms }];
  const workers = s.parallel === 'data' ? String(s.workers).split(',').map(Number) : [];
  workers.forEach((n, i) => {
    if (n === 1) return;
    const row = response.simulation.scaling[0].rows[i];
    assert.equal(row.workers, n);
    setups.push({ devices: n, samples: s.scaling === 'weak' ? n * batch : batch, step_ms: row.step_ms[row.fastest_scheme] });
  });
  if (s.cluster_on) {
    const c = response.cluster.cluster;
    setups.push({ devices: c.devices, samples: c.devices * batch, step_ms: response.cluster.step_ms });
  }
  return setups.map((x) => {
    const steps = s.epochs * Math.ceil(s.dataset / x.samples);
    const time_s = steps * x.step_ms / 1e3;
    return { ...x, steps, time_s, cost_usd: usd > 0 ? time_s / 3600 * x.devices * usd : undefined };
  });
}

for (const overrides of SCENARIOS) {
  const s = { ...state.DEFAULTS, ...overrides };
  test(`the page's estimate for ${JSON.stringify(overrides)}: CLI and WebAssembly give one document`, () => {
    const { estimate } = state.requests(s);
    const cli = cliApi(estimate);
    assert.equal(cli.ok, true, JSON.stringify(cli.error));
    assertClose(wasm(estimate), cli, 1e-12);
    // The CNN's precision and layout selects travel as the request's fields, empty as the core's defaults.
    assert.equal(estimate.precision, s.cnn_precision || undefined);
    assert.equal(estimate.memory_format, s.memory_format || undefined);
    assert.equal(estimate.timing, s.timing || undefined);
    assert.equal(cli.precision.name, s.cnn_precision || 'fp32');
    // The page asks the core for the time to train; it computes none itself. Each setup's steps,
    // time and cost as derived here; the headline the cluster's (else one device's), the fastest
    // the least time.
    const expected = expectedTrain(s, cli);
    assert.equal(cli.train.setups.length, expected.length);
    cli.train.setups.forEach((setup, i) => {
      assert.equal(setup.devices, expected[i].devices);
      assert.equal(setup.samples_per_step, expected[i].samples);
      assert.equal(setup.steps, expected[i].steps);
      assertClose(setup.time_s, expected[i].time_s, 1e-12);
      if (expected[i].cost_usd === undefined) assert.equal(setup.cost_usd, undefined);
      else assertClose(setup.cost_usd, expected[i].cost_usd, 1e-12);
    });
    assert.equal(cli.train.headline_index, s.cluster_on ? expected.length - 1 : 0);
    const least = expected.reduce((best, x, i) => (x.time_s < expected[best].time_s ? i : best), 0);
    assert.equal(cli.train.fastest_index, least);
  });
}

test('presets and their lists: CLI and WebAssembly agree', () => {
  const cli = cliApi({ command: 'presets' });
  assertClose(wasm({ command: 'presets' }), cli, 0);
  assert.deepEqual(cli.original_schemes, ['OneToAll', 'TreeAllReduce', 'ButterflyAllReduce', 'ButterflyMixing']);
  assert.ok(cli.collectives.includes('hierarchical') && cli.collectives[0] === 'auto');
});

test('the page\'s default is ResNet-50 on a DGX H100 node, priced by the H100\'s software era, not PPP 1/1', () => {
  const { estimate } = state.requests(state.DEFAULTS);
  assert.equal(estimate.net, 'resnet50_v1_5');
  assert.equal(estimate.device, 'H100_SXM');
  assert.equal(estimate.cluster, 'dgx_h100_ndr');
  assert.equal(estimate.nodes, 1);
  assert.equal(estimate.ppp_comp, undefined);
  assert.equal(estimate.software, undefined);
  // bf16 mixed precision, as ResNet-50 is trained on an H100 (the core's "bf16").
  assert.equal(estimate.precision, 'bf16');
  const cli = cliApi(estimate);
  assert.ok(cli.software_era, 'priced by a software era');
  assert.equal(cli.device.key, cliApi({ command: 'presets' }).clusters.find((c) => c.key === 'dgx_h100_ndr').device);
  assert.equal(cli.precision.name, 'bf16');
  // The throughput over nodes: 1, 2, 4, ... 64 nodes of the one-node cluster.
  assert.deepEqual(cli.cluster.node_scaling.map((p) => p.nodes), [1, 2, 4, 8, 16, 32, 64]);
  assert.equal(cli.cluster.cluster.nodes, 1);
  // The time to train: one device, the PALEO 2017 workers (their own section), the cluster.
  const kinds = cli.train.setups.map((s) => s.kind);
  assert.deepEqual([kinds[0], kinds.at(-1)], ['one_device', 'cluster']);
  assert.equal(kinds.filter((k) => k === 'paleo2017_workers').length, 7);  // workers 2 to 128
});

test('the URL state is compressed (#z=, deflate + base64url) and old links still load', () => {
  const spec = JSON.stringify({ name: 'x'.repeat(4000), layers: {} });
  const s = { ...state.DEFAULTS, net: 'vgg16', batch_size: 32, spec };
  const hash = state.toHash(s);
  assert.match(hash, /^#z=[A-Za-z0-9_-]+$/);
  // 4,000 repeated characters deflate to a few dozen bytes; the plain parameters are over 4 KB.
  assert.ok(hash.length < 200, `${hash.length} characters`);
  assert.ok(state.toParams(s).length > 4000);
  assert.deepEqual(state.fromHash(hash), s);
  // A link made before compression, against the defaults of its time (VGG-16 on a Titan X, no
  // cluster): what it leaves out still means what it meant then.
  const old = state.fromHash('#batch_size=32&software=tensorflow');
  assert.deepEqual([old.net, old.device, old.cluster_on, old.batch_size, old.software],
    ['vgg16', 'TITAN_X', false, 32, 'tensorflow']);
  assert.equal(old.cnn_precision, '');  // fp32, as then
  // A compressed link naming the PALEO 2017 profile and no precision: fp32, the one it prices.
  assert.equal(state.fromHash(state.toHash({ ...state.DEFAULTS, profile: 'paleo2017' })).cnn_precision, '');
  assert.equal(state.fromHash(state.toHash({ ...state.DEFAULTS, profile: 'paleo2017', cnn_precision: 'fp16' })).cnn_precision,
    'fp16');
  assert.deepEqual(state.fromHash('#'), state.DEFAULTS);
  assert.deepEqual(state.fromHash(''), state.DEFAULTS);
  // A pasted spec (VGG-16's preset, 5.6 KB of JSON): the plain parameters are 8.2 KB, percent-
  // encoded; deflated, the link keeps under 1 KB and gives the same spec back.
  const vgg = readFileSync(join(root, 'presets', 'nets', 'vgg16.json'), 'utf8');
  const pasted = { ...state.DEFAULTS, spec: vgg };
  assert.ok(state.toParams(pasted).length > 8000);
  assert.ok(state.toHash(pasted).length < 1000, `${state.toHash(pasted).length} characters`);
  assert.equal(state.fromHash(state.toHash(pasted)).spec, vgg);
  // A damaged compressed hash gives the defaults, not an exception.
  assert.deepEqual(state.fromHash('#z=%%%'), state.DEFAULTS);
  assert.deepEqual(state.fromHash('#z=AAAA'), state.DEFAULTS);
});

test('a dataset, epochs or price out of range reaches the core as entered and comes back as its error', () => {
  // The page changes none of them (no rounding, no clamping to 1, no dropping a negative price):
  // the core names the field, and the page shows the message beside that input.
  const cases = [[{ dataset: -5 }, 'dataset_samples'], [{ dataset: 1000.5 }, 'dataset_samples'],
    [{ epochs: 0 }, 'epochs'], [{ epochs: -3 }, 'epochs'], [{ epochs: 2.5 }, 'epochs'], [{ price: -1 }, 'price_per_gpu_hour']];
  for (const [overrides, field] of cases) {
    const { estimate } = state.requests({ ...state.DEFAULTS, ...overrides });
    const out = wasm(estimate);
    assert.equal(out.ok, false, JSON.stringify(overrides));
    assert.equal(out.error.field, field, JSON.stringify(overrides));
  }
  // A dataset of 0 asks for no time to train, a price of 0 for no cost.
  const none = wasm(state.requests({ ...state.DEFAULTS, dataset: 0, price: 0 }).estimate);
  assert.equal(none.ok, true);
  assert.equal(none.train, undefined);
  const free = wasm(state.requests({ ...state.DEFAULTS, price: 0 }).estimate);
  assert.equal(free.train.setups[0].cost_usd, undefined);
});

test('the custom device\'s defaults are an H100 SXM\'s numbers: the same estimate as the preset', () => {
  const custom = { ...state.DEFAULTS, device: 'custom' };
  const preset = { ...state.DEFAULTS, device: 'H100_SXM' };
  const a = cliApi(state.requests(custom).estimate);
  const b = cliApi(state.requests(preset).estimate);
  assert.equal(a.ok, true, JSON.stringify(a.error));
  assert.equal(a.totals.step_ms, b.totals.step_ms);
  assert.equal(a.cluster.step_ms, b.cluster.step_ms);
  assert.equal(a.software_era.key, 'pytorch_cudnn9_2025');
  assert.equal(a.device.memory_bytes, 80 * 2 ** 30);
  assert.deepEqual(a.device.peak_tensor_gflops, b.device.peak_tensor_gflops);
  // A format set to 0 is left out: the products fall back, and the core says so.
  const noFp8 = cliApi(state.requests({ ...custom, cd_fp8_tflops: 0, cnn_precision: 'fp8' }).estimate);
  assert.deepEqual(noFp8.device.peak_tensor_gflops, { bf16: 989000, fp16: 989000, tf32: 495000 });
  assert.ok(noFp8.warnings.includes('precision: the device has no fp8_e4m3 matrix units: products run as bf16'));
});
