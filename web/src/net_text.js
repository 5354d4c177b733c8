// The request's `net` for the text in the spec box: a Paleo spec or an imported net's document
// as JSON ({"onnx_graph": ...}, {"keras": ...}, {"prototxt": ...}), a Keras model.to_json()
// document (wrapped as {"keras": ...}), or a Caffe prototxt pasted as it is (wrapped as
// {"prototxt": ...}). The core converts and prices them all (docs/import.md); nothing is
// converted here. Throws a SyntaxError for text that is none of them.
const PROTOTXT = /^\s*(#.*\n\s*)*(name|input|input_dim|input_shape|layers?)\s*[:{]/;

export function netFromText(text) {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && PROTOTXT.test(trimmed)) return { prototxt: text };
  const doc = JSON.parse(text);
  const keras = doc && typeof doc === 'object' && 'config' in doc && (doc.class_name === 'Sequential' || doc.class_name === 'Functional');
  return keras ? { keras: doc } : doc;
}

// What the spec box holds, for the page's one-line description of the net.
export function netKind(text) {
  try {
    const net = netFromText(text);
    if (net.prototxt !== undefined) return 'Imported Caffe prototxt';
    if (net.onnx_graph !== undefined) return 'Imported ONNX graph';
    if (net.keras !== undefined) return 'Imported Keras model';
  } catch {
    // the estimate reports it
  }
  return 'Pasted spec';
}
