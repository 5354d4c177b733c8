// End to end in headless Chromium: the page (served from 127.0.0.1) and the embed element against
// the native CLI (`paleo api`).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, root, cliApi, assertClose, assertLean, newPage, afterUpdate, requested, assertNoAxeViolations,
  pageSession, openLayers } from './helpers.mjs';
import { EMBED_SECTIONS } from '../../web/src/embed_attributes.js';

const session = pageSession();
const artifacts = join(root, 'test-artifacts');

before(() => {
  mkdirSync(artifacts, { recursive: true });
});

// The page's formatting of milliseconds (web/src/format.js).
const ms = (v) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));

const open = session.open;

const result = (page) => page.evaluate(() => window.paleoResult);

// A link written before the URL state was compressed: what it leaves out takes the defaults of its
// time (VGG-16 on a Titan X, no cluster), which these tests were written against.
const OLD_LINK = '#net=vgg16';

async function card(page, label) {
  const exact = page.locator('.label', { hasText: new RegExp(`^${label}$`) });
  return page.locator('.card').filter({ has: exact }).locator('.value').textContent();
}

const rowCells = (row) => row.locator(':scope > *').allTextContents();

test('an old link shows vgg16 on TITAN X, as before, with the CLI\'s numbers', async () => {
  const page = await open(OLD_LINK);
  assert.equal(await page.locator('#net').inputValue(), 'vgg16');
  assert.equal(await page.locator('#device').inputValue(), 'TITAN_X');
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X' });
  assertClose((await result(page)).estimate.totals, cli.totals, 1e-12);
  assert.equal(await card(page, 'Step'), ms(cli.totals.step_ms) + ' ms');
  assert.equal(await card(page, 'Forward'), ms(cli.totals.forward_ms) + ' ms');
  assert.match(await page.locator('#context').textContent(), /VGG 16.*batch 64 on Titan X/);
  await openLayers(page);
  const rows = page.locator('#layers tbody tr');
  assert.equal(await rows.count(), cli.layers.length);
  const conv = cli.layers[1];
  const cells = await rowCells(rows.nth(1));
  assert.deepEqual([cells[0], cells[2], cells[5], cells[6]],
    [conv.name, conv.output.join('×'), ms(conv.forward.total_ms), ms(conv.backward.total_ms)]);
  // The PALEO 2017 section draws its charts when opened, not before (main.js renderScaling).
  assert.equal(await page.locator('#time-chart canvas').count(), 0);
  await page.click('#paleo2017 summary');
  await page.waitForSelector('#time-chart canvas');
  assert.equal(await page.locator('#time-chart canvas').count(), 1);
  assert.deepEqual(page.errors, []);
  await assertNoAxeViolations(page, 'an old link, one Titan X');
  await page.close();
});

test('tensorflow profile, batch change, and the URL hash round trip', async () => {
  const page = await open(OLD_LINK);
  await afterUpdate(page, () => page.selectOption('#software', 'tensorflow'));
  const tf = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', software: 'tensorflow' });
  assertClose((await result(page)).estimate.totals, tf.totals, 1e-12);
  assert.equal(await card(page, 'Step'), ms(tf.totals.step_ms) + ' ms');
  assert.equal(await card(page, 'Backward'), ms(tf.totals.backward_ms) + ' ms');
  assert.equal(await page.locator('#ppp_comp').inputValue(), '0.62');

  await openLayers(page);
  const firstRowBefore = await page.locator('#layers tbody tr').nth(1).textContent();
  await afterUpdate(page, () => page.fill('#batch_size', '16'));
  const b16 = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', software: 'tensorflow', batch_size: 16 });
  assertClose((await result(page)).estimate.totals, b16.totals, 1e-12);
  assert.equal(await card(page, 'Step'), ms(b16.totals.step_ms) + ' ms');
  assert.notEqual(await page.locator('#layers tbody tr').nth(1).textContent(), firstRowBefore);
  assert.match(await page.locator('#layers tbody tr').nth(1).textContent(), /16×224×224×64/);

  const url = page.url();
  assert.match(url, /#z=[A-Za-z0-9_-]+$/);  // compressed (page_parity.test.mjs decodes it)
  const again = await newPage(session.browser);
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assertClose((await result(again)).estimate.totals, b16.totals, 1e-12);
  assert.equal(await card(again, 'Step'), ms(b16.totals.step_ms) + ' ms');
  assert.equal(await again.locator('#batch_size').inputValue(), '16');
  assert.equal(await again.locator('#software').inputValue(), 'tensorflow');
  await again.close();

  // A hand-written link naming only the software gets that software's PPP pair.
  const short = await open('#software=tensorflow');
  assertClose((await result(short)).estimate.totals, tf.totals, 1e-12);
  assert.equal(await short.locator('#ppp_comm').inputValue(), '0.72');
  await short.close();
  await page.close();
});

test('a software era from the list prices as the CLI does with it; a PPP pair replaces it; the link keeps it', async () => {
  const page = await open(OLD_LINK);
  // The list is the core's CNN eras, after the device generation's own.
  const eras = cliApi({ command: 'presets' }).software_eras;
  const values = await page.locator('#software_era option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(values, ['', ...eras.filter((e) => e.applies_to.includes('cnn')).map((e) => e.key)]);
  assert.ok(!values.includes('megatron_lm_2022'));
  await afterUpdate(page, () => page.selectOption('#software_era', 'tensorflow_2017'));
  const request = { command: 'estimate', net: 'vgg16', device: 'TITAN_X', software_era: 'tensorflow_2017' };
  const cli = cliApi(request);
  assert.equal(cli.software_era.key, 'tensorflow_2017');
  assert.notEqual(cli.totals.step_ms, cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X' }).totals.step_ms);
  assert.equal((await result(page)).requests.estimate.software_era, 'tensorflow_2017');
  assertClose((await result(page)).estimate.totals, cli.totals, 1e-12);
  assert.equal(await card(page, 'Step'), ms(cli.totals.step_ms) + ' ms');

  const again = await newPage(session.browser);
  await again.goto(page.url());
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await again.locator('#software_era').inputValue(), 'tensorflow_2017');
  assertClose((await result(again)).estimate.totals, cli.totals, 1e-12);
  // A PPP pair replaces the era's kernel model: the list hides, and the request names the pair alone.
  await afterUpdate(again, () => again.selectOption('#software', 'tensorflow'));
  assert.equal(await again.locator('#software_era').isVisible(), false);
  assert.equal((await result(again)).requests.estimate.software_era, undefined);
  const tf = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', software: 'tensorflow' });
  assertClose((await result(again)).estimate.totals, tf.totals, 1e-12);
  assert.deepEqual(again.errors, []);
  await again.close();
  await page.close();
});

test('a broken spec shows its error next to the input, naming layer and field', async () => {
  const page = await open(OLD_LINK);
  await page.click('#spec-box summary');
  await afterUpdate(page, () => page.fill('#spec', '{"layers": {"data": {"parents": [], "type": "Input", "tensor": [1, 8, 8, 3]}, ' +
    '"x": {"parents": ["data"], "type": "Convolution", "filter": [3, 3, 4, 8], "strides": [1, 1, 1, 1], "padding": "SAME"}}}'));
  const error = page.locator('#spec-error');
  assert.equal(await error.isVisible(), true);
  assert.match(await error.textContent(), /Layer “x”, field “filter”: .*channels/);
  assert.equal(await page.locator('#spec').getAttribute('aria-invalid'), 'true');
  await assertNoAxeViolations(page, 'the results out of date under a broken spec');
  await afterUpdate(page, () => page.fill('#spec', '{"layers": '));
  assert.match(await error.textContent(), /malformed JSON/);
  // Clearing the spec goes back to the preset, without an error.
  await afterUpdate(page, () => page.click('#spec-clear'));
  assert.equal(await error.isVisible(), false);
  assert.equal(await page.locator('#error').isVisible(), false);
  assert.equal((await result(page)).estimate.net.name, 'VGG 16 - FROM SLIM');
  await page.close();
});

test('a layer named like markup shows as text and runs nothing', async () => {
  const page = await open(OLD_LINK);
  const name = '<img src=x onerror=alert(1)>';
  const spec = { name: '<b>net</b>', layers: { data: { parents: [], type: 'Input', tensor: [4, 8, 8, 3] },
    [name]: { parents: ['data'], type: 'Pooling', ksize: [1, 2, 2, 1], strides: [1, 2, 2, 1], padding: 'VALID' } } };
  await openLayers(page);
  await page.click('#spec-box summary');
  await afterUpdate(page, () => page.fill('#spec', JSON.stringify(spec)));
  assert.equal(await page.locator('#layers tbody tr').nth(1).locator('th').textContent(), name);
  assert.match(await page.locator('#net-info').textContent(), /<b>net<\/b>/);
  // The same name in an error message.
  const broken = structuredClone(spec);
  broken.layers[name].padding = 'WRONG';
  await afterUpdate(page, () => page.fill('#spec', JSON.stringify(broken)));
  assert.match(await page.locator('#spec-error').textContent(), /<img src=x onerror=alert\(1\)>/);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('img, b').count(), 0);
  assert.deepEqual(page.dialogs, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the layer table sorts by keyboard on its column headers', async () => {
  const page = await open(OLD_LINK);
  await openLayers(page);
  const header = page.locator('#layers thead th').nth(6);
  await header.locator('button').focus();
  await page.keyboard.press('Enter');
  assert.equal(await header.getAttribute('aria-sort'), 'descending');
  const { estimate } = await result(page);
  const slowest = estimate.layers.reduce((a, b) => (b.backward.total_ms > a.backward.total_ms ? b : a));
  assert.equal(await page.locator('#layers tbody tr').first().locator('th').textContent(), slowest.name);
  // Focus stays on the header: a second Enter reverses the order.
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#layers thead th').nth(6).getAttribute('aria-sort'), 'ascending');
  assert.equal(await page.locator('#layers tbody tr').last().locator('th').textContent(), slowest.name);
  await page.close();
});

test('configuration B on another device sits side by side with A, with the CLI\'s numbers', async () => {
  const page = await open(OLD_LINK);
  await afterUpdate(page, () => page.check('#compare_on'));
  await afterUpdate(page, () => page.selectOption('#b_device', 'K80'));
  assert.equal(await page.locator('#compare').isVisible(), true);
  const a = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X' });
  const b = cliApi({ command: 'estimate', net: 'vgg16', device: 'K80' });
  assertClose((await result(page)).compare.totals, b.totals, 1e-12);
  const step = await rowCells(page.locator('#compare-table tbody tr').first());
  assert.deepEqual(step, ['Step ms', ms(a.totals.step_ms), ms(b.totals.step_ms),
    (b.totals.step_ms / a.totals.step_ms).toFixed(2) + '×']);
  assert.match(page.url(), /#z=/);
  await assertNoAxeViolations(page, 'configuration B side by side');
  await page.close();
});

test('time to train and its cost follow the dataset, epochs and price', async () => {
  const page = await open('#epochs=10&dataset=100000');
  await afterUpdate(page, () => page.selectOption('#price_preset', 'aws_p5_h100_capacity_block'));
  assert.equal(await page.locator('#price').inputValue(), '4.916');
  assert.match(await page.locator('#price-source').textContent(), /aws\.amazon\.com/);
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X' });
  const steps = Math.ceil(100000 / 64) * 10;
  const cost = steps * cli.totals.step_ms / 3.6e6 * 4.916;
  const cells = await rowCells(page.locator('#train-table tbody tr').first());
  assert.equal(cells[0], 'one device');
  assert.equal(cells[6], '$' + cost.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  // Editing the price by hand leaves the preset.
  await afterUpdate(page, () => page.fill('#price', '2'));
  assert.equal(await page.locator('#price_preset').inputValue(), '');
  await page.close();
});

test('a long layer table shows its first 30 rows, sorted, until asked for all; the CSV holds every row', async () => {
  const page = await open('#net=inception_v3');
  const cli = cliApi({ command: 'estimate', net: 'inception_v3', device: 'TITAN_X' });
  assert.ok(cli.layers.length > 100, String(cli.layers.length));
  await openLayers(page);
  const rows = page.locator('#layers tbody tr');
  const visibleRows = () => rows.evaluateAll((trs) => trs.filter((tr) => tr.checkVisibility()).length);
  const more = page.locator('#layers-wrap + button.show-all');
  assert.equal(await rows.count(), cli.layers.length);
  assert.equal(await visibleRows(), 30);
  assert.equal(await more.textContent(), `Show all ${cli.layers.length} layers`);
  assert.equal(await more.getAttribute('aria-expanded'), 'false');
  // Sorted by backward time: the 30 slowest are the ones shown.
  await page.locator('#layers thead th').nth(6).locator('button').click();
  const slowest = cli.layers.slice().sort((a, b) => b.backward.total_ms - a.backward.total_ms).slice(0, 30).map((l) => l.name);
  assert.deepEqual(await rows.evaluateAll((trs) => trs.filter((tr) => tr.checkVisibility()).map((tr) => tr.cells[0].textContent)),
    slowest);
  await more.click();
  assert.equal(await visibleRows(), cli.layers.length);
  assert.equal(await more.textContent(), 'Show the first 30 layers');
  assert.equal(await more.getAttribute('aria-expanded'), 'true');
  // The reader's choice holds through a re-estimate.
  await afterUpdate(page, () => page.fill('#batch_size', '16'));
  assert.equal(await visibleRows(), cli.layers.length);
  await more.click();
  assert.equal(await visibleRows(), 30);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#layers-section button.csv')]);
  assert.equal(readFileSync(await download.path(), 'utf8').trim().split('\n').length, cli.layers.length + 1);
  // A short table has no button.
  await afterUpdate(page, () => page.selectOption('#net', 'vgg16'));
  assert.equal(await visibleRows(), await rows.count());
  assert.equal(await more.isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the layer table opens with one click; only then does the page ask the core for its rows', async () => {
  const page = await open('#net=inception_v3');
  // The CLI's answer to the page's own request, whole (without the request's "omit_sections").
  const whole = (request) => {
    const rest = { ...request };
    delete rest.omit_sections;
    return cliApi(rest);
  };
  // Closed on load: the heading counts the layers, the request leaves the table out of the answer
  // (its "omit_sections": `layers`), and the rest is the CLI's all the same.
  assert.equal(await page.locator('#layers-box').evaluate((d) => d.open), false);
  assert.equal(await page.locator('#layers-section').getAttribute('data-state'), 'closed');
  assert.equal(await page.locator('#layers tbody tr').count(), 0);
  let shown = await result(page);
  const cli = whole(shown.requests.estimate);
  assert.ok(cli.layers.length > 100, String(cli.layers.length));
  assert.equal(await page.locator('#layer-count').textContent(), `(${cli.layers.length})`);
  assert.deepEqual(shown.requests.estimate.omit_sections, ['layers']);
  assert.equal(shown.requests.estimate.sections, undefined);
  assert.equal(shown.estimate.layers, undefined);
  const { layers, ...rest } = cli;
  assert.equal(layers.length, cli.layers.length);
  assertClose(shown.estimate, rest, 1e-12);
  await assertNoAxeViolations(page, 'the layer table closed');
  // One click: the whole answer, its rows in the table.
  await afterUpdate(page, () => page.click('#layers-box > summary'));
  assert.equal(await page.locator('#layers-section').getAttribute('data-state'), 'shown');
  shown = await result(page);
  assert.equal(shown.requests.estimate.omit_sections, undefined);
  assert.equal(await page.locator('#layers tbody tr').count(), cli.layers.length);
  assertClose(shown.estimate, cli, 1e-12);
  // Open, a re-estimate keeps its rows; closed again, the next one leaves them out.
  await afterUpdate(page, () => page.fill('#batch_size', '16'));
  shown = await result(page);
  assert.equal(shown.requests.estimate.batch_size, 16);
  assertClose(shown.estimate, whole(shown.requests.estimate), 1e-12);
  assert.match(await page.locator('#layers tbody tr').nth(1).textContent(), /^[^×]*16×/);
  await page.click('#layers-box > summary');
  await afterUpdate(page, () => page.fill('#batch_size', '24'));
  shown = await result(page);
  assert.equal(shown.estimate.layers, undefined);
  assert.equal(await page.locator('#layers-section').getAttribute('data-state'), 'closed');
  assertClose(shown.estimate.totals, whole(shown.requests.estimate).totals, 1e-12);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the layer table exports as CSV and the result as JSON', async () => {
  const page = await open('#net=alex_v2');
  const cli = cliApi({ command: 'estimate', net: 'alex_v2', device: 'TITAN_X' });
  // The table closed: the result exported whole all the same, the per-layer table included, with
  // the request that gives it.
  const [closedDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const whole = JSON.parse(readFileSync(await closedDownload.path(), 'utf8'));
  assert.equal(whole.requests.estimate.omit_sections, undefined);
  assert.deepEqual(whole.estimate.layers.map((l) => l.name), cli.layers.map((l) => l.name));
  assertClose(whole.estimate.layers, cli.layers, 1e-12);
  await openLayers(page);
  const [csvDownload] = await Promise.all([page.waitForEvent('download'),
    page.click('#layers-section button.csv')]);
  const csv = readFileSync(await csvDownload.path(), 'utf8').trim().split('\n');
  assert.equal(csv.length, cli.layers.length + 1);
  assert.match(csv[0], /^name,type,output,params,forward_flops,forward_ms/);
  const conv1 = csv[1 + cli.layers.findIndex((l) => l.name === 'conv1')].split(',');
  assert.equal(Number(conv1[5]), cli.layers.find((l) => l.name === 'conv1').forward.total_ms);
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const json = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8'));
  assertClose(json.estimate.totals, cli.totals, 1e-12);
  assert.equal(json.requests.estimate.net, 'alex_v2');
  await page.close();
});

test('the page fits a phone-width screen', async () => {
  const page = await open('#compare_on=1&b_device=K80&cluster_on=1', { viewport: { width: 375, height: 800 } });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `page is ${width} px wide`);
  await page.screenshot({ path: join(artifacts, 'page-phone.png') });
  await assertNoAxeViolations(page, 'a phone, B and the cluster on');
  await page.close();
});

test('the cluster model shows every collective with and without overlap, and memory', async () => {
  const page = await open('#cluster_on=1&device=V100_SXM2_16GB&batch_size=32');
  assert.equal(await page.locator('#cluster-section').isVisible(), true);
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'V100_SXM2_16GB', batch_size: 32,
    cluster: 'dgx1_v100_edr', nodes: 16, collective: 'auto', overlap: true, bucket_bytes: 25 * 1024 * 1024 });
  assertClose((await result(page)).estimate.cluster.step_ms, cli.cluster.step_ms, 1e-12);
  assert.equal(await card(page, 'Step'), ms(cli.cluster.step_ms) + ' ms');
  assert.equal(await page.locator('#cluster-bars tbody tr').count(), cli.cluster.collectives.length);
  assert.match(await page.locator('#memory-bar').textContent(), /Memory per device/);
  await page.click('#paleo2017 summary');
  await assertNoAxeViolations(page, 'the cluster and the PALEO 2017 section open');
  await page.screenshot({ path: join(artifacts, 'cluster.png'), fullPage: true });
  await page.close();
});

test('the layer-wise search for AlexNet on 16 GPUs (4 x 4) equals the CLI\'s', async () => {
  const page = await open('#net=alex_v2&batch_size=32&search_on=1&search_devices=16&search_per_node=4');
  await page.waitForSelector('#search-section[data-state=done]');
  assert.equal(await page.locator('#search-section').isVisible(), true);
  const cli = cliApi({ command: 'search', net: 'alex_v2', device: 'TITAN_X', profile: 'paleo2026',
    batch_size: 32, devices: 16, devices_per_node: 4 });
  assertClose((await result(page)).search.step_ms, cli.step_ms, 1e-12);
  const summary = await page.locator('#search-summary').textContent();
  assert.match(summary, new RegExp(`data parallelism ${cli.speedup_over_data_parallel.toFixed(2)}×`));
  // The bytes each strategy moves per step, the core's figures in the page's units (GiB from
  // 2^30 bytes, MiB below).
  const size = (v) => (v >= 2 ** 30 ? (v / 2 ** 30).toFixed(2) + ' GiB' : (v / 2 ** 20).toFixed(2) + ' MiB');
  assert.ok(summary.includes(`layer-wise ${size(cli.traffic_bytes)}, data parallel ${size(cli.data_parallel_traffic_bytes)}`), summary);
  // The band of OptCNN's Figure 7 cases (the core's expected_error), beside the search's numbers.
  const band = cli.expected_error;
  assert.equal(band.family, 'cnn_layer_wise');
  assert.ok(summary.includes(`typically within ±${(band.median_abs_error * 100).toFixed(1)} %`), summary);
  assert.ok(summary.includes(`${band.cases} cnn_layer_wise cases`), summary);
  const rows = page.locator('#search-table tbody tr');
  assert.equal(await rows.count(), cli.layers.length);
  for (let i = 0; i < cli.layers.length; ++i) {
    const cells = await rowCells(rows.nth(i));
    const c = cli.layers[i].config;
    assert.deepEqual(cells.slice(0, 6), [cli.layers[i].name, cli.layers[i].type, String(c.n), String(c.c), String(c.h), String(c.w)]);
  }
  await assertNoAxeViolations(page, 'the layer-wise search done');
  await page.screenshot({ path: join(artifacts, 'search.png'), fullPage: true });
  await page.close();
});

test('the embed element in a blank HTML file opened from disk renders the CLI\'s totals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paleo-embed-'));
  copyFileSync(join(dist, 'paleo-embed.js'), join(dir, 'paleo-embed.js'));
  writeFileSync(join(dir, 'doc.html'), '<!doctype html><title>doc</title>\n<script src="paleo-embed.js"></script>\n' +
    '<paleo-estimate net="vgg16" device="TITAN_X" ppp-comp="0.62" ppp-comm="0.72" workers="1,8"></paleo-estimate>\n' +
    '<paleo-estimate id="bad" net="no_such_net"></paleo-estimate>\n');
  const page = await newPage(session.browser);
  await page.addInitScript(() => {
    document.addEventListener('paleo-result', (e) => { window.embedResult = e.detail; });
    document.addEventListener('paleo-error', (e) => { window.embedError = e.detail; });
  });
  await page.goto(pathToFileURL(join(dir, 'doc.html')).href);
  await page.waitForFunction(() => window.embedResult !== undefined && window.embedError !== undefined);
  const detail = await page.evaluate(() => window.embedResult);
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', software: 'tensorflow', workers: [1, 8],
    scaling: ['weak'], parallel: 'data' });
  // The element asks for what it shows (the request's sections), each part the CLI's.
  assertLean(detail, cli, EMBED_SECTIONS, 1e-12);
  const element = page.locator('paleo-estimate').first();
  const text = await element.evaluate((e) => e.shadowRoot.textContent);
  assert.ok(text.includes(ms(cli.totals.step_ms) + ' ms'), text);
  assert.ok(text.includes(ms(cli.totals.forward_ms) + ' ms'), text);
  assertClose(await element.evaluate((e) => e.result.totals), cli.totals, 1e-12);
  assert.match(await page.evaluate(() => window.embedError), /no_such_net/);
  assert.match(await page.locator('#bad').evaluate((e) => e.shadowRoot.textContent), /no_such_net/);
  await page.close();
});

test('nothing is requested from another origin, and a screenshot is kept', async () => {
  const page = await open();
  await page.screenshot({ path: join(artifacts, 'page.png') });
  await page.close();
  const outside = requested.filter((u) => !u.startsWith(session.server.url + '/') && !u.startsWith('file://') &&
    !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(outside, []);
  assert.ok(requested.length > 20, `only ${requested.length} requests recorded`);
});
