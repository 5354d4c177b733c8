// Browser budgets of the estimator page (reported, not asserted): bytes the page loads
// (gzipped), time to the first result after navigation, and the re-estimate time of inception_v3
// after an input change. Needs web/dist (npm run build). Usage: node bench/browser_timing.mjs
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
const navigationMs = await page.evaluate(() => {
  const [nav] = performance.getEntriesByType('navigation');
  return performance.now() - (nav ? nav.startTime : 0);
});

let gzipBytes = 0;
for (const path of loaded) gzipBytes += gzipSync(readFileSync(join(dist, path === '/' ? 'index.html' : path))).length;

// Re-estimate after each batch change: the page times its own update (core calls and
// rendering), after the 60 ms input debounce.
const samples = [];
for (let batch = 16; batch < 16 + 15; ++batch) {
  await page.fill('#batch_size', String(batch));
  await page.waitForFunction((b) => document.getElementById('net-info').textContent.includes(`batch ${b}`), batch);
  samples.push(await page.evaluate(() => window.paleoLastUpdateMs));
}
samples.sort((a, b) => a - b);
const median = samples[Math.floor(samples.length / 2)];

console.log('budget                                   measured      target');
console.log(`everything the page loads, gzipped      ${(gzipBytes / 1024).toFixed(0).padStart(6)} KB     <= 600 KB`);
console.log(`first result after navigation           ${String(firstResultMs).padStart(6)} ms     <= 1000 ms (in-page: ${navigationMs.toFixed(0)} ms)`);
console.log(`re-estimate of inception_v3 (median)    ${median.toFixed(1).padStart(6)} ms     <= 30 ms (core and rendering)`);
await browser.close();
await server.close();
