// The page starts on the estimate-only WebAssembly module and loads the full one when a section
// first needs it (core_client.js); the section says so meanwhile, with the module's size.

// The full module's size gzipped, in KB: web/build.mjs defines it (none when run another way).
const FULL_MODULE_KB = typeof PALEO_FULL_MODULE_KB !== 'undefined' ? PALEO_FULL_MODULE_KB : 0;

export const FULL_MODULE = `the full model${FULL_MODULE_KB ? ` (${FULL_MODULE_KB} KB)` : ''}`;

// For a section given no way to the full module (its default): it never waits.
export const noFullModule = () => ({ loading: false, loaded: Promise.resolve() });

// {loading, loaded}: whether `request` waits for the full module to load (false when it needs
// none or the module is in; it turns false once loaded, so a status line can read it as it
// ticks), and a promise that resolves when it may run. A load that fails resolves too: the
// request's own answer then says why.
export function fullModuleFor(core, request) {
  if (!core.needsFull(request) || core.fullLoaded) return { loading: false, loaded: Promise.resolve() };
  const full = { loading: true };
  full.loaded = core.loadFull().then(() => {}, () => {}).then(() => { full.loading = false; });
  return full;
}
