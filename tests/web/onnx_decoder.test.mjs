// The ONNX decoder (tools/onnx_graph_decoder.mjs) on the weight-stripped torchvision exports of
// tests/data/onnx/: each decodes to the graph file the C++ tests read (so those stay in step with
// the .onnx files), with no weights and the dims of every initializer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onnxGraph } from '../../tools/onnx_graph_decoder.mjs';
import { root } from './helpers.mjs';

const data = join(root, 'tests', 'data', 'onnx');

for (const model of ['resnet50', 'mobilenet_v2', 'vit_b_16']) {
  test(`${model}.onnx decodes to ${model}.graph.json`, () => {
    const decoded = onnxGraph(readFileSync(join(data, `${model}.onnx`)), model);
    const stored = JSON.parse(readFileSync(join(data, `${model}.graph.json`), 'utf8'));
    assert.deepEqual(decoded, stored);
    const g = decoded.onnx_graph;
    assert.deepEqual(g.inputs, [{ name: 'input', shape: [1, 3, 224, 224] }]);
    // Weights: dims only. Values only for small integer tensors (shape targets, axes).
    for (const [name, t] of Object.entries(g.initializers)) {
      assert.ok(Array.isArray(t.dims), name);
      if (t.values) assert.ok(t.values.length <= 64 && (t.data_type === 6 || t.data_type === 7), name);
    }
  });
}

test('the ViT-B/16 export holds its 12 attention blocks: 24 MatMul of two activations, 12 Softmax, 12 Erf', () => {
  const g = onnxGraph(readFileSync(join(data, 'vit_b_16.onnx')), 'vit_b_16').onnx_graph;
  const count = (op) => g.nodes.filter((n) => n.op === op).length;
  const weights = new Set(Object.keys(g.initializers));
  const activationProducts = g.nodes.filter((n) => n.op === 'MatMul' && !n.inputs.some((i) => weights.has(i))).length;
  assert.equal(activationProducts, 24);
  assert.equal(count('Softmax'), 12);
  assert.equal(count('Erf'), 12);
});

test('not an ONNX model: an error, no graph', () => {
  assert.throws(() => onnxGraph(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x01]), 'x'));
});
