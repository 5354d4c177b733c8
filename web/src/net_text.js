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

// The imported form the spec box holds ('Caffe prototxt', 'ONNX graph', 'Keras model'), or null
// for a Paleo spec (or text the estimate will report). Only a description: whether the core
// accepts the model is its answer.
export function importedForm(text) {
  try {
    const net = netFromText(text);
    if (net.prototxt !== undefined) return 'Caffe prototxt';
    if (net.onnx_graph !== undefined) return 'ONNX graph';
    if (net.keras !== undefined || (net.class_name !== undefined && net.config !== undefined)) return 'Keras model';
  } catch {
    // the estimate reports it
  }
  return null;
}

// What the spec box holds, for the page's one-line description of the net.
export function netKind(text) {
  const form = importedForm(text);
  return form ? 'Imported ' + form : 'Pasted spec';
}
