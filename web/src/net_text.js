// The request's `net` for the text in the spec box: a Paleo spec or an imported net's document
// as JSON ({"onnx_graph": ...}, {"keras": ...}, {"prototxt": ...}, a Keras model.to_json()
// document as it is), or a Caffe prototxt pasted as it is (wrapped as {"prototxt": ...}). The core
// tells them apart, converts and prices them all (docs/import.md); nothing is converted here.
// Throws a SyntaxError for text that is none of them.
const PROTOTXT = /^\s*(#.*\n\s*)*(name|input|input_dim|input_shape|layers?)\s*[:{]/;

export function netFromText(text) {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && PROTOTXT.test(trimmed)) return { prototxt: text };
  return JSON.parse(text);
}

// What the spec box holds, for the page's one-line description of the net.
export function netKind(text) {
  try {
    const net = netFromText(text);
    if (net.prototxt !== undefined) return 'Imported Caffe prototxt';
    if (net.onnx_graph !== undefined) return 'Imported ONNX graph';
    // Only the description: whether the core accepts the model is its answer.
    if (net.keras !== undefined || (net.class_name !== undefined && net.config !== undefined)) return 'Imported Keras model';
  } catch {
    // the estimate reports it
  }
  return 'Pasted spec';
}
