// The page's service worker (dist/sw.js; registered by offline.js): the page keeps working offline
// after a visit, and a later visit starts from this build's copy of its files. When the worker
// installs it caches every file the first view needs (that view's own loads came before the
// worker), revalidated with the server so the copy is this build's; anything else the page asks
// for under the worker (the full module, the validation cases, the importers) is fetched once and
// kept, so a section opened once online also opens offline. A new build has a new sw.js (the
// cache's name is a hash of every file of the build: web/build.mjs defines PALEO_CACHE and
// PALEO_FIRST_FILES); the browser installs it on a later visit, and it drops the older copy when
// it takes over.
const CACHE = PALEO_CACHE;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(PALEO_FIRST_FILES.map((file) => new Request(file, { cache: 'no-cache' }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith('paleo-') && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// This build's copy first; else the network, whose answer is kept; offline, a navigation gets the
// page itself (its link is in the hash).
async function answer(event, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') event.waitUntil(cache.put(request, response.clone()));
    return response;
  } catch {
    return (request.mode === 'navigate' ? await cache.match('index.html') : undefined) ?? Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(answer(event, request));
});
