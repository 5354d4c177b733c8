// Browser budgets of the estimator page (reported, not asserted): bytes the page loads
// (gzipped), time to the first result after navigation, and the re-estimate time of inception_v3
// after an input change. Needs web/dist (npm run build). Usage: node bench/browser_timing.mjs [N]
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, dist } from '../tests/web/helpers.mjs';

const server = await serve(dist);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const loaded = new Set();
page.on('requestfinished', (r) => loaded.add(new URL(r.url()).pathname));

const start = Date.now();
await page.goto(server.url + '/#net=inception_v3');
await page.waitForSelector('body[data-ready=true]');
const firstResultMs = Date.now() - start;
// The page marks its first result and the frame after it (performance.mark), on the
// navigation's clock.
await page.waitForFunction(() => performance.getEntriesByName('paleo-first-result-painted').length > 0);
const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark')
  .map((m) => [m.name, m.startTime])));
const paintedMs = marks['paleo-first-result-painted'];

const files = [...loaded].map((path) => {
  const body = readFileSync(join(dist, path === '/' ? 'index.html' : path));
  return { path, raw: body.length, gzip: gzipSync(body).length };
}).sort((a, b) => b.gzip - a.gzip);
const gzipBytes = files.reduce((sum, f) => sum + f.gzip, 0);

// Re-estimate after each batch change: the page times its own update (core calls and
// rendering), after the 60 ms input debounce. N from the command line (default 15).
const runs = Number(process.argv[2]) || 15;
const samples = [];
for (let i = 0; i < runs; ++i) {
  const before = await page.evaluate(() => Number(document.body.dataset.updates));
  await page.fill('#batch_size', String(16 + i));
  await page.waitForFunction((n) => Number(document.body.dataset.updates) > n, before);
  samples.push(await page.evaluate(() => window.paleoLastUpdateMs));
}
samples.sort((a, b) => a - b);
const median = samples[Math.floor(samples.length / 2)];

// The WebAssembly core itself, in the page: the layer-wise search and the cluster sweep.
const core = await page.evaluate(async () => {
  const paleo = await (await import('./paleo.js')).default();
  const call = (r) => JSON.parse(paleo.handle(JSON.stringify(r)));
  const search = {};
  for (const net of ['alex_v2', 'vgg16', 'inception_v3']) {
    for (const devices of [4, 16, 64]) {
      const request = { command: 'search', net, devices, devices_per_node: 4, batch_size: 32 };
      call(request);  // warm
      const t0 = performance.now();
      call(request);
      search[`${net}/${devices}`] = performance.now() - t0;
    }
  }
  // Every (nodes, devices per node, bucket) up to 1024 devices for inception_v3; each estimate
  // prices eight all-reduce algorithms.
  let configurations = 0;
  const t0 = performance.now();
  for (const perNode of [1, 2, 4, 8])
    for (let nodes = 1; nodes * perNode <= 1024; nodes *= 2)
      for (const bucket of [1e6, 25 * 1024 * 1024, 1e8, 1e12]) {
        const r = call({ command: 'estimate', net: 'inception_v3', batch_size: 32, bucket_bytes: bucket,
          cluster: { nodes, devices_per_node: perNode, intra: 'nvlink2_v100', inter: 'infiniband_edr' } });
        configurations += r.cluster.collectives.length;
      }
  const sweepMs = performance.now() - t0;
  // The transformer planner: GPT-3 175B on 1024 A100 80 GB, global batch 1536, sequence 2048.
  const plan = { command: 'plan', net: 'gpt3_175b', device: 'A100_80GB_SXM', devices: 1024, devices_per_node: 8,
                 global_batch: 1536, seq_len: 2048, precision: 'bf16' };
  const planSamples = [];
  for (let i = 0; i < 5; ++i) {
    const t1 = performance.now();
    call(plan);
    planSamples.push(performance.now() - t1);
  }
  planSamples.sort((a, b) => a - b);
  const llama = { command: 'estimate', net: 'llama3_8b', device: 'H100_SXM', nodes: 1, devices_per_node: 8,
                  tp: 8, global_batch: 64, seq_len: 8192, recompute: 'selective' };
  call(llama);
  const t2 = performance.now();
  call(llama);
  const estimateMs = performance.now() - t2;
  return { search, configurations, sweepMs, planMs: planSamples[2], estimateMs };
});

console.log('what the page loads (gzip -6)             raw KB    gzipped KB');
for (const f of files) {
  console.log(`  ${f.path.padEnd(36)} ${(f.raw / 1024).toFixed(1).padStart(8)} ${(f.gzip / 1024).toFixed(1).padStart(12)}`);
}
console.log('');
console.log('budget                                   measured      target');
console.log(`everything the page loads, gzipped      ${(gzipBytes / 1024).toFixed(0).padStart(6)} KB     <= 600 KB`);
console.log(`first result on screen after navigation ${paintedMs.toFixed(0).padStart(6)} ms     <= 1000 ms (inception_v3; ` +
  `module ready ${marks['paleo-module-ready'].toFixed(0)} ms; seen by the test driver ${firstResultMs} ms)`);
console.log(`re-estimate of inception_v3 (median)    ${median.toFixed(1).padStart(6)} ms     <= 30 ms (core and rendering, median of ${runs})`);
console.log('\nlayer-wise search in the browser (ms; each search also prices its 1..D devices scaling)');
for (const [key, value] of Object.entries(core.search)) console.log(`  ${key.padEnd(20)} ${value.toFixed(1).padStart(8)}`);
console.log(`\ncluster sweep in the browser: ${core.configurations} configurations in ${core.sweepMs.toFixed(0)} ms ` +
  `(${(core.configurations / core.sweepMs * 1e3).toFixed(0)} configurations/s, through the JSON API)`);
console.log(`\ntransformer planner in the browser (GPT-3 175B, 1024 A100, median of 5): ${core.planMs.toFixed(0)} ms ` +
  '(target < 1000 ms)');
console.log(`transformer estimate in the browser (Llama 3 8B, 8 H100): ${core.estimateMs.toFixed(1)} ms`);
await browser.close();
await server.close();
