// Which of the page's two WebAssembly modules answers a request. The estimate-only module
// (build/wasm-estimate: core/api/estimate_only/command_table.cpp, docs/web.md "Two modules")
// answers the estimate path with the same core code as the full module (build/wasm), so both give
// one answer; it carries no other command and reads no imported net (core/import/estimate_only/).
// The page starts on it and loads the full module when a request needs it.

// core/api/estimate_path_commands.cpp: the commands of both command tables.
const ESTIMATE_PATH_COMMANDS = new Set(['estimate', 'layers', 'summary', 'inference', 'presets', 'version', 'schema']);

// A `net` that is, or looks like, an imported net (core/import/net_import_form.cpp: {"prototxt"},
// {"onnx_graph"}, {"keras"}, a Keras model.to_json() document). Erring towards the full module
// costs nothing but its load: it answers whatever the estimate-only module answers, the same.
function mayBeImported(net) {
  if (net === null || typeof net !== 'object') return false;
  return 'prototxt' in net || 'onnx_graph' in net || 'keras' in net || ('class_name' in net && 'config' in net);
}

export const needsFullModule = (request) => !ESTIMATE_PATH_COMMANDS.has(request.command) || mayBeImported(request.net);
