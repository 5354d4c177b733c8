// paleo-estimator: Paleo's analytical performance model of deep-learning training, as an ES module.
// Every function sends one request document of docs/api.md to the WebAssembly core (the same core
// as the `paleo` CLI and the estimator page) and resolves to its response document.
import createPaleo from './core.js';

// The module's instance, loaded once; a load that fails (the .wasm not fetched) is forgotten, so the
// next call tries again rather than getting the same rejection forever.
let instance = null;
const load = () => (instance ??= createPaleo().catch((e) => {
  instance = null;
  throw e;
}));

// The validation cases are not built into the module (they are most of its presets and only
// 'validate' reads them): loaded with the first 'validate', and handed to each instance once.
const withCases = new WeakSet();
async function addLeftOutPresets(paleo) {
  if (withCases.has(paleo)) return;
  const { default: files } = await import('./presets_left_out.js');
  for (const [path, text] of Object.entries(files)) paleo.addPresetFile(path, text);
  withCases.add(paleo);
}

// The response to any request document; anything the module throws (a request nested too deep for
// its stack) is an error response, and the next call gets a fresh instance.
export async function request(document) {
  const paleo = await load();
  if (document && document.command === 'validate') await addLeftOutPresets(paleo);
  try {
    return JSON.parse(paleo.handle(JSON.stringify(document)));
  } catch (e) {
    instance = null;
    return { ok: false, error: { message: String((e && e.message) || e), layer: '', field: '' } };
  }
}

// A training step's estimate: per-layer passes, totals, and the scaling simulation, cluster step
// or pipeline the request asks for.
export const estimate = (req = {}) => request({ ...req, command: 'estimate' });

// The layer-wise parallel strategy of a net on a cluster (docs/layerwise.md).
export const search = (req = {}) => request({ ...req, command: 'search' });

// The built-in nets, devices, interconnects, software, clusters and scenarios.
export const presets = () => request({ command: 'presets' });

// The core's API version (the package's version is the same).
export const version = () => request({ command: 'version' }).then((r) => r.version);
