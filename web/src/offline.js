// Offline after the first visit: the page's service worker (offline_worker.js, built as sw.js),
// registered once the first view is built. Over http(s) only: a page opened from disk has no
// service worker, and needs none.
export function keepOffline() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register('./sw.js').catch(() => {});  // a page that cannot keep a copy still works online
}
