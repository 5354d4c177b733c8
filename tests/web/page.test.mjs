// End to end in headless Chromium: the page and the embed element against the native CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve, launch, dist, root, cliApi, assertClose } from './helpers.mjs';

let server, browser;
const requests = [];

before(async () => {
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  server = await serve(dist);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// The page's own formatting of milliseconds (web/src/format.js).
const ms = (v) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));

async function open(hash = '') {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('request', (r) => requests.push(r.url()));
  const dialogs = [];
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  page.dialogs = dialogs;
  await page.goto(server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

async function card(page, label) {
  const exact = page.locator('.label', { hasText: new RegExp(`^${label}$`) });
  return page.locator('.card').filter({ has: exact }).locator('.value').textContent();
}

// Waits until the page has re-estimated after an input change.
async function settle(page) {
  await page.waitForTimeout(250);
}

test('the default page shows vgg16 on TITAN X with the CLI\'s numbers', async () => {
  const page = await open();
  assert.equal(await page.locator('#net').inputValue(), 'vgg16');
  assert.equal(await page.locator('#device').inputValue(), 'TITAN_X');
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X' });
  assert.equal(await card(page, 'Step'), ms(cli.totals.step_ms) + ' ms');
  assert.equal(await card(page, 'Forward'), ms(cli.totals.forward_ms) + ' ms');
  assert.equal(await page.locator('#layers tbody tr').count(), cli.layers.length);
  await page.close();
});

test('tensorflow profile, batch change, and the URL hash round trip', async () => {
  const page = await open();
  await page.selectOption('#software', 'tensorflow');
  await settle(page);
  const tf = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', software: 'tensorflow' });
  assert.equal(await card(page, 'Step'), ms(tf.totals.step_ms) + ' ms');
  assert.equal(await card(page, 'Backward'), ms(tf.totals.backward_ms) + ' ms');

  const firstRowBefore = await page.locator('#layers tbody tr').nth(1).textContent();
  await page.fill('#batch_size', '16');
  await settle(page);
  const b16 = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', software: 'tensorflow', batch_size: 16 });
  assert.equal(await card(page, 'Step'), ms(b16.totals.step_ms) + ' ms');
  assert.notEqual(await page.locator('#layers tbody tr').nth(1).textContent(), firstRowBefore);
  assert.match(await page.locator('#net-info').textContent(), /batch 16/);

  const url = page.url();
  assert.match(url, /#.*software=tensorflow/);
  const again = await browser.newPage();
  again.on('request', (r) => requests.push(r.url()));
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await card(again, 'Step'), ms(b16.totals.step_ms) + ' ms');
  assert.equal(await again.locator('#batch_size').inputValue(), '16');
  await again.close();
  await page.close();
});

test('a broken spec shows its error next to the input, naming layer and field', async () => {
  const page = await open();
  await page.click('#spec-box summary');
  await page.fill('#spec', '{"layers": {"data": {"parents": [], "type": "Input", "tensor": [1, 8, 8, 3]}, ' +
    '"x": {"parents": ["data"], "type": "Convolution", "filter": [3, 3, 4, 8], "strides": [1, 1, 1, 1], "padding": "SAME"}}}');
  await settle(page);
  const error = page.locator('#spec-error');
  assert.equal(await error.isVisible(), true);
  assert.match(await error.textContent(), /Layer “x” field “filter”.*channels/);
  await page.fill('#spec', '{"layers": ');
  await settle(page);
  assert.match(await error.textContent(), /malformed JSON/);
  await page.close();
});

test('a layer named like markup shows as text and runs nothing', async () => {
  const page = await open();
  const name = '<img src=x onerror=alert(1)>';
  const spec = { layers: { data: { parents: [], type: 'Input', tensor: [4, 8, 8, 3] },
    [name]: { parents: ['data'], type: 'Pooling', ksize: [1, 2, 2, 1], strides: [1, 2, 2, 1], padding: 'VALID' } } };
  await page.click('#spec-box summary');
  await page.fill('#spec', JSON.stringify(spec));
  await settle(page);
  assert.equal(await page.locator('#layers tbody tr').nth(1).locator('td').first().textContent(), name);
  assert.equal(await page.locator('#layers img').count(), 0);
  await page.waitForTimeout(300);
  assert.deepEqual(page.dialogs, []);
  await page.close();
});

test('the cluster model shows every collective with and without overlap, and memory', async () => {
  const page = await open('#cluster_on=1&device=V100_SXM2_16GB&batch_size=32');
  assert.equal(await page.locator('#cluster-section').isVisible(), true);
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'V100_SXM2_16GB', batch_size: 32,
    cluster: 'dgx1_v100_edr', nodes: 16, collective: 'auto', overlap: true, bucket_bytes: 25 * 1024 * 1024 });
  assert.equal(await card(page, 'Step'), ms(cli.cluster.step_ms) + ' ms');
  assert.equal(await page.locator('#cluster-bars tbody tr').count(), cli.cluster.collectives.length);
  assert.match(await page.locator('#memory-bar').textContent(), /Memory per device/);
  await page.screenshot({ path: join(root, 'test-artifacts', 'cluster.png'), fullPage: true });
  await page.close();
});

test('the embed element in a blank HTML file opened from disk renders the CLI\'s totals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paleo-embed-'));
  copyFileSync(join(dist, 'paleo-embed.js'), join(dir, 'paleo-embed.js'));
  writeFileSync(join(dir, 'doc.html'), '<!doctype html><title>doc</title>\n<script src="paleo-embed.js"></script>\n' +
    '<paleo-estimate net="alex_v2" device="K40" batch="64" workers="1,8"></paleo-estimate>\n');
  const page = await browser.newPage();
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(() => document.addEventListener('paleo-result', (e) => { window.paleoResult = e.detail; }));
  await page.goto(pathToFileURL(join(dir, 'doc.html')).href);
  await page.waitForFunction(() => window.paleoResult !== undefined);
  const detail = await page.evaluate(() => window.paleoResult);
  const cli = cliApi({ command: 'estimate', net: 'alex_v2', device: 'K40', batch_size: 64, workers: [1, 8],
    scaling: ['weak'], parallel: 'data' });
  assertClose(detail.totals, cli.totals, 1e-12);
  const text = await page.locator('paleo-estimate').evaluate((e) => e.shadowRoot.textContent);
  assert.match(text, new RegExp(ms(cli.totals.step_ms).replace('.', '\\.')));
  assert.equal(await page.locator('paleo-estimate').evaluate((e) => e.result.ok), true);
  await page.close();
});

test('nothing is requested from another origin, and a screenshot is kept', async () => {
  const page = await open('#software=tensorflow');
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-artifacts', 'page.png'), fullPage: false });
  await page.close();
  const outside = requests.filter((u) => !u.startsWith(server.url) && !u.startsWith('file://') && !u.startsWith('data:'));
  assert.deepEqual(outside, []);
  assert.ok(requests.length > 5);
});

test('the layer-wise search for AlexNet on 16 GPUs (4 x 4) equals the CLI\'s', async () => {
  const page = await open('#net=alex_v2&batch_size=32&search_on=1&search_devices=16&search_per_node=4');
  assert.equal(await page.locator('#search-section').isVisible(), true);
  const cli = cliApi({ command: 'search', net: 'alex_v2', device: 'TITAN_X', profile: 'paleo2026', conv_algorithm: 'gemm',
    ppp_comp: 1, ppp_comm: 1, batch_size: 32, devices: 16, devices_per_node: 4 });
  const summary = await page.locator('#search-summary').textContent();
  assert.match(summary, new RegExp(`data parallelism ${cli.speedup_over_data_parallel.toFixed(2)}×`));
  const rows = page.locator('#search-table tbody tr');
  assert.equal(await rows.count(), cli.layers.length);
  for (let i = 0; i < cli.layers.length; ++i) {
    const cells = await rows.nth(i).locator('td').allTextContents();
    const c = cli.layers[i].config;
    assert.deepEqual(cells.slice(0, 6), [cli.layers[i].name, cli.layers[i].type, String(c.n), String(c.c), String(c.h), String(c.w)]);
  }
  await page.screenshot({ path: join(root, 'test-artifacts', 'search.png'), fullPage: true });
  await page.close();
});
