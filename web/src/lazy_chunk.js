// A chunk of the page's code, loaded when first asked for: `load` (an import()) runs on the first
// call and its promise is kept for the next ones, or dropped when it fails, so that the next call
// tries again.
export function lazyChunk(load) {
  let loading = null;
  return () => (loading ??= load().catch((e) => {
    loading = null;
    throw e;
  }));
}
