// <paleo-estimate> for LLMs, in headless Chromium: a documentation page holding transformer
// elements (a preset, a layout written out, a Hugging Face config inline and by URL), opened from
// disk and over http. Each element's request is the one written here by hand, and its response and
// the step time, tokens/s and MFU it shows are the native CLI's answer to that request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve, launch, dist, root, cliApi, assertClose, assertLean, newPage, assertNoAxeViolations } from './helpers.mjs';
import { bytes, count, integer, ms } from '../../web/src/format.js';
import { TRANSFORMER_EMBED_SECTIONS as SECTIONS } from '../../web/src/embed_transformer.js';
import { SERVING_EMBED_SECTIONS as SERVING_SECTIONS } from '../../web/src/embed_serving.js';

const mistral = readFileSync(join(root, 'tests', 'data', 'hf', 'Mistral-7B-v0.1.config.json'), 'utf8');
const qwen = readFileSync(join(root, 'tests', 'data', 'hf', 'Qwen2-7B.config.json'), 'utf8');

// The element's layout where it says nothing (the page's transformer defaults).
const LAYOUT = { pp: 1, cp: 1, sequence_parallel: false, schedule: '1f1b', micro_batch: 1, global_batch: 64,
  attention: 'flash', zero: 1, tp: 1 };
const H100_NODE = { device: 'H100_SXM', nodes: 1, devices_per_node: 8, precision: 'bf16' };

const ELEMENTS = [
  { id: 'llm', markup: '<paleo-estimate id="llm" net="llama3_8b" device="H100_SXM" nodes="1" per-node="8" precision="bf16">' +
      '</paleo-estimate>',
    request: { command: 'estimate', net: 'llama3_8b', ...H100_NODE, ...LAYOUT, sections: SECTIONS } },
  { id: 'layout', markup: '<paleo-estimate id="layout" net="llama3_8b" device="H100_SXM" nodes="2" per-node="8" ' +
      'precision="bf16" tp="2" pp="2" cp="1" dp="4" global-batch="256" seq-len="4096" micro-batch="2" recompute="full" ' +
      'zero="1" train-tokens="100000000000" price="2.5"></paleo-estimate>',
    request: { command: 'estimate', net: 'llama3_8b', ...H100_NODE, ...LAYOUT, nodes: 2, tp: 2, pp: 2, dp: 4,
      global_batch: 256, seq_len: 4096, micro_batch: 2, recompute: 'full', train_tokens: 1e11, price_per_gpu_hour: 2.5,
      sections: SECTIONS } },
  { id: 'inline', markup: '<paleo-estimate id="inline" device="H100_SXM" nodes="1" per-node="8" tp="2">' +
      `<script type="application/json">${mistral}</script></paleo-estimate>`,
    request: { command: 'estimate', net: JSON.parse(mistral), ...H100_NODE, ...LAYOUT, tp: 2, sections: SECTIONS } },
];
// Over http only: a config fetched from the page's own server.
const BY_URL = { id: 'url', markup: '<paleo-estimate id="url" config-url="qwen.json" precision="bf16" tp="4"></paleo-estimate>',
  request: { command: 'estimate', net: JSON.parse(qwen), ...H100_NODE, ...LAYOUT, tp: 4, sections: SECTIONS } };

const doc = (elements) => '<!doctype html><html lang="en"><title>Training notes</title>\n' +
  '<script src="paleo-embed.js"></script>\n<main><h1>Training notes</h1>\n' +
  elements.map((e) => e.markup).join('\n') + '\n</main>\n';

let server, browser;
before(async () => {
  server = await serve(dist, { '/doc.html': doc([...ELEMENTS, BY_URL]), '/qwen.json': qwen });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const percent = (v) => (v * 100).toFixed(1) + '%';

async function check(page, elements) {
  await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id).result),
    elements.map((e) => e.id), { timeout: 60000 });
  for (const { id, request } of elements) {
    const element = page.locator('#' + id);
    const { sent, result, text } = await element.evaluate(async (e) => ({ sent: await e.request(), result: e.result,
      text: e.shadowRoot.textContent }));
    assert.deepEqual(sent, request, id);
    // The element asks for the parts it shows; each is the CLI's for the full request.
    const { sections: _, ...whole } = request;
    const cli = cliApi(whole);
    assert.ok(cli.ok && result.ok, `${id}: ${JSON.stringify(cli.error ?? result.error)}`);
    assertLean(result, cli, SECTIONS, 1e-12);
    for (const shown of [ms(cli.step_ms) + ' ms', count(cli.tokens_per_s), percent(cli.mfu),
      bytes(cli.memory_per_device_bytes), (cli.fits ? 'fits in ' : 'does not fit in ') + bytes(cli.memory.capacity_bytes),
      `±${(cli.expected_error.median_abs_error * 100).toFixed(1)} %`]) {
      assert.ok(text.includes(shown), `${id}: "${shown}" not in: ${text}`);
    }
  }
}

test('an LLM element over http: the CLI\'s step time, tokens/s and MFU, a config inline and by URL; axe 0', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/doc.html');
  await check(page, [...ELEMENTS, BY_URL]);
  assert.match(await page.locator('#layout').evaluate((e) => e.shadowRoot.textContent), /Time to train/);
  await assertNoAxeViolations(page, 'a documentation page with LLM elements');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an LLM element opened from disk: the same numbers; a config by URL says file:// cannot fetch', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paleo-embed-llm-'));
  copyFileSync(join(dist, 'paleo-embed.js'), join(dir, 'paleo-embed.js'));
  writeFileSync(join(dir, 'qwen.json'), qwen);
  writeFileSync(join(dir, 'doc.html'), doc([...ELEMENTS, BY_URL]));
  const page = await newPage(browser);
  await page.addInitScript(() => {
    document.addEventListener('paleo-error', (e) => { window.embedError = { id: e.target.id, message: e.detail }; });
  });
  await page.goto(pathToFileURL(join(dir, 'doc.html')).href);
  await check(page, ELEMENTS);
  await page.waitForFunction(() => window.embedError !== undefined);
  const error = await page.evaluate(() => window.embedError);
  assert.equal(error.id, 'url');
  assert.match(error.message, /config-url: could not fetch qwen\.json: a page opened from file:\/\/ cannot fetch/);
  assert.match(await page.locator('#url').evaluate((e) => e.shadowRoot.textContent), /inline/);
  await page.close();
});

test('an attribute change re-estimates; a config that is not JSON is the element\'s error', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/doc.html');
  await check(page, [...ELEMENTS, BY_URL]);
  const step = (id) => page.locator('#' + id).evaluate((e) => e.result.step_ms);
  const before = await step('llm');
  await page.locator('#llm').evaluate((e) => e.setAttribute('global-batch', '128'));
  await page.waitForFunction((s) => document.getElementById('llm').result.step_ms !== s, before);
  const request = { command: 'estimate', net: 'llama3_8b', ...H100_NODE, ...LAYOUT, global_batch: 128, sections: SECTIONS };
  assertClose(await step('llm'), cliApi(request).step_ms, 1e-12);
  await page.locator('#inline').evaluate((e) => { e.querySelector('script').textContent = '{"hidden_size": '; });
  await page.waitForFunction(() => document.getElementById('inline').result.ok === false);
  assert.match(await page.locator('#inline').evaluate((e) => e.shadowRoot.textContent), /the config is not JSON/);
  await page.close();
});

// The transformer view's "Embed snippet": the page's own training request, as attributes; pasted
// into a page of its own, the element sends that request and shows the page's step, tokens/s and MFU.
async function snippetOf(hash, act = async () => {}) {
  const page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  await act(page);
  await page.waitForFunction(() => window.paleoResult?.transformer !== undefined);
  assert.equal(await page.locator('#copy-embed').isVisible(), true);
  await page.click('#copy-embed');
  await page.waitForFunction(() => /copied/.test(document.getElementById('action-status').textContent));
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  const shown = await page.evaluate(() => window.paleoResult);
  await page.close();
  return { snippet, shown };
}

async function embedded(snippet) {
  const embedServer = await serve(dist, { '/doc.html': '<!doctype html><html lang="en"><title>notes</title>\n<main>' +
    snippet + '</main>\n' });
  const doc = await newPage(browser);
  await doc.goto(embedServer.url + '/doc.html');
  await doc.waitForFunction(() => document.querySelector('paleo-estimate')?.result);
  const element = await doc.locator('paleo-estimate').evaluate(async (e) => ({ sent: await e.request(), result: e.result,
    text: e.shadowRoot.textContent }));
  return { doc, embedServer, ...element };
}

test('"Embed snippet" in the transformer view writes the page\'s request; the element shows the page\'s numbers', async () => {
  const { snippet, shown } = await snippetOf('#net=llama3_70b&device=H100_SXM&t_nodes=4&tp=8&pp=2&global_batch=256&train_btokens=15');
  assert.match(snippet, /^<script src="http:\/\/127\.0\.0\.1:\d+\/paleo-embed\.js"><\/script>\n<paleo-estimate net="llama3_70b" /);
  assert.match(snippet, / per-node="8" /);
  assert.match(snippet, / train-tokens="15000000000" /);
  const { doc, embedServer, sent, result, text } = await embedded(snippet);
  assert.deepEqual(sent, { ...shown.requests.estimate, sections: SECTIONS });
  assertClose(result, cliApi(sent), 1e-12);
  assertLean(result, shown.transformer, SECTIONS, 1e-12);
  for (const part of [ms(result.step_ms) + ' ms', count(result.tokens_per_s), percent(result.mfu)]) {
    assert.ok(text.includes(part), `"${part}" not in: ${text}`);
  }
  await assertNoAxeViolations(doc, 'the transformer view\'s snippet in a page of its own');
  await doc.close();
  await embedServer.close();
});

test('a pasted Hugging Face config goes into the snippet as its config attribute', async () => {
  const { snippet, shown } = await snippetOf('', async (page) => {
    await page.click('#config-box summary');
    await page.fill('#config', mistral);
    await page.waitForFunction(() => window.paleoResult?.transformer?.model?.source === 'huggingface');
  });
  assert.match(snippet, / config="\{&quot;architectures&quot;/);
  const { doc, embedServer, sent, result } = await embedded(snippet);
  assert.deepEqual(sent, { ...shown.requests.estimate, sections: SECTIONS });
  assert.deepEqual(sent.net, JSON.parse(mistral));
  assertClose(result, cliApi(sent), 1e-12);
  await doc.close();
  await embedServer.close();
});

// task="serve": the model served under load. The element sends the page's `inference` request and
// shows the CLI's time to first token, time per output token and throughput, from disk and over http.
const SERVING = { id: 'serve', markup: '<paleo-estimate id="serve" task="serve" net="llama3_70b" device="H100_SXM" ' +
  'nodes="1" per-node="8" precision="fp8" tp="8" prompt-len="2048" generate-len="256" concurrency="32" ' +
  'kv-cache-dtype="fp8"></paleo-estimate>',
  request: { command: 'inference', net: 'llama3_70b', ...H100_NODE, precision: 'fp8', tp: 8, prompt_len: 2048,
    generate_len: 256, concurrency: 32, kv_cache_dtype: 'fp8', sections: SERVING_SECTIONS } };

async function checkServing(page) {
  await page.waitForFunction(() => document.getElementById('serve')?.result, null, { timeout: 60000 });
  const { sent, result, text } = await page.locator('#serve').evaluate(async (e) => ({ sent: await e.request(),
    result: e.result, text: e.shadowRoot.textContent }));
  assert.deepEqual(sent, SERVING.request);
  const { sections: _, ...whole } = SERVING.request;
  const cli = cliApi(whole);
  assert.ok(cli.ok && result.ok, JSON.stringify(cli.error ?? result.error));
  assertLean(result, cli, SERVING_SECTIONS, 1e-12);
  const s = cli.serving;
  for (const shown of [ms(s.ttft_ms) + ' ms', ms(s.tpot_ms) + ' ms', count(s.total_output_tokens_per_s),
    integer(s.max_concurrency), `±${(cli.expected_error.median_abs_error * 100).toFixed(1)} %`]) {
    assert.ok(text.includes(shown), `"${shown}" not in: ${text}`);
  }
}

test('a serving element (task="serve"): the CLI\'s TTFT, TPOT and tokens/s over http and from disk; axe 0', async () => {
  const page = await newPage(browser);
  const served = await serve(dist, { '/serve.html': doc([SERVING]) });
  await page.goto(served.url + '/serve.html');
  await checkServing(page);
  await assertNoAxeViolations(page, 'a documentation page with a serving element');
  assert.deepEqual(page.errors, []);
  await served.close();
  const dir = mkdtempSync(join(tmpdir(), 'paleo-embed-serve-'));
  copyFileSync(join(dist, 'paleo-embed.js'), join(dir, 'paleo-embed.js'));
  writeFileSync(join(dir, 'doc.html'), doc([SERVING]));
  await page.goto(pathToFileURL(join(dir, 'doc.html')).href);
  await checkServing(page);
  await page.close();
});

test('"Embed snippet" in the serving view writes the page\'s inference request; the element shows its numbers', async () => {
  const { snippet, shown } = await snippetOf('#net=llama3_70b&device=H100_SXM&tp=8&t_nodes=1&t_per_node=8&t_task=serve' +
    '&s_concurrency=16&prompt_len=1024&generate_len=128&s_cuda_graphs=0');
  assert.match(snippet, /<paleo-estimate task="serve" net="llama3_70b" /);
  assert.match(snippet, / concurrency="16" /);
  assert.match(snippet, / cuda-graphs="false"/);
  const { doc: page, embedServer, sent, result, text } = await embedded(snippet);
  assert.deepEqual(sent, { ...shown.requests.inference, sections: SERVING_SECTIONS });
  assert.equal(sent.cuda_graphs, false);
  assertLean(result, shown.transformer, SERVING_SECTIONS, 1e-12);
  assert.ok(text.includes(ms(result.serving.tpot_ms) + ' ms'), text);
  await page.close();
  await embedServer.close();
});
