// Browser budgets of the estimator page (reported, not asserted): bytes the page loads (gzipped),
// the first result after navigation, the re-estimate after an input change, the layer-wise
// search and a cluster sweep through the page's core workers (end to end: request posted to the
// worker, core, response parsed back on the main thread), and the longest main-thread task seen
// meanwhile. Needs web/dist (npm run build). Usage: node bench/browser_timing.mjs [N]
import { gzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, dist } from '../tests/web/helpers.mjs';

const runs = Number(process.argv[2]) || 15;
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serve(dist);
const browser = await launch();

// Every main-thread task over 50 ms, from navigation on.
const observeLongTasks = () => {
  window.paleoLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.paleoLongTasks.push({ ms: Math.round(e.duration), during: window.paleoDuring });
  }).observe({ type: 'longtask', buffered: true });
};

// First result: a fresh page (own context, cold caches) per load, median of 5.
const loads = [];
let files = [];
let filesFirst = [];  // those requested before the first result was painted
for (let i = 0; i < 5; ++i) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const loaded = new Set();
  const requested = new Map();  // path -> when (ms since the epoch), the page's workers' too
  page.on('request', (r) => requested.set(new URL(r.url()).pathname, Date.now()));
  page.on('requestfinished', (r) => loaded.add(new URL(r.url()).pathname));
  const start = Date.now();
  await page.goto(server.url + '/#net=inception_v3');
  await page.waitForSelector('body[data-ready=true]');
  const seenMs = Date.now() - start;
  // The page marks its first result and the frame after it (performance.mark), on the
  // navigation's clock.
  await page.waitForFunction(() => performance.getEntriesByName('paleo-first-view').length > 0);
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark')
    .map((m) => [m.name, m.startTime])));
  loads.push({ painted: marks['paleo-first-result-painted'], view: marks['paleo-first-view'],
    ready: marks['paleo-module-ready'], seenMs });
  files = [...loaded];
  const firstPaintedAt = await page.evaluate(() => performance.timeOrigin) + marks['paleo-first-result-painted'];
  filesFirst = files.filter((path) => requested.get(path) <= firstPaintedAt);
  await page.close();
}
// A later visit: the page reloaded once its service worker keeps a copy of its files
// (web/src/offline_worker.js), median of 5.
const visits = [];
{
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'allow' });
  const page = await context.newPage();
  await page.goto(server.url + '/#net=inception_v3');
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  for (let i = 0; i < 5; ++i) {
    await page.reload();
    await page.waitForFunction(() => performance.getEntriesByName('paleo-first-view').length > 0);
    visits.push(await page.evaluate(() => performance.getEntriesByName('paleo-first-result-painted')[0].startTime));
  }
  await context.close();
}
const sizeOf = (path) => {
  const body = readFileSync(join(dist, path === '/' ? 'index.html' : path));
  return { path, raw: body.length, gzip: gzipSync(body).length };
};
const sizes = files.map(sizeOf).sort((a, b) => b.gzip - a.gzip);
const gzipBytes = sizes.reduce((sum, f) => sum + f.gzip, 0);
const firstGzipBytes = filesFirst.map(sizeOf).reduce((sum, f) => sum + f.gzip, 0);

const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
await page.addInitScript(observeLongTasks);
await page.goto(server.url + '/#net=inception_v3');
await page.waitForSelector('body[data-ready=true]');
await page.evaluate(() => { window.paleoLongTasks.length = 0; });

const during = (what) => page.evaluate((w) => { window.paleoDuring = w; }, what);
await during('re-estimate');
// Re-estimate after each batch change: the page times its own update (worker round trip, core
// and rendering), after the input's debounce.
const samples = [];
for (let i = 0; i < runs; ++i) {
  const before = await page.evaluate(() => Number(document.body.dataset.updates));
  await page.fill('#batch_size', String(16 + i));
  await page.waitForFunction((n) => Number(document.body.dataset.updates) > n, before);
  samples.push(await page.evaluate(() => window.paleoLastUpdateMs));
}
await during('cached re-estimate');
// An input the requests do not depend on (the price): answered from the cache.
const cached = [];
for (let i = 0; i < runs; ++i) {
  const before = await page.evaluate(() => Number(document.body.dataset.updates));
  await page.fill('#price', String(1 + i / 10));
  await page.waitForFunction((n) => Number(document.body.dataset.updates) > n, before);
  cached.push(await page.evaluate(() => window.paleoLastUpdateMs));
}

await during('validation cases');
// The validation cases, which the module leaves out: loaded (data/validation.js) and handed to the
// core when "How accurate is it?" opens, then the suite run.
const accuracyStart = Date.now();
await page.click('#accuracy > summary');
await page.waitForSelector('#accuracy-chart[data-points] canvas');
const accuracyMs = Date.now() - accuracyStart;
const casesLoadMs = await page.evaluate(() => Number(document.getElementById('accuracy').dataset.casesLoadMs));
await page.click('#accuracy > summary');

await during('page search');
// The layer-wise search switched on in the page: from the input to the table on screen.
const uiSearch = [];
for (let i = 0; i < 3; ++i) {
  await page.evaluate((b) => { location.hash = `#net=inception_v3&batch_size=${b}&search_on=1&search_devices=64&search_per_node=4`; },
    32 + i);
  await page.waitForSelector('#search-section[data-state=done]');
  uiSearch.push(await page.evaluate(() => Number(document.getElementById('search-section').dataset.ms)));
}

await during('core through the worker');
// The core through the page's workers (the slow lane), uncached.
const core = await page.evaluate(async () => {
  const client = window.paleoCore;
  const call = (r) => client.call(r, { lane: 'slow', cache: false });
  const search = {};
  for (const net of ['alex_v2', 'vgg16', 'inception_v3']) {
    for (const devices of [4, 16, 64]) {
      const request = { command: 'search', net, devices, devices_per_node: 4, batch_size: 32 };
      await call(request);  // warm
      const times = [];
      for (let i = 0; i < 3; ++i) {
        const t0 = performance.now();
        await call(request);
        times.push(performance.now() - t0);
      }
      search[`${net}/${devices}`] = times.sort((a, b) => a - b)[1];
    }
  }
  // Every (nodes, devices per node, bucket) up to 1024 devices for inception_v3: 152 estimates,
  // each pricing eight all-reduce algorithms; one batch job in the worker.
  const sweep = [];
  for (const perNode of [1, 2, 4, 8])
    for (let nodes = 1; nodes * perNode <= 1024; nodes *= 2)
      for (const bucket of [1e6, 25 * 1024 * 1024, 1e8, 1e12])
        sweep.push({ command: 'estimate', net: 'inception_v3', batch_size: 32, bucket_bytes: bucket,
          cluster: { nodes, devices_per_node: perNode, intra: 'nvlink2_v100', inter: 'infiniband_edr' } });
  const t0 = performance.now();
  const responses = await client.batch(sweep, { lane: 'slow' });
  const sweepMs = performance.now() - t0;
  const configurations = responses.reduce((n, r) => n + r.cluster.collectives.length, 0);
  // The same sweep asking for the cluster's step alone (the request's "sections"): no per-layer
  // table written, sent and parsed 152 times.
  const t1 = performance.now();
  const leanResponses = await client.batch(sweep.map((r) => ({ ...r, sections: ['cluster'] })), { lane: 'slow' });
  const leanSweepMs = performance.now() - t1;
  if (leanResponses.some((r, i) => r.cluster.step_ms !== responses[i].cluster.step_ms)) throw new Error('lean sweep differs');
  // The transformer planner: GPT-3 175B on 1024 A100 80 GB, global batch 1536, sequence 2048.
  const plan = { command: 'plan', net: 'gpt3_175b', device: 'A100_80GB_SXM', devices: 1024, devices_per_node: 8,
                 global_batch: 1536, seq_len: 2048, precision: 'bf16' };
  const planSamples = [];
  for (let i = 0; i < 5; ++i) {
    const t1 = performance.now();
    await call(plan);
    planSamples.push(performance.now() - t1);
  }
  planSamples.sort((a, b) => a - b);
  const llama = { command: 'estimate', net: 'llama3_8b', device: 'H100_SXM', nodes: 1, devices_per_node: 8,
                  tp: 8, global_batch: 64, seq_len: 8192, recompute: 'selective' };
  await call(llama);
  const t2 = performance.now();
  await call(llama);
  const estimateMs = performance.now() - t2;
  return { search, estimates: sweep.length, configurations, sweepMs, leanSweepMs, planMs: planSamples[2], estimateMs };
});
const longTasks = await page.evaluate(() => window.paleoLongTasks);

const loadMedian = (key) => median(loads.map((l) => l[key]));
console.log('what the page loads (gzip -6)             raw KB    gzipped KB');
for (const f of sizes) {
  const later = filesFirst.includes(f.path) ? '' : ' (after)';
  console.log(`  ${(f.path + later).padEnd(36)} ${(f.raw / 1024).toFixed(1).padStart(8)} ${(f.gzip / 1024).toFixed(1).padStart(12)}`);
}
// Loaded when a section needs it, never before the first result.
const onDemand = existsSync(join(dist, 'data')) ? readdirSync(join(dist, 'data')).map((name) => {
  const body = readFileSync(join(dist, 'data', name));
  return { path: '/data/' + name, raw: body.length, gzip: gzipSync(body).length };
}) : [];
for (const f of onDemand) {
  console.log(`  ${(f.path + ' (on demand)').padEnd(36)} ${(f.raw / 1024).toFixed(1).padStart(8)} ${(f.gzip / 1024).toFixed(1).padStart(12)}`);
}
console.log('');
console.log('figure                                   measured      target');
console.log(`loaded before the first result, gzipped ${(firstGzipBytes / 1024).toFixed(1).padStart(6)} KB     <= 350 KB ` +
  '(requested before the headline was painted)');
console.log(`everything the page loads, gzipped      ${(gzipBytes / 1024).toFixed(0).padStart(6)} KB     (by the first view: every ` +
  'section built; "(after)" above)');
console.log(`first result on screen after navigation ${loadMedian('painted').toFixed(0).padStart(6)} ms     <= 400 ms (inception_v3: ` +
  `the headline painted, median of ${loads.length} cold loads; presets from the core ${loadMedian('ready').toFixed(0)} ms; ` +
  `every section built ${loadMedian('view').toFixed(0)} ms; seen by the test driver ${loadMedian('seenMs')} ms)`);
console.log(`first result on a later visit           ${median(visits).toFixed(0).padStart(6)} ms     (the same link ` +
  'reloaded, the page\'s service worker serving its copy of the files)');
console.log(`re-estimate of inception_v3 (median)    ${median(samples).toFixed(1).padStart(6)} ms     <= 5 ms (worker, core and ` +
  `rendering, median of ${runs})`);
console.log(`  the same, an input no request uses    ${median(cached).toFixed(1).padStart(6)} ms     (price: from the cache)`);
console.log(`"How accurate is it?" opened             ${String(accuracyMs).padStart(6)} ms     (the cases loaded and handed ` +
  `to the core in ${casesLoadMs} ms, then the suite run and drawn)`);
console.log(`search inception_v3 / 64, page UI       ${median(uiSearch).toFixed(0).padStart(6)} ms     (search request to table on screen, median of 3)`);
console.log('\nlayer-wise search through the page\'s worker (ms, median of 3; each search also prices its 1..D devices scaling)');
for (const [key, value] of Object.entries(core.search)) console.log(`  ${key.padEnd(20)} ${value.toFixed(1).padStart(8)}`);
console.log(`\ncluster sweep through the worker: ${core.estimates} estimates (${core.configurations} configurations) in ` +
  `${core.sweepMs.toFixed(0)} ms (target <= 200 ms); asking for the cluster section only: ${core.leanSweepMs.toFixed(0)} ms`);
console.log(`\ntransformer planner through the worker (GPT-3 175B, 1024 A100, median of 5): ${core.planMs.toFixed(0)} ms`);
console.log(`transformer estimate through the worker (Llama 3 8B, 8 H100): ${core.estimateMs.toFixed(1)} ms`);
const longest = longTasks.reduce((m, t) => Math.max(m, t.ms), 0);
console.log(`\nmain-thread tasks over 50 ms (wall time) during the interactions above: ${longTasks.length}` +
  (longTasks.length ? ` (longest ${longest.toFixed(0)} ms): ${longTasks.map((t) => `${t.ms} ms in ${t.during}`).join(', ')}` : ''));
await browser.close();
await server.close();
