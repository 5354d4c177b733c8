// A newcomer's path on a phone (390 x 844), in headless Chromium: open the page, pick "DGX H100"
// and "ResNet-50", read the time per step and the time to train in the first screen without
// scrolling, copy the embed snippet, load it in a page of its own: the element shows the same
// step. Every state reached passes axe (WCAG 2 A and AA) with zero violations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, dist, cliApi, assertClose, assertLean, newPage, afterUpdate, assertNoAxeViolations, pageSession,
  urlStateParams } from './helpers.mjs';
import { EMBED_SECTIONS } from '../../web/src/embed_attributes.js';

const session = pageSession();
const PHONE = { viewport: { width: 390, height: 844 }, permissions: ['clipboard-read', 'clipboard-write'] };


// The page's formatting (web/src/format.js): milliseconds and durations.
const ms = (v) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));
function duration(msValue) {
  const s = msValue / 1e3;
  if (s < 120) return s.toFixed(1) + ' s';
  if (s < 7200) return (s / 60).toFixed(1) + ' min';
  if (s < 172800) return (s / 3600).toFixed(1) + ' h';
  return (s / 86400).toFixed(1) + ' days';
}

// Whether the element lies wholly inside the first screen (the page not scrolled).
async function inFirstScreen(page, selector) {
  return page.evaluate((sel) => {
    const box = document.querySelector(sel).getBoundingClientRect();
    return window.scrollY === 0 && box.width > 0 && box.top >= 0 && box.bottom <= window.innerHeight &&
      box.left >= 0 && box.right <= window.innerWidth;
  }, selector);
}

const optionValue = (page, select, label) => page.locator(`${select} option`, { hasText: label }).first().getAttribute('value');

// The snippet pasted into a page of its own, served beside paleo-embed.js: that page, its server
// and the response the element rendered.
async function embedded(snippet, options) {
  const doc = await newPage(session.browser, options);
  await doc.addInitScript(() => {
    document.addEventListener('paleo-result', (e) => { window.embedResult = e.detail; });
  });
  const embedServer = await serve(dist, { '/doc.html': '<!doctype html><html lang="en"><title>doc</title>\n' + snippet + '\n' });
  await doc.goto(embedServer.url + '/doc.html');
  await doc.waitForFunction(() => window.embedResult !== undefined);
  return { doc, embedServer, detail: await doc.evaluate(() => window.embedResult) };
}

test('a newcomer on a phone picks DGX H100 and ResNet-50, reads step and time to train, embeds the same number', async () => {
  // Someone else's old link (uncompressed): VGG-16 on one DGX-1 node.
  const page = await newPage(session.browser, PHONE);
  await page.goto(session.server.url + '/#cluster_on=1&nodes=1&device=V100_SXM2_16GB');
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.locator('#net').inputValue(), 'vgg16');
  await assertNoAxeViolations(page, 'an old link opened');

  await afterUpdate(page, async () => page.selectOption('#cluster', await optionValue(page, '#cluster', 'DGX H100')));
  // The cluster's GPU is now the device, and the Device select shows it.
  assert.equal(await page.locator('#device').inputValue(), 'H100_SXM');
  await afterUpdate(page, async () => page.selectOption('#net', await optionValue(page, '#net', 'ResNet-50 v1.5')));
  assert.equal(await page.locator('#net').inputValue(), 'resnet50_v1_5');

  await page.evaluate(() => window.scrollTo(0, 0));
  assert.ok(await inFirstScreen(page, '#headline-step'), 'time per step in the first screen');
  assert.ok(await inFirstScreen(page, '#headline-train'), 'time to train in the first screen');
  // The same request through the CLI: the page's request document, priced natively.
  const shown = await page.evaluate(() => window.paleoResult);
  const cli = cliApi(shown.requests.estimate);
  assertClose(shown.estimate, cli, 1e-12);
  assert.equal(cli.device.key, 'H100_SXM');
  assert.equal(cli.cluster.cluster.key, 'dgx_h100_ndr');
  assert.equal(await page.locator('#headline-step').textContent(), ms(cli.cluster.step_ms) + ' ms');
  const head = cli.train.setups[cli.train.headline_index];
  assert.equal(await page.locator('#headline-train').textContent(), duration(head.time_s * 1e3));
  // Both are marked as estimates, with the family's expected error band.
  const band = (cli.expected_error.median_abs_error * 100).toFixed(1);
  for (const id of ['#headline-step', '#headline-train']) {
    const note = await page.locator(id + ' + .note').textContent();
    assert.match(note, new RegExp(`^estimate, ±${band} % typical`));
  }
  assert.deepEqual(page.errors, []);
  await assertNoAxeViolations(page, 'DGX H100 and ResNet-50 picked');

  // ResNet-50 on one DGX H100 node is the page's default scenario: the link says nothing more but
  // the old link's fp32 (links made before compression priced fp32; the default is bf16 now).
  assert.deepEqual([...urlStateParams(page.url())], [['cnn_precision', '']]);
  await page.click('#copy-embed');
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(snippet, /cluster="dgx_h100_ndr"/);
  assert.match(snippet, /net="resnet50_v1_5"/);

  const { doc, embedServer, detail } = await embedded(snippet, PHONE);
  assertClose(detail.cluster.step_ms, cli.cluster.step_ms, 1e-12);
  const text = await doc.locator('paleo-estimate').evaluate((e) => e.shadowRoot.textContent);
  assert.ok(text.includes(ms(cli.cluster.step_ms) + ' ms'), text);
  await doc.close();
  await embedServer.close();
  await page.close();
});

test('a cluster preset sets the device; a different device chosen afterwards is priced and the core says so', async () => {
  const page = await newPage(session.browser, PHONE);
  await page.goto(session.server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.locator('#device').inputValue(), 'H100_SXM');
  // The default prices kernels with the H100's software era: no PPP pair is shown (nor sent).
  assert.equal(await page.locator('#software').inputValue(), '');
  assert.equal(await page.locator('#ppp-pair').isVisible(), false);
  await afterUpdate(page, () => page.selectOption('#device', 'A100_40GB_SXM'));
  const shown = await page.evaluate(() => window.paleoResult);
  const cli = cliApi(shown.requests.estimate);
  assert.equal(cli.device.key, 'A100_40GB_SXM');
  assert.ok(cli.warnings.some((w) => w.includes('is built of H100_SXM')));
  assert.deepEqual(await page.locator('#warnings li').allTextContents(), cli.warnings);
  await assertNoAxeViolations(page, 'a deliberate device mismatch');
  await page.close();
});

test('the skip link focuses the results and keeps the URL; an invalid worker count is told in words', async () => {
  const page = await newPage(session.browser, PHONE);
  await page.goto(session.server.url + '/#z=' + '');
  await page.waitForSelector('body[data-ready=true]');
  await afterUpdate(page, () => page.selectOption('#net', 'vgg16'));
  const before = page.url();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(page.url(), before);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'results');
  await afterUpdate(page, () => page.click('#paleo2017-inputs summary'));  // asks for the simulation
  await afterUpdate(page, () => page.fill('#workers', '1, two'));
  const note = page.locator('#workers + .field-error');
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /whole numbers/);
  assert.equal(await page.locator('#workers').getAttribute('aria-describedby'), 'workers-field-error');
  await assertNoAxeViolations(page, 'an invalid worker count');
  await page.close();
});

test('the PALEO 2017 model has its own section, closed by default, with the core\'s scheme list', async () => {
  const page = await newPage(session.browser);
  await page.goto(session.server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.locator('#paleo2017').evaluate((d) => d.open), false);
  assert.equal(await page.locator('#scaling-table').isVisible(), false);
  // The time to train: one device and the cluster above; the PALEO 2017 workers (over its
  // Ethernet) in this section, apart from them. Closed, the estimate leaves the simulation out.
  let shown = await page.evaluate(() => window.paleoResult);
  assert.equal(shown.requests.estimate.workers, undefined);
  assert.equal(shown.estimate.simulation, undefined);
  let cli = cliApi(shown.requests.estimate);
  const setups = (original) => cli.train.setups.filter((s) => (s.kind === 'paleo2017_workers') === original)
    .map((s) => s.setup);
  const firstCells = (id) => page.locator(`#${id} tbody tr`).evaluateAll((trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.deepEqual(await firstCells('train-table'), ['one device', 'cluster 1x8']);
  assert.deepEqual(await firstCells('train-table'), setups(false));
  assert.deepEqual(setups(true), []);
  assert.deepEqual(await firstCells('paleo2017-train'), []);
  // The throughput chart over nodes: 1 to 64 nodes.
  assert.deepEqual(shown.estimate.cluster.node_scaling.map((p) => p.nodes), [1, 2, 4, 8, 16, 32, 64]);
  // Opened, the estimate asks for the simulation: its workers' rows here, the others unchanged.
  await afterUpdate(page, () => page.click('#paleo2017 summary'));
  await page.waitForSelector('#scaling-table thead th');
  shown = await page.evaluate(() => window.paleoResult);
  assert.deepEqual(shown.requests.estimate.workers, [1, 2, 4, 8, 16, 32, 64, 128]);
  cli = cliApi(shown.requests.estimate);
  assert.deepEqual(await firstCells('train-table'), setups(false));
  assert.deepEqual(await firstCells('paleo2017-train'), setups(true));
  assert.equal(setups(true).length, 7);  // workers 2 to 128
  assert.ok(setups(true).every((s) => /PALEO 2017 over Ethernet$/.test(s)));
  const presets = cliApi({ command: 'presets' });
  const headers = await page.locator('#scaling-table thead th').allTextContents();
  for (const scheme of presets.original_schemes) assert.ok(headers.includes(scheme + ' ms'), headers.join('|'));
  // The headings of the results name no interconnect: the cluster model uses the cluster's links.
  const headings = await page.locator('#results h2, #results h3').allTextContents();
  for (const h of headings) assert.doesNotMatch(h, /ethernet|infiniband/i);
  await assertNoAxeViolations(page, 'the PALEO 2017 section open');
  await page.close();
});

test('a pasted spec goes into the embed snippet compressed; the element prices the same spec', async () => {
  const page = await newPage(session.browser, PHONE);
  await page.goto(session.server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  const spec = { name: 'pasted', layers: { data: { parents: [], type: 'Input', tensor: [32, 32, 32, 3] },
    conv: { parents: ['data'], type: 'Convolution', filter: [3, 3, 3, 16], strides: [1, 1, 1, 1], padding: 'SAME' } } };
  await page.click('#spec-box summary');
  await afterUpdate(page, () => page.fill('#spec', JSON.stringify(spec)));
  // The snippet carries the whole scenario, the PALEO 2017 workers too, which the page asks the
  // core for while their section is open.
  await afterUpdate(page, () => page.click('#paleo2017 summary'));
  const shown = await page.evaluate(() => window.paleoResult);
  assert.equal(shown.estimate.net.name, 'pasted');
  await page.click('#copy-embed');
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(snippet, /spec-z="[A-Za-z0-9_-]+"/);
  const { doc, embedServer, detail } = await embedded(snippet);
  const cli = cliApi(shown.requests.estimate);
  assert.equal(detail.net.name, 'pasted');
  assertClose(detail.cluster.step_ms, cli.cluster.step_ms, 1e-12);
  assertClose(detail.train, cli.train, 1e-12);
  await doc.close();
  await embedServer.close();
  await page.close();
});

// A scenario away from the defaults in every control the embed snippet once dropped.
const FULL_SCENARIO = '/#net=resnet50_v1_5&device=H100_SXM&cluster_on=1&cluster=dgx_h100_ndr&nodes=2&optimizer=adam' +
  '&conv_algorithm=fft&bucket_mib=50&stages=2&micro_batches=4&parallel=hybrid&hybrid_workers=2';

test('the embed snippet carries the whole scenario: with adam, FFT, buckets, pipeline and hybrid the element shows the page\'s numbers', async () => {
  const page = await newPage(session.browser, PHONE);
  await page.goto(session.server.url + FULL_SCENARIO);
  await page.waitForSelector('body[data-ready=true]');
  await afterUpdate(page, () => page.click('#paleo2017 summary'));  // the hybrid workers' simulation too
  const shown = await page.evaluate(() => window.paleoResult);
  const request = shown.requests.estimate;
  assert.equal(request.optimizer, 'adam');
  assert.deepEqual(request.pipeline, { stages: 2, micro_batches: 4 });
  const cli = cliApi(request);
  assertClose(shown.estimate, cli, 1e-12);
  // Adam's optimizer state makes the step slower than SGD's: an element that dropped the
  // optimizer would show another number.
  const sgd = cliApi({ ...request, optimizer: 'sgd' });
  assert.notEqual(ms(sgd.cluster.step_ms), ms(cli.cluster.step_ms));

  await page.click('#copy-embed');
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  for (const attribute of ['optimizer="adam"', 'conv-algorithm="fft"', 'bucket-mib="50"', 'stages="2"',
    'micro-batches="4"', 'parallel="hybrid"', 'hybrid-workers="2"', 'nodes="2"']) {
    assert.ok(snippet.includes(attribute), `${attribute} in ${snippet}`);
  }
  const { doc, embedServer, detail } = await embedded(snippet, PHONE);
  // The element's response is the page's, field for field, for the parts it asks for.
  assertLean(detail, cli, EMBED_SECTIONS, 1e-12);
  const text = await doc.locator('paleo-estimate').evaluate((e) => e.shadowRoot.textContent);
  // The same step and the same time to train, in the page's own formats.
  assert.equal(await page.locator('#headline-step').textContent(), ms(cli.cluster.step_ms) + ' ms');
  assert.ok(text.includes(ms(cli.cluster.step_ms) + ' ms'), text);
  const head = cli.train.setups[cli.train.headline_index];
  const pageTrain = await page.locator('#headline-train').textContent();
  assert.equal(pageTrain, duration(head.time_s * 1e3));
  assert.ok(text.includes(`Time to train, ${cli.train.epochs} epochs${pageTrain}`), text);
  // With a cluster, each throughput row says whose it is: one device's, then the cluster's.
  const rows = await doc.locator('paleo-estimate').evaluate((e) =>
    [...e.shadowRoot.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
  const throughput = (label) => rows.find((r) => r[0] === label)?.[1];
  assert.equal(throughput('Throughput, one device'),
    Math.round(cli.totals.throughput_samples_per_s).toLocaleString('en-US') + ' samples/s');
  assert.equal(throughput(`Throughput, ${cli.cluster.cluster.devices} devices`),
    Math.round(cli.cluster.throughput_samples_per_s).toLocaleString('en-US') + ' samples/s');
  assert.equal(rows.filter((r) => r[0] === 'Throughput').length, 0);
  assert.deepEqual(page.errors, []);
  await doc.close();
  await embedServer.close();
  await page.close();
});
