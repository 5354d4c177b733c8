// Loaded first, on its own: a small classic script in the page's head (built as boot.js), so that
// the core starts before the browser first lays the page out: the estimate-only WebAssembly
// module compiles (streaming) in the background, the worker starts, and the first requests go out
// at once. A CNN link's estimate goes first (without its per-layer table: the page opens with the
// table closed): the page paints its headline from it (main.js) while the core answers the presets
// and the schema the inputs are built from; a cold core takes longer over the presets (about
// 100 ms) than over the estimate. The page's modules take the client, the link and these first
// answers from window.paleoBoot (core.js); the estimate also waits in the core client's cache for
// the page's first update.
import { CoreClient } from './core_client.js';
import { readLink, requests } from './state.js';

// The estimate-only module starts now; the full one loads when a request needs it (core_client.js).
const files = (worker, wasm) => ({ module: new URL(`./${worker}.js`, import.meta.url),
  classic: new URL(`./${worker}-classic.js`, import.meta.url), wasm: new URL(wasm, import.meta.url) });
const core = new CoreClient({ estimate: files('worker-estimate', './paleo-estimate.wasm'),
  full: files('worker', './paleo.wasm') });
window.paleoCore = core;  // for bench/browser_timing.mjs: the same workers, end to end

// The link is read once, here, in slices (a 1 MB link inflates to megabytes: state.js readLink),
// while the module compiles; the page's modules take it from window.paleoBoot.linked.
const linked = readLink(location.hash);
const first = linked.then(({ state }) => {
  let estimate = null;
  if (!state.config.trim()) {
    try {
      estimate = core.call(requests(state, { layers: false, paleo2017: false }).estimate, { key: 'estimate' });
    } catch {
      // a pasted spec that is not JSON: the first update shows the error
    }
  }
  return { estimate, presets: core.call({ command: 'presets' }), schema: core.call({ command: 'schema' }) };
});
window.paleoBoot = { core, linked,
  // null when there is none, or it failed (the first update asks again and shows why)
  firstEstimate: first.then(({ estimate }) => estimate).catch(() => null),
  firstPresets: first.then(({ presets }) => presets), firstSchema: first.then(({ schema }) => schema) };
