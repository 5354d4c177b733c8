// Loaded first, on its own: a small classic script in the page's head (built as boot.js), so that
// the core starts before the browser first lays the page out: the estimate-only WebAssembly
// module compiles (streaming) in the background, the worker starts, and the first requests go out at once: the
// presets (for the inputs), then a CNN link's estimate, which waits in the core client's cache
// for the page's first update. The page's modules take the client and the link from
// window.paleoBoot (core.js).
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
window.paleoBoot = { core, firstPresets: core.call({ command: 'presets' }), linked };

linked.then(({ state }) => {
  if (state.config.trim()) return;
  try {
    core.call(requests(state).estimate, { key: 'estimate' }).catch(() => {});
  } catch {
    // a pasted spec that is not JSON: the first update shows the error
  }
});
