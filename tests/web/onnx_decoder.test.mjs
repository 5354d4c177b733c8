// The ONNX decoder (tools/onnx_graph_decoder.mjs) on the weight-stripped torchvision exports of
// tests/data/onnx/: each decodes to the graph file the C++ tests read (so those stay in step with
// the .onnx files), with no weights and the dims of every initializer; read in pieces, a model's
// weights are skipped without being read (tools/onnx_weightless_bytes.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { onnxGraph, onnxGraphOfFile } from '../../tools/onnx_graph_decoder.mjs';
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

// A reader of byte ranges of `bytes` that counts what it hands out.
function rangeReader(bytes) {
  const reader = { bytesRead: 0 };
  reader.read = async (offset, length) => {
    reader.bytesRead += length;
    return bytes.slice(offset, offset + length);
  };
  return reader;
}

for (const model of ['resnet50', 'mobilenet_v2', 'vit_b_16']) {
  test(`${model}.onnx read in pieces gives the same graph`, async () => {
    const bytes = readFileSync(join(data, `${model}.onnx`));
    const { read } = rangeReader(bytes);
    assert.deepEqual(await onnxGraphOfFile(read, bytes.length, model), onnxGraph(bytes, model));
  });
}

test('4 MiB of weights are skipped without being read; small integer tensors keep their values', async () => {
  const { onnx } = onnxProto;
  const dim = (n) => ({ dimValue: n });
  const model = onnx.ModelProto.encode({
    irVersion: 8, opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'fc',
      input: [{ name: 'x', type: { tensorType: { elemType: 1, shape: { dim: [dim(1), dim(1024)] } } } }],
      output: [{ name: 'z' }],
      initializer: [
        { name: 'W', dims: [1024, 1024], dataType: 1, rawData: new Uint8Array(4 << 20).fill(7) },
        { name: 'B', dims: [1024], dataType: 1, floatData: new Array(1024).fill(0.5) },
        { name: 'target', dims: [2], dataType: 7, int64Data: [1, -1] }],
      node: [{ name: 'fc', opType: 'MatMul', input: ['x', 'W'], output: ['y'] },
        { name: 'flat', opType: 'Reshape', input: ['y', 'target'], output: ['z'] }],
    },
  }).finish();
  const reader = rangeReader(model);
  const g = await onnxGraphOfFile(reader.read, model.length, 'fc');
  assert.deepEqual(g, onnxGraph(model, 'fc'));
  assert.deepEqual(g.onnx_graph.initializers.W, { dims: [1024, 1024], data_type: 1 });
  assert.deepEqual(g.onnx_graph.initializers.B, { dims: [1024], data_type: 1 });
  assert.deepEqual(g.onnx_graph.initializers.target, { dims: [2], data_type: 7, values: [1, -1] });
  assert.ok(model.length > 4 << 20);
  // At most one read window (16 KiB) per skipped tensor, plus the graph: far less than the weights.
  assert.ok(reader.bytesRead <= 3 * 16384, `${reader.bytesRead} of ${model.length} bytes read`);
  // A file cut short is an error, not a graph.
  await assert.rejects(onnxGraphOfFile(reader.read, model.length - 100, 'fc'), /truncated/);
});

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
