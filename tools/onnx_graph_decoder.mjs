// Decodes an ONNX model (protobuf bytes) into the small JSON graph the core maps to a Paleo net
// (docs/import.md, "ONNX"): nodes with op types, attributes and tensor names, initializer dims
// and graph input shapes. Weights are never copied: only the dims of initializers are kept, and
// the values of small integer tensors (Reshape targets, axes), which shape inference needs.
// Used by tools/onnx_to_graph.mjs; written to be bundled for the page as well. A file is read
// through onnxGraphOfFile, which skips the weights' bytes without reading them
// (onnx_weightless_bytes.mjs).
import onnxProto from 'onnx-proto';
import { onnxBytesWithoutWeights } from './onnx_weightless_bytes.mjs';

const { onnx } = onnxProto;
const kSmallTensorValues = 64;  // integer tensors up to this many values keep them

function toNumber(v) {
  // protobufjs gives int64 as Long objects (or numbers when they fit).
  return typeof v === 'number' ? v : v && typeof v.toNumber === 'function' ? v.toNumber() : Number(v);
}

function tensorSummary(t) {
  const dims = (t.dims || []).map(toNumber);
  const out = { dims, data_type: t.dataType };
  const count = dims.reduce((a, b) => a * b, 1);
  const isInteger = t.dataType === onnx.TensorProto.DataType.INT64 || t.dataType === onnx.TensorProto.DataType.INT32;
  if (isInteger && count <= kSmallTensorValues) {
    let values = [];
    if (t.int64Data && t.int64Data.length) values = t.int64Data.map(toNumber);
    else if (t.int32Data && t.int32Data.length) values = t.int32Data.map(toNumber);
    else if (t.rawData && t.rawData.length === count * (t.dataType === onnx.TensorProto.DataType.INT64 ? 8 : 4)) {
      const view = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
      for (let i = 0; i < count; ++i)
        values.push(t.dataType === onnx.TensorProto.DataType.INT64 ? Number(view.getBigInt64(8 * i, true)) : view.getInt32(4 * i, true));
    }
    if (values.length === count) out.values = values;
  }
  return out;
}

function attributeValue(a) {
  const T = onnx.AttributeProto.AttributeType;
  switch (a.type) {
    case T.INT: return toNumber(a.i);
    case T.FLOAT: return a.f;
    case T.STRING: return new TextDecoder().decode(a.s);
    case T.INTS: return a.ints.map(toNumber);
    case T.FLOATS: return Array.from(a.floats);
    case T.STRINGS: return a.strings.map((s) => new TextDecoder().decode(s));
    case T.TENSOR: return tensorSummary(a.t);
    default: return null;  // graphs, sparse tensors: not needed for pricing
  }
}

function shapeOf(valueInfo) {
  const tensor = valueInfo.type && valueInfo.type.tensorType;
  if (!tensor || !tensor.shape) return null;
  return tensor.shape.dim.map((d) => (d.dimValue != null && toNumber(d.dimValue) > 0 ? toNumber(d.dimValue) : d.dimParam || null));
}

// bytes: a Uint8Array of the .onnx file. Returns {"onnx_graph": {...}} for a request's `net`.
export function onnxGraph(bytes, fallbackName = 'onnx') {
  const model = onnx.ModelProto.decode(bytes);
  const g = model.graph;
  if (!g) throw new Error('the file holds no ONNX graph');
  const initializers = {};
  for (const t of g.initializer) initializers[t.name] = tensorSummary(t);
  const inputs = g.input.filter((i) => !(i.name in initializers)).map((i) => ({ name: i.name, shape: shapeOf(i) }));
  const valueShapes = {};
  for (const v of g.valueInfo) {
    const s = shapeOf(v);
    if (s) valueShapes[v.name] = s;
  }
  const nodes = g.node.map((n, i) => {
    const attributes = {};
    for (const a of n.attribute) attributes[a.name] = attributeValue(a);
    return { name: n.name || `${n.opType}_${i}`, op: n.opType, inputs: n.input, outputs: n.output, attributes };
  });
  return {
    onnx_graph: {
      name: g.name || fallbackName,
      opset: model.opsetImport.map((o) => ({ domain: o.domain || '', version: toNumber(o.version) })),
      inputs,
      outputs: g.output.map((o) => o.name),
      initializers,
      value_shapes: valueShapes,
      nodes,
    },
  };
}

// The graph of a file of `size` bytes read through `read(offset, length)` (a Promise of a
// Uint8Array): the large initializers' data is skipped, never read into memory.
export async function onnxGraphOfFile(read, size, fallbackName = 'onnx') {
  const { bytes } = await onnxBytesWithoutWeights(read, size);
  return onnxGraph(bytes, fallbackName);
}
