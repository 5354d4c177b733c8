// The embed snippet's attribute table (web/src/embed_attributes.js), without a browser: every
// field of the page's `estimate` request becomes an attribute, and the element's reading of those
// attributes gives the page's request back, field for field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, requests } from '../../web/src/state.js';
import { attributesOf, requestOf } from '../../web/src/embed_attributes.js';
import { transformerAttributesOf, transformerRequestOf } from '../../web/src/embed_transformer.js';
import { transformerRequest } from '../../web/src/transformer_request.js';
import { servingAttributesOf, servingRequestOf } from '../../web/src/embed_serving.js';
import { inferenceRequest } from '../../web/src/serving_request.js';

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

// The transformer's attributes (web/src/embed_transformer.js): the page's transformer request
// becomes attributes, and the element's request, built back from them with the page's own
// builder, is the page's request, field for field.
const transformerRoundTrip = (request) => {
  const attributes = new Map(transformerAttributesOf(request));
  return transformerRequestOf((name) => attributes.get(name) ?? null);
};

test('a transformer request survives the snippet: defaults, a layout away from them, a config, a custom device', () => {
  const llama = { ...DEFAULTS, net: 'llama3_8b', seq_len: 8192, tp: 2, sequence_parallel: true };
  const scenarios = [
    llama,
    { ...llama, t_nodes: 4, t_per_node: 8, pp: 2, cp: 2, ep: 2, expert_tp: 1, virtual_stages: 2, schedule: 'interleaved_1f1b',
      global_batch: 512, micro_batch: 2, recompute: 'full', zero: 3, attention: 'eager', precision: 'fp8',
      t_cluster: 'dgx_h100_ndr', t_software_era: 'megatron_core_hopper_2024', train_btokens: 15.6, price: 2.25 },
    { ...llama, recompute: '', train_btokens: 0, price_preset: 'aws_p5_h100_capacity_block' },
    { ...llama, train_btokens: 100, price_preset: 'aws_p5_h100_capacity_block' },
    // A pasted Hugging Face config (an object net, as JSON text in the attribute).
    { ...llama, config: '{"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, ' +
      '"num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, ' +
      '"max_position_embeddings": 8192, "name": "a \\"quoted\\" <model>"}' },
    // A custom device (an object) and an applied calibration profile (its era and efficiencies).
    { ...llama, device: 'custom', cd_name: 'a "quoted" <GPU>',
      calibration: '{"software_era": "megatron_core_hopper_2024", "efficiency": {"matmul_ceiling": 0.7}}' },
  ];
  for (const state of scenarios) {
    const request = transformerRequest(state);
    assert.deepEqual(transformerRoundTrip(request), request);
  }
});

test('transformer attributes written by hand: the page\'s layout defaults, the stack\'s recomputation, dp and exact token counts', () => {
  const attributes = new Map([['net', 'llama3_8b'], ['device', 'H100_SXM'], ['nodes', '2'], ['per-node', '8'],
    ['precision', 'bf16'], ['tp', 'smallest_that_fits'], ['dp', '4'], ['train-tokens', '15600000001'],
    ['price', '2.5'], ['sequence-parallel', 'true']]);
  assert.deepEqual(transformerRequestOf((name) => attributes.get(name) ?? null), {
    command: 'estimate', net: 'llama3_8b', device: 'H100_SXM', nodes: 2, devices_per_node: 8, precision: 'bf16',
    tp: 'smallest_that_fits', dp: 4, pp: 1, cp: 1, sequence_parallel: true, schedule: '1f1b', micro_batch: 1,
    global_batch: 64, attention: 'flash', zero: 1, train_tokens: 15600000001,
    price_per_gpu_hour: 2.5 });
  // A config that is not JSON is the page's SyntaxError (the element says so).
  assert.throws(() => transformerRequestOf((name) => (name === 'config' ? '{"hidden_size": ' : null)), SyntaxError);
  // A config from elsewhere (a child script, a URL) is the net; the config attribute overrides it.
  assert.deepEqual(transformerRequestOf(() => null, '{"transformer": {"layers": 2}}').net, { transformer: { layers: 2 } });
});

test('a transformer request field without an attribute is an error, never silently dropped', () => {
  assert.throws(() => transformerAttributesOf({ command: 'estimate', net: 'llama3_8b', kv_cache_dtype: 'fp8' }),
    /no attribute for "kv_cache_dtype"/);
  assert.throws(() => transformerAttributesOf({ command: 'estimate', net: 'llama3_8b', precision: { compute: 'bf16' } }),
    /precision/);
});

// A serving element (task="serve"): the page's `inference` request through the attributes and
// back, with the page's own builder.
const servingRoundTrip = (request) => {
  const attributes = new Map(servingAttributesOf(request));
  assert.equal(attributes.get('task'), 'serve');
  return servingRequestOf((name) => attributes.get(name) ?? null);
};

test('a serving request survives the snippet: defaults, a request rate, FP8 KV, speculative decoding, eager engines', () => {
  const llama = { ...DEFAULTS, net: 'llama3_70b', tp: 8, t_task: 'serve' };
  const scenarios = [
    llama,
    { ...llama, t_nodes: 2, pp: 2, prompt_len: 4096, generate_len: 512, s_concurrency: 64, kv_cache_dtype: 'fp8',
      precision: 'fp8', t_cluster: 'dgx_h100_ndr', t_software_era: 'megatron_core_hopper_2024' },
    { ...llama, s_load: 'request_rate', s_request_rate: 2.5 },
    { ...llama, draft_tokens: 4, acceptance_rate: 0.6 },
    { ...llama, s_cuda_graphs: false, s_mixed_steps: false },
    { ...llama, net: 'llama3_8b', config: '{"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, ' +
      '"num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256}' },
  ];
  for (const state of scenarios) {
    const request = inferenceRequest(state);
    assert.deepEqual(servingRoundTrip(request), request);
  }
});

test('serving attributes written by hand: the page\'s serving defaults, then each attribute', () => {
  const attributes = new Map([['task', 'serve'], ['net', 'llama3_8b'], ['device', 'H100_SXM'], ['nodes', '1'],
    ['per-node', '8'], ['precision', 'bf16'], ['tp', '2']]);
  const get = (name) => attributes.get(name) ?? null;
  assert.deepEqual(servingRequestOf(get), { command: 'inference', net: 'llama3_8b', device: 'H100_SXM', nodes: 1,
    devices_per_node: 8, precision: 'bf16', tp: 2, prompt_len: 2048, generate_len: 256, concurrency: 32 });
  for (const [name, value] of [['request-rate', '3'], ['cuda-graphs', 'false'], ['draft-tokens', '3'], ['kv-cache-dtype', 'fp8']]) {
    attributes.set(name, value);
  }
  const request = servingRequestOf(get);
  assert.equal(request.request_rate, 3);
  assert.equal(request.concurrency, undefined);
  assert.equal(request.cuda_graphs, false);
  assert.equal(request.mixed_steps, undefined);  // the core's default, today's engines
  assert.deepEqual(request.speculative, { draft_tokens: 3, acceptance_rate: 0.7 });
  assert.equal(request.kv_cache_dtype, 'fp8');
});
