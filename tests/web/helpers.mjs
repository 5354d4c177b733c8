// Shared by the browser tests: a static server on 127.0.0.1, headless Chromium, the native CLI.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = join(root, 'web', 'dist');
export const cli = join(root, 'build', 'native', 'paleo');
export const singleFileModule = join(root, 'build', 'wasm', 'wasm', 'paleo-single.js');

// The tests compare the WebAssembly module with the native CLI: both must be built.
for (const [path, how] of [[cli, 'scripts/build.sh native'], [singleFileModule, 'scripts/build.sh wasm'],
  [join(dist, 'index.html'), 'npm run build']]) {
  if (!existsSync(path)) throw new Error(`missing ${path.slice(root.length + 1)}: run ${how} first`);
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json' };

// The Content-Security-Policy the page's meta tag sets, as docs/web.md gives it for servers (a
// header can add what a meta tag cannot: frame-ancestors).
export const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; " +
  "style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; object-src 'none'";

// Serves `directory`; extra maps a path to a body (for test pages); headers go with every response.
export async function serve(directory, extra = {}, headers = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    try {
      if (extra[path]) {
        res.writeHead(200, { 'content-type': 'text/html', ...headers });
        res.end(extra[path]);
        return;
      }
      const file = normalize(join(directory, path === '/' ? 'index.html' : path));
      if (!file.startsWith(directory)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

export async function launch() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // Playwright starts every browser with a fresh temporary profile.
  });
}

// Every request any page made, for the "nothing leaves localhost" check.
export const requested = [];

// A fresh page (its own browser context) that records requests, dialogs and page errors. Without
// the page's service worker unless `options` allow it (offline.test.mjs): a request the worker
// makes for the page is neither seen nor routed by the page's handlers.
export async function newPage(browser, options = {}) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block', ...options });
  page.setDefaultTimeout(10000);
  page.dialogs = [];
  page.errors = [];
  page.on('request', (r) => requested.push(r.url()));
  page.on('dialog', async (d) => { page.dialogs.push(d.message()); await d.dismiss(); });
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

// Opens the per-layer table (closed on load: the page then asks the core for its rows, web/src/main.js)
// and waits until it shows the rows of the result on screen.
export async function openLayers(page) {
  if (!await page.locator('#layers-box').evaluate((details) => details.open)) await page.click('#layers-box > summary');
  await page.waitForSelector('#layers-section[data-state=shown]');
}

// Runs `action` and waits for the page's next re-estimate (it counts them in body[data-updates]).
export async function afterUpdate(page, action) {
  const before = Number(await page.evaluate(() => document.body.dataset.updates || 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.updates || 0) > n, before);
}

// The native CLI's answer to a request (docs/api.md).
export function cliApi(request) {
  return JSON.parse(execFileSync(cli, ['api'], { input: JSON.stringify(request), maxBuffer: 1 << 28 }).toString());
}

// Equal structure, and numbers equal to `relative` (relative difference).
export function assertClose(actual, expected, relative, path = '$') {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') throw new Error(`${path}: expected a number, got ${JSON.stringify(actual)}`);
    const scale = Math.max(Math.abs(expected), Math.abs(actual));
    if (scale > 0 && Math.abs(actual - expected) > relative * scale)
      throw new Error(`${path}: ${actual} != ${expected}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) throw new Error(`${path}: array length differs`);
    expected.forEach((v, i) => assertClose(actual[i], v, relative, `${path}[${i}]`));
    return;
  }
  if (expected && typeof expected === 'object') {
    const a = Object.keys(actual ?? {}).sort().join(','), e = Object.keys(expected).sort().join(',');
    if (a !== e) throw new Error(`${path}: keys differ: ${a} vs ${e}`);
    for (const k of Object.keys(expected)) assertClose(actual[k], expected[k], relative, `${path}.${k}`);
    return;
  }
  if (actual !== expected) throw new Error(`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
}

// A lean answer (a request's "sections", docs/api.md) against the full one: exactly the header,
// the warnings and the members named that the full answer has, each equal to the full answer's.
export function assertLean(lean, full, sections, relative) {
  const header = ['ok', 'command', 'kind', 'warnings'];
  const expected = Object.keys(full).filter((key) => header.includes(key) || sections.includes(key));
  assert.deepEqual(Object.keys(lean).sort(), expected.sort());
  for (const key of expected) assertClose(lean[key], full[key], relative, '$.' + key);
}

// axe-core (npm axe-core), evaluated in the page through the DevTools protocol (the page's
// Content-Security-Policy allows no injected script tag): the WCAG 2 A and AA rules on the page as
// it is now. Throws, listing each violation and its first elements, unless there is none.
const axeSource = await readFile(join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
export async function assertNoAxeViolations(page, state) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help}; ` +
      v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
  });
  if (violations.length) throw new Error(`axe, ${state}: ${violations.length} violations:\n` + violations.join('\n'));
}

// The state parameters of a page URL, whether its hash is compressed ("#z=", raw deflate in
// base64url, web/src/state.js) or plain (links made before compression); decoded with Node's
// zlib, independently of the page's own fflate.
export function urlStateParams(url) {
  const hash = new URL(url).hash.replace(/^#/, '');
  const text = hash.startsWith('z=') ? inflateRawSync(Buffer.from(hash.slice(2), 'base64url')).toString() : hash;
  return new URLSearchParams(text);
}

// The page served from web/dist and a headless Chromium, started before a test file's tests and
// closed after them: `const session = pageSession();` then `session.server`, `session.browser`,
// and `session.open(hash)`: a new page at that hash, once the page says it is ready.
export function pageSession() {
  const session = {
    async open(hash = '', options = {}) {
      const page = await newPage(session.browser, options);
      await page.goto(session.server.url + '/' + hash);
      await page.waitForSelector('body[data-ready=true]');
      return page;
    },
  };
  before(async () => {
    session.server = await serve(dist);
    session.browser = await launch();
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}

// A spec of `count` ReLU layers in a chain after an Input of `tensor`, each named with 24 random
// hex digits: no compression makes its link short.
export function reluChainLayers(count, tensor) {
  const layers = { data: { parents: [], type: 'Input', tensor } };
  let parent = 'data';
  for (let i = 0; i < count; ++i) {
    const name = randomBytes(12).toString('hex');
    layers[name] = { parents: [parent], type: 'ReLU' };
    parent = name;
  }
  return layers;
}
