// The input shape of an imported ONNX graph whose sizes the file leaves symbolic (a dynamic-axes
// export names its height and width instead of giving them): the spec box's "Input shape" field,
// sent beside the graph as `input_shape` (docs/import.md), as the CLI's --input_shape does. The
// core checks it; its errors, and its "no known size" error for the graph's input, show beside
// the field.
export const INPUT_SHAPE_FIELDS = new Set(['net.input_shape', 'net.onnx_graph.inputs']);

// "1, 3, 224, 224" or "1 3 224 224" as a list; what is not a number goes as null, for the core to
// name (never dropped, which would change the rank).
export function parseInputShape(text) {
  return String(text).split(/[\s,]+/).filter(Boolean).map((s) => {
    const n = Number(s);
    return Number.isFinite(n) ? n : null;
  });
}

// The request's net with the field's shape beside an ONNX graph; any other net as it is (the
// field applies to ONNX graphs only, as --input_shape does).
export function withInputShape(net, text) {
  if (!String(text).trim() || net === null || typeof net !== 'object' || net.onnx_graph === undefined) return net;
  return { ...net, input_shape: parseInputShape(text) };
}
