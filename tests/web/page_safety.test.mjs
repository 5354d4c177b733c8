// The page and the embed element under hostile input, in headless Chromium: markup and script in
// every place that shows user text (the URL hash, pasted and uploaded specs and configs, preset
// and layer names, the embed snippet, the <paleo-estimate> element's attributes) stay text and run
// nothing; the Content-Security-Policy is set and enforced, and the page works under it (meta tag
// and header); a request nested too deep for the module shows an error, not a dead page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, dist, root, newPage, afterUpdate, cliApi, assertClose, CSP, openLayers } from './helpers.mjs';

// Each tries to run window.__pwned() or to put an element marked data-xss into the page.
const PAYLOADS = [
  '<script data-xss>__pwned(1)</script>',
  '<img data-xss src=x onerror=__pwned(2)>',
  '"><img data-xss src=x onerror=__pwned(3)>',
  "'><svg data-xss onload=__pwned(4)>",
  '<svg><script data-xss>__pwned(5)</script></svg>',
  '<iframe data-xss srcdoc="<script>parent.__pwned(6)</script>"></iframe>',
  '<a data-xss href="javascript:__pwned(7)">link</a>',
  'javascript:__pwned(8)',
  '<details data-xss open ontoggle=__pwned(9)>',
  '<body data-xss onload=__pwned(10)>',
  '<math><mtext><table><mglyph><style><img data-xss src=x onerror=__pwned(11)>',
  '</textarea><img data-xss src=x onerror=__pwned(12)>',
  '</title><script data-xss>__pwned(13)</script>',
  '<input data-xss autofocus onfocus=__pwned(14)>',
  '<video data-xss><source onerror=__pwned(15)></video>',
  '<object data-xss data="javascript:__pwned(16)"></object>',
  '<embed data-xss src="javascript:__pwned(17)">',
  '<base data-xss href="http://example.invalid/">',
  '<meta data-xss http-equiv="refresh" content="0;url=javascript:__pwned(19)">',
  '" onmouseover="__pwned(20)" data-xss="',
  "' onfocus='__pwned(21)' autofocus data-xss='",
  '<style data-xss>@import "http://example.invalid/x.css";</style>',
  '<link data-xss rel=stylesheet href="http://example.invalid/x.css">',
  '${__pwned(24)}',
  "{{constructor.constructor('__pwned(25)')()}}",
  '<noscript><p title="</noscript><img data-xss src=x onerror=__pwned(26)>">',
  '<form data-xss action="javascript:__pwned(27)"><button>go</button></form>',
  '<marquee data-xss onstart=__pwned(28)>',
  '&lt;img data-xss src=x onerror=__pwned(29)&gt;',
  '\u2028<img data-xss src=x onerror=__pwned(30)>\u2029',
];

let server, headerServer, browser;

before(async () => {
  server = await serve(dist);
  headerServer = await serve(dist, {}, { 'content-security-policy': CSP + "; frame-ancestors 'none'" });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await headerServer?.close();
});

// Before any script of the page: the hook the payloads call, policy violations, and a clipboard
// that keeps what the page copies.
function watch() {
  window.__pwnedCalls = [];
  window.__pwned = (m) => window.__pwnedCalls.push(String(m));
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  Object.defineProperty(navigator, 'clipboard', { configurable: true,
    value: { writeText: async (text) => { window.__copied = text; } } });
}

async function open(hash = '', from = server, ready = true) {
  const page = await newPage(browser);
  await page.addInitScript(watch);
  await page.goto(from.url + '/' + hash);
  if (ready) await page.waitForSelector('body[data-ready=true]');
  return page;
}

// Nothing was injected (in the document or any shadow root), nothing ran, nothing was blocked.
async function assertClean(page, where) {
  const seen = await page.evaluate(() => {
    const roots = [document, ...[...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => e.shadowRoot)];
    return { injected: roots.reduce((n, r) => n + r.querySelectorAll('[data-xss]').length, 0),
      scripts: [...document.scripts].map((s) => s.getAttribute('src')), pwned: window.__pwnedCalls,
      violations: window.__violations };
  });
  assert.equal(seen.injected, 0, `${where}: an element from the payload is in the page`);
  assert.deepEqual(seen.pwned, [], `${where}: a payload ran`);
  assert.deepEqual(seen.violations, [], `${where}: the policy had to block something`);
  // The site's own scripts only (data/validation.js: the validation cases, loaded with their section).
  assert.ok(seen.scripts.every((src) => ['boot.js', 'app.js', 'paleo-embed.js', 'data/validation.js'].includes(src)),
    `${where}: scripts ${seen.scripts}`);
  assert.deepEqual(page.dialogs, [], where);
  assert.deepEqual(page.errors, [], where);
}

// Whether the page shows `text` as text: in an element's text or as an input's value.
const showsText = (page, text) => page.evaluate((t) => document.body.textContent.includes(t) ||
  [...document.querySelectorAll('input, textarea')].some((e) => e.value === t), text);

const hashOf = (params) => '#' + new URLSearchParams(params).toString();
const setHash = (page, params) => afterUpdate(page, () => page.evaluate((h) => { location.hash = h; }, hashOf(params)));

test('hostile values in the URL hash show as text, in errors, inputs and the embed snippet', async () => {
  const page = await open();
  // The PALEO 2017 inputs open: the estimates then carry them, and the core checks them.
  await afterUpdate(page, () => page.click('#paleo2017-inputs summary'));
  // Keys the page reads from the hash, each given one payload in turn (with what switches it on);
  // the core's error quotes the value, or the input shows it, except where `shown` is false (the
  // core names only the field, or the page ignores a key it has no option for).
  const keys = [['device'], ['network'], ['software'], ['workers'], ['profile'], ['conv_algorithm'],
    ['optimizer', {}, false], ['cluster', { cluster_on: '1' }], ['collective', { cluster_on: '1' }],
    ['b_device', { compare_on: '1' }], ['b_software', { compare_on: '1' }], ['price_preset', {}, false], ['scaling'],
    ['parallel'], ['cd_name', { device: 'custom' }], ['calibration', {}, false]];
  for (const [i, payload] of PAYLOADS.entries()) {
    await setHash(page, { net: payload });
    assert.ok((await page.locator('#error').textContent()).includes(payload), `net=${payload}: not in the error`);
    await assertClean(page, `net=${payload}`);
    // The embed snippet of this state: one script, one element whose net is the payload, as text.
    await page.evaluate(() => { window.__copied = null; });
    await page.click('#copy-embed');
    await page.waitForFunction(() => window.__copied);
    const parsed = await page.evaluate(() => {
      const doc = new DOMParser().parseFromString('<!doctype html><body>' + window.__copied, 'text/html');
      return { scripts: doc.querySelectorAll('script').length, elements: doc.querySelectorAll('paleo-estimate').length,
        injected: doc.querySelectorAll('[data-xss]').length, all: doc.body.querySelectorAll('*').length,
        net: doc.querySelector('paleo-estimate')?.getAttribute('net') };
    });
    assert.deepEqual(parsed, { scripts: 1, elements: 1, injected: 0, all: 2, net: payload }, `snippet for net=${payload}`);

    const [key, extra = {}, shown = true] = keys[i % keys.length];
    await setHash(page, { ...extra, [key]: payload });
    if (shown) assert.ok(await showsText(page, payload), `${key}=${payload}: not shown as text`);
    await assertClean(page, `${key}=${payload}`);
  }
  await page.close();
});

// A spec whose net and layers are named by payloads: the input, then 1 x 1 poolings in a chain.
function hostileSpec(name, layerNames) {
  const layers = { data: { parents: [], type: 'Input', tensor: [4, 8, 8, 3] } };
  let parent = 'data';
  for (const layer of layerNames) {
    layers[layer] = { parents: [parent], type: 'Pooling', ksize: [1, 1, 1, 1], strides: [1, 1, 1, 1], padding: 'VALID' };
    parent = layer;
  }
  return { name, layers };
}

const layerNames = (page, table) => page.locator(`${table} tbody tr th`).allTextContents();

test('pasted and uploaded specs with hostile net and layer names show them as text: tables, errors, search', async () => {
  const page = await open();
  await openLayers(page);
  await page.click('#spec-box summary');
  // Every payload a layer of one net (but those with '@', which the core keeps for its own layer
  // names and rejects: their error is checked below): the layer table, then the search's table.
  const named = PAYLOADS.filter((p) => !p.includes('@'));
  const spec = hostileSpec(PAYLOADS[0], named);
  await afterUpdate(page, () => page.fill('#spec', JSON.stringify(spec)));
  assert.deepEqual(await layerNames(page, '#layers'), ['data', ...named]);
  assert.ok((await page.locator('#net-info').textContent()).includes(PAYLOADS[0]));
  await afterUpdate(page, () => page.check('#search_on'));
  await page.waitForSelector('#search-section[data-state=done]');
  assert.deepEqual(await layerNames(page, '#search-table'), ['data', ...named]);
  await assertClean(page, 'layers and search');
  await afterUpdate(page, () => page.uncheck('#search_on'));

  for (const payload of PAYLOADS) {
    const layer = named.includes(payload) ? payload : 'pool';
    await afterUpdate(page, () => page.fill('#spec', JSON.stringify(hostileSpec(payload, [layer]))));
    assert.ok((await page.locator('#net-info').textContent()).includes(payload), `net name ${payload}`);
    assert.deepEqual(await layerNames(page, '#layers'), ['data', layer]);
    // The same name in the core's error message, next to the spec.
    const broken = hostileSpec(payload, [payload]);
    broken.layers[payload].padding = 'WRONG';
    await afterUpdate(page, () => page.fill('#spec', JSON.stringify(broken)));
    // The core quotes a name back at most 64 bytes long (docs/api.md, "Limits").
    const quoted = new TextDecoder().decode(new TextEncoder().encode(payload).slice(0, 48));
    assert.ok((await page.locator('#spec-error').textContent()).includes(quoted.replace(/\uFFFD$/, '')), `error for ${payload}`);
    await assertClean(page, `spec ${payload}`);
  }
  // A spec file: its names reversed.
  const upload = hostileSpec(PAYLOADS[1], named.slice().reverse());
  await afterUpdate(page, () => page.setInputFiles('#spec-file', { name: 'spec.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(upload)) }));
  assert.deepEqual(await layerNames(page, '#layers'), ['data', ...named.slice().reverse()]);
  assert.ok((await page.locator('#net-info').textContent()).includes(PAYLOADS[1]));
  // The CSV export keeps the names as data (quoted, a leading = made text).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#layers-section button.csv')]);
  const csv = readFileSync(await download.path(), 'utf8');
  assert.ok(csv.includes('"""><img data-xss src=x onerror=__pwned(3)>"'), csv.slice(0, 400));
  await assertClean(page, 'uploaded spec');
  await page.close();
});

test('transformer configs (pasted and uploaded) with a hostile name show it as text', async () => {
  const page = await open();
  await page.click('#config-box summary');
  const config = (name) => ({ transformer: { name, layers: 2, hidden: 256, heads: 4, ffn_hidden: 1024, vocab: 1000,
    seq_len: 128 } });
  for (const payload of PAYLOADS) {
    await afterUpdate(page, () => page.fill('#config', JSON.stringify(config(payload))));
    await page.waitForFunction((p) => window.paleoResult?.transformer?.model?.name === p, payload);
    assert.ok((await page.locator('#net-info').textContent()).includes(payload), `config name ${payload}`);
    assert.ok((await page.locator('#context').textContent()).includes(payload), `context for ${payload}`);
    await assertClean(page, `config ${payload}`);
  }
  // A Hugging Face config.json whose _name_or_path is a payload, uploaded.
  const hf = JSON.parse(readFileSync(join(root, 'tests', 'data', 'hf', 'Meta-Llama-3-8B.config.json'), 'utf8'));
  hf._name_or_path = PAYLOADS[2];
  await afterUpdate(page, () => page.setInputFiles('#config-file', { name: 'config.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(hf)) }));
  await page.waitForFunction((p) => window.paleoResult?.transformer?.model?.name === p, PAYLOADS[2]);
  assert.ok((await page.locator('#net-info').textContent()).includes(PAYLOADS[2]));
  await assertClean(page, 'uploaded config');
  await page.close();
});

test('the <paleo-estimate> element shows hostile attribute values as text', async () => {
  const page = await open('embed-example.html', server, false);
  await page.waitForFunction(() => document.querySelector('paleo-estimate')?.result);
  // The core's error quotes the first four; the others are numbers or apply with workers only.
  const quoted = ['net', 'device', 'network', 'profile'];
  const attributes = [...quoted, 'scaling', 'parallel', 'workers', 'batch', 'ppp-comp', 'ppp-comm'];
  const outcomes = await page.evaluate(async ({ payloads, attributes }) => {
    const elements = payloads.map((payload, i) => {
      const element = document.createElement('paleo-estimate');
      const name = attributes[i % attributes.length];
      element.setAttribute(name, payload);
      if (name === 'scaling' || name === 'parallel') element.setAttribute('workers', '1,2');
      return element;
    });
    const settled = elements.map((element) => new Promise((resolve) => {
      element.addEventListener('paleo-error', (e) => resolve({ ok: false, message: e.detail }));
      element.addEventListener('paleo-result', () => resolve({ ok: true }));
    }));
    document.body.append(...elements);
    const results = await Promise.all(settled);
    return results.map((r, i) => ({ ...r, text: elements[i].shadowRoot.textContent }));
  }, { payloads: PAYLOADS, attributes });
  outcomes.forEach((outcome, i) => {
    assert.equal(outcome.ok, false, PAYLOADS[i]);
    if (quoted.includes(attributes[i % attributes.length])) {
      assert.ok(outcome.text.includes(PAYLOADS[i]), `element ${i}: ${outcome.text}`);
    }
  });
  await assertClean(page, 'paleo-estimate attributes');
  await page.close();
});

test('the Content-Security-Policy is set, forbids inline script, and is enforced', async () => {
  for (const file of ['index.html', 'embed-example.html']) {
    const html = readFileSync(join(dist, file), 'utf8');
    const meta = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
    assert.ok(meta, `${file}: no policy`);
    const directives = Object.fromEntries(meta[1].split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    assert.deepEqual(directives['default-src'], ["'none'"], file);
    assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"], file);
    assert.deepEqual(directives['style-src'], ["'self'"], file);
    assert.deepEqual(directives['object-src'], ["'none'"], file);
    assert.deepEqual(directives['base-uri'], ["'none'"], file);
    // Nothing inline for it to forbid: no script without src, no style attribute or element, no handler.
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, file);
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, file);
  }
  const page = await open();
  const blocked = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.append(script);
    // Code from a string, tried from a task of the page's own (not the test driver's call).
    const evaluated = await new Promise((resolve) => setTimeout(() => {
      try {
        resolve(new Function('return "ran"')());
      } catch (e) {
        resolve(e.name);
      }
    }, 0));
    await new Promise((r) => setTimeout(r, 50));
    return { ran: window.__inlineRan === true, evaluated, violations: window.__violations };
  });
  assert.equal(blocked.ran, false, 'an inline script ran');
  assert.equal(blocked.evaluated, 'EvalError');
  assert.ok(blocked.violations.some((v) => v.startsWith('script-src')), blocked.violations.join('; '));
  await page.close();
});

test('the page works under the policy sent as a header, search and all', async () => {
  const page = await open('#net=alex_v2&batch_size=32&search_on=1&search_devices=16&search_per_node=4', headerServer);
  await page.waitForSelector('#search-section[data-state=done]');
  const cli = cliApi({ command: 'estimate', net: 'alex_v2', device: 'TITAN_X', batch_size: 32, parallel: 'data',
    workers: [1, 2, 4, 8, 16, 32, 64, 128], scaling: ['weak'] });
  assertClose((await page.evaluate(() => window.paleoResult)).estimate.totals, cli.totals, 1e-12);
  await page.click('#accuracy summary');
  await page.waitForFunction(() => document.getElementById('accuracy').dataset.runs === '1');
  await assertClean(page, 'under the header');
  await page.close();
});

test('the embed example page renders the element, styled, under its policy', async () => {
  const page = await open('embed-example.html', server, false);
  await page.waitForFunction(() => document.querySelector('paleo-estimate')?.result);
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', interconnect: 'ethernet', batch_size: 64,
    ppp_comp: 0.62, ppp_comm: 0.72, workers: [1, 2, 4, 8], scaling: ['weak'], parallel: 'data' });
  const element = page.locator('paleo-estimate');
  assertClose(await element.evaluate((e) => e.result.totals), cli.totals, 1e-12);
  // The element's own style sheet applies (no <style> element for the policy to block).
  assert.equal(await element.evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('.title')).fontWeight), '600');
  assert.equal(await element.evaluate((e) => e.shadowRoot.querySelectorAll('style').length), 0);
  await assertClean(page, 'embed example');
  await page.close();
});

test('a request nested too deep shows an error next to the spec, and the page keeps working', async () => {
  const depth = 5000;
  const deep = '{"layers": ' + '['.repeat(depth) + ']'.repeat(depth) + '}';
  const page = await open(hashOf({ spec: deep }), server, false);
  await page.waitForFunction(() => Number(document.body.dataset.updates) >= 1);
  assert.equal(await page.locator('#spec-error').isVisible(), true);
  assert.ok((await page.locator('#spec-error').textContent()).length > 10);
  assert.doesNotMatch(await page.locator('#error').textContent(), /could not start/);
  // The core answers the next request as before.
  await setHash(page, { net: 'alex_v2' });
  await page.waitForSelector('body[data-ready=true]');
  const cli = cliApi({ command: 'estimate', net: 'alex_v2', device: 'TITAN_X', parallel: 'data',
    workers: [1, 2, 4, 8, 16, 32, 64, 128], scaling: ['weak'] });
  assertClose((await page.evaluate(() => window.paleoResult)).estimate.totals, cli.totals, 1e-12);
  // Deeper than the module's stack, straight to a worker of the page: an error response (the
  // RangeError caught, or the core's own limit), then a normal answer.
  const answers = await page.evaluate(async () => {
    const module = await WebAssembly.compileStreaming(fetch('paleo.wasm'));
    const worker = new Worker('worker.js', { type: 'module' });
    const reply = (message) => new Promise((resolve) => {
      worker.onmessage = ({ data }) => { if (data.type === 'result') resolve(JSON.parse(data.json)); };
      worker.postMessage(message);
    });
    worker.postMessage({ type: 'init', module });
    const depth = 100000;
    const json = '{"command": "estimate", "net": {"layers": ' + '['.repeat(depth) + ']'.repeat(depth) + '}}';
    const bad = await reply({ type: 'call', id: 1, json });
    const good = await reply({ type: 'call', id: 2, json: '{"command": "version"}' });
    worker.terminate();
    return { bad: bad.ok, message: bad.error?.message, good: good.ok };
  });
  assert.equal(answers.bad, false);
  assert.ok(answers.message.length > 0);
  assert.equal(answers.good, true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a link that inflates past the request limit shows an error beside "Copy link" and the defaults', async () => {
  const { deflateSync } = await import('fflate');
  // 64 MiB of parameters deflate to about 64 KB: inflating stops at 8 MiB.
  const bomb = deflateSync(new TextEncoder().encode('spec=' + 'x'.repeat(64 * 1024 * 1024)), { level: 9 });
  const page = await open('#z=' + Buffer.from(bomb).toString('base64url'));
  assert.equal(await page.locator('#link-error').isVisible(), true);
  assert.match(await page.locator('#link-error').textContent(), /more than 8 MiB \(the request limit\)/);
  assert.equal(await page.locator('#net').inputValue(), 'resnet50_v1_5');
  assert.equal(await page.locator('#spec').inputValue(), '');
  // A good link afterwards clears it.
  await setHash(page, { net: 'alex_v2' });
  assert.equal(await page.locator('#link-error').isVisible(), false);
  await assertClean(page, 'deflate bomb link');
  await page.close();
});
