// The page on a 1 MB "#z=" link (reported, not asserted; docs/performance.md): the longest
// main-thread task while the page loads it, for a link whose parameters inflate to about 3.3 MB
// (a spec of random layer names, which deflate hardly shrinks) and for one that would inflate
// far past the request limit (a deflate bomb, stopped at 8 MiB); then the longest task while a
// batch size is typed. Needs web/dist (npm run build).
// Usage: node bench/link_timing.mjs
import { deflateSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { serve, launch, dist } from '../tests/web/helpers.mjs';

const server = await serve(dist);
const browser = await launch();

const observeLongTasks = () => {
  window.paleoLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.paleoLongTasks.push(Math.round(e.duration));
  }).observe({ type: 'longtask', buffered: true });
};

function link(params) {
  const bytes = typeof params === 'string' ? new TextEncoder().encode(params) : params;
  return '#z=' + Buffer.from(deflateSync(bytes, { level: 9 })).toString('base64url');
}

// "spec=" and 768 MiB of one byte: deflated to about 0.75 MB, base64 about 1 MB.
function bombLink() {
  const bytes = new Uint8Array(768 * 1024 * 1024).fill(120);
  bytes.set(new TextEncoder().encode('spec='));
  return link(bytes);
}

// A spec of layers whose names are random: about 1 MB once deflated and base64-encoded.
function bigSpecLink() {
  const layers = [];
  let hash = '';
  for (let i = 0; hash.length < 1024 * 1024; i += 200) {
    for (let j = 0; j < 200; ++j)
      layers.push({ name: randomBytes(12).toString('hex'), type: 'ReLU', parents: layers.length ? [layers.at(-1).name] : [] });
    hash = link('spec=' + encodeURIComponent(JSON.stringify({ name: 'big', layers })));
  }
  return hash;
}

const cases = {
  'spec of random layer names': bigSpecLink(),
  'deflate bomb (stops at 8 MiB)': bombLink(),
};
console.log('link                               link KB   longest task ms   tasks over 50 ms   load ms   typing: longest ms');
for (const [what, hash] of Object.entries(cases)) {
  const page = await browser.newPage();
  await page.addInitScript(observeLongTasks);
  const start = Date.now();
  await page.goto(server.url + '/' + hash);
  // Ready, or showing why not (a spec past the layer limit is refused beside its input).
  await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.querySelector('.error, [role=alert]'),
    null, { timeout: 60000 }).catch(() => {});
  await page.waitForTimeout(2000);
  const loadMs = Date.now() - start;
  const tasks = await page.evaluate(() => window.paleoLongTasks.splice(0));
  const longest = tasks.reduce((m, t) => Math.max(m, t), 0);
  // Then a batch size typed with the link's state loaded: the page re-estimates and rewrites the link.
  await page.fill('#batch_size', '16');
  await page.waitForTimeout(2000);
  const typing = (await page.evaluate(() => window.paleoLongTasks)).reduce((m, t) => Math.max(m, t), 0);
  console.log(`${what.padEnd(34)} ${(hash.length / 1024).toFixed(0).padStart(7)} ${String(longest).padStart(17)} ` +
    `${String(tasks.length).padStart(18)} ${String(loadMs).padStart(9)} ${String(typing).padStart(20)}`);
  await page.close();
}
await browser.close();
server.close();
