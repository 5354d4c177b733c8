// The embed snippet's attribute table (web/src/embed_attributes.js), without a browser: every
// field of the page's `estimate` request becomes an attribute, and the element's reading of those
// attributes gives the page's request back, field for field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, requests } from '../../web/src/state.js';
import { attributesOf, requestOf } from '../../web/src/embed_attributes.js';

const roundTrip = (request) => {
  const attributes = new Map(attributesOf(request));
  return requestOf((name) => attributes.get(name) ?? null, 'vgg16');
};

test('the page\'s request survives the snippet: defaults, and every control away from its default', () => {
  const scenarios = [
    DEFAULTS,
    { ...DEFAULTS, optimizer: 'adam', conv_algorithm: 'winograd', software: 'hand', ppp_comp: 0.62, ppp_comm: 0.72,
      batch_size: 96, parallel: 'hybrid', hybrid_workers: 4, scaling: 'strong', workers: '1,4,16', nodes: 4,
      collective: 'ring', overlap: false, bucket_mib: 100, stages: 4, micro_batches: 8, dataset: 50000, epochs: 3,
      price: 2.5, profile: 'paleo2017', network: 'infiniband' },
    { ...DEFAULTS, cluster_on: false, software: 'tensorflow', price_preset: 'aws_p5_h100_capacity_block', dataset: 0 },
    // A custom device (an object, as JSON text in the attribute), the CNN precision and layout.
    { ...DEFAULTS, device: 'custom', cd_name: 'a "quoted" <GPU>', cd_fp8_tflops: 0, cd_generation: '',
      cnn_precision: 'bf16', memory_format: 'nchw', timing: 'kernel' },
    // A calibration profile applied: its era and efficiencies (an object, as JSON text).
    { ...DEFAULTS, calibration: '{"software_era": "pytorch_cudnn9_2025", "efficiency": {"conv_ceiling": 0.5}}' },
  ];
  for (const state of scenarios) {
    const request = requests(state).estimate;
    assert.deepEqual(roundTrip(request), request);
  }
});

test('attributes written by hand: MiB to bytes, the pipeline object, booleans, a price key', () => {
  const attributes = new Map([['net', 'alex_v2'], ['bucket-mib', '50'], ['stages', '2'], ['micro-batches', '4'],
    ['overlap', 'false'], ['price', 'some_key'], ['workers', '1, 8'], ['network', 'ethernet']]);
  assert.deepEqual(requestOf((name) => attributes.get(name) ?? null, 'vgg16'), {
    command: 'estimate', net: 'alex_v2', interconnect: 'ethernet', workers: [1, 8], overlap: false,
    bucket_bytes: 50 * 1024 * 1024, pipeline: { stages: 2, micro_batches: 4 }, price_per_gpu_hour: 'some_key',
    scaling: ['weak'], parallel: 'data' });
  assert.deepEqual(requestOf(() => null, 'vgg16'), { command: 'estimate', net: 'vgg16' });
});

test('a request field without an attribute is an error, never silently dropped', () => {
  assert.throws(() => attributesOf({ command: 'estimate', net: 'vgg16', roofline: true }), /no attribute for "roofline"/);
  assert.throws(() => attributesOf({ command: 'estimate', net: 'vgg16', pipeline: { stages: 2, schedule: 'gpipe' } }),
    /pipeline\.schedule/);
  assert.throws(() => attributesOf({ command: 'estimate', net: 'vgg16', precision: { compute: 'bf16' } }), /precision/);
});
