// The calibration panel's documents, without a browser (web/src/calibration_request.js): what the
// pasted text is, the shared request a fit runs (the page's scenario, without the parts a fit does
// not need), and a profile applied to a request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, requests } from '../../web/src/state.js';
import { appliedProfile, calibrateRequest, readCalibrationText, sharedRequest, withProfile } from '../../web/src/calibration_request.js';

test('pasted text: CSV, a measurement list or document, a profile or a whole calibrate response', () => {
  assert.deepEqual(readCalibrationText('  '), { kind: 'empty' });
  assert.deepEqual(readCalibrationText('layer,pass,measured_ms\nfc6,forward,1'),
    { kind: 'measurements', measurements: 'layer,pass,measured_ms\nfc6,forward,1' });
  assert.deepEqual(readCalibrationText('[{"measured_ms": 3}]'), { kind: 'measurements', measurements: [{ measured_ms: 3 }] });
  const doc = { request: { net: 'alex_v2' }, measurements: [{ measured_ms: 3 }], holdout: 0.25 };
  assert.deepEqual(readCalibrationText(JSON.stringify(doc)), { kind: 'measurements', ...doc });
  assert.deepEqual(readCalibrationText('{"efficiency": {"conv_ceiling": 0.5}}'),
    { kind: 'profile', profile: { efficiency: { conv_ceiling: 0.5 } } });
  const response = { command: 'calibrate', ok: true, profile: { software_era: 'x', efficiency: { a: 1 } } };
  assert.deepEqual(readCalibrationText(JSON.stringify(response)), { kind: 'profile', profile: response.profile });
  assert.throws(() => readCalibrationText('{"oops'), SyntaxError);
});

test('the fit runs the page\'s scenario without its cluster, sweep, time to train or applied profile', () => {
  const state = { ...DEFAULTS, cnn_precision: 'bf16', calibration: '{"efficiency": {"conv_ceiling": 0.5}}' };
  const page = requests(state).estimate;
  assert.ok(page.cluster && page.dataset_samples && page.efficiency);
  assert.deepEqual(sharedRequest(page, false),
    { command: 'estimate', net: 'resnet50_v1_5', device: 'H100_SXM', profile: 'paleo2026', precision: 'bf16', optimizer: 'sgd' });
  const transformer = { command: 'estimate', net: 'llama3_8b', tp: 8, train_tokens: 1e12, price_per_gpu_hour: 2,
    efficiency: { matmul_ceiling: 0.5 } };
  assert.deepEqual(sharedRequest(transformer, true), { command: 'estimate', net: 'llama3_8b', tp: 8 });
  // The software era chosen on the page is the scenario's: the fit starts from its efficiencies.
  const era = requests({ ...DEFAULTS, software_era: 'pytorch_cudnn8_2021' }).estimate;
  assert.equal(sharedRequest(era, false).software_era, 'pytorch_cudnn8_2021');
  assert.equal(sharedRequest({ ...transformer, software_era: 'megatron_lm_2022' }, true).software_era, 'megatron_lm_2022');
  // A document's own shared request wins; the hold-out box asks for alternate rows.
  const read = { kind: 'measurements', request: { net: 'vgg16' }, measurements: 'csv', parameters: ['conv_ceiling'] };
  assert.deepEqual(calibrateRequest(read, { net: 'alex_v2' }, true),
    { command: 'calibrate', request: { net: 'vgg16' }, measurements: 'csv', parameters: ['conv_ceiling'], holdout: 'alternate' });
  assert.deepEqual(calibrateRequest({ kind: 'measurements', measurements: 'csv' }, { net: 'alex_v2' }, false),
    { command: 'calibrate', request: { net: 'alex_v2' }, measurements: 'csv' });
});

test('a profile applied to a request adds its era and efficiencies, to the kind of net it was fitted to', () => {
  const request = { command: 'estimate', net: 'vgg16' };
  assert.equal(withProfile(request, '', 'cnn'), request);
  const profile = { software_era: 'cudnn_r4_2016', efficiency: { conv_ceiling: 0.5 } };
  const both = { command: 'estimate', net: 'vgg16', ...profile };
  assert.deepEqual(withProfile(request, JSON.stringify(profile), 'cnn'), both);
  assert.deepEqual(withProfile(request, JSON.stringify(profile), 'transformer'), both);
  // Fitted on the page to a CNN: a transformer's requests keep their own era.
  const fitted = appliedProfile(profile, 'cnn');
  assert.deepEqual(JSON.parse(fitted), { applies_to: 'cnn', ...profile });
  assert.deepEqual(withProfile(request, fitted, 'cnn'), both);
  assert.equal(withProfile(request, fitted, 'transformer'), request);
  // Not a profile object (text, null, a list): sent as it is, for the core's error on `efficiency`.
  for (const text of ['not json', 'null', '[1]', '3']) assert.deepEqual(withProfile(request, text, 'cnn'), { ...request, efficiency: text });
});

test('configuration B with a PPP pair of its own drops the applied profile, as it drops A\'s pair', () => {
  const state = { ...DEFAULTS, compare_on: true, b_software: 'tensorflow',
    calibration: appliedProfile({ efficiency: { conv_ceiling: 0.5 } }, 'cnn') };
  const { estimate, compare } = requests(state);
  assert.deepEqual(estimate.efficiency, { conv_ceiling: 0.5 });
  assert.equal(compare.software, 'tensorflow');
  assert.equal(compare.efficiency, undefined);
});
