// End to end in headless Chromium: "How accurate is it?" (the validation suite on the page) and
// the expected error beside each estimate, against the native CLI (docs/validation.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, dist, root, cliApi, assertClose, newPage, afterUpdate, assertNoAxeViolations } from './helpers.mjs';
import { absPercent, compareUnit, expectedErrorText, sig, signedPercent, splitSource } from '../../web/src/format.js';

const shown = (v) => (typeof v === 'boolean' ? String(v) : sig(v));

let server, browser, validation;
const artifacts = join(root, 'test-artifacts');

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve(dist);
  browser = await launch();
  validation = cliApi({ command: 'validate' });
  assert.equal(validation.ok, true);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash = '', options = {}) {
  const page = await newPage(browser, options);
  await page.goto(server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

const rowsOf = (page, selector) => page.locator(selector + ' tbody tr').evaluateAll((rows) =>
  rows.map((r) => [...r.children].map((cell) => cell.textContent.trim())));

async function openSection(page) {
  await page.click('#accuracy > summary');
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
}

test('the expected error beside a CNN estimate is the response\'s, for one device and for a cluster', async () => {
  const page = await open('#net=vgg16');  // a link of before compression: one Titan X, no cluster
  const shown = await page.evaluate(() => window.paleoResult);
  const e = shown.estimate.expected_error;
  assert.equal(e.family, 'cnn_single_gpu');
  assert.equal(e.source, 'docs/validation.md');
  assertClose(e, cliApi(shown.requests.estimate).expected_error, 0);
  const line = page.locator('#expected-error');
  assert.equal(await line.isVisible(), true);
  assert.equal(await line.textContent(), expectedErrorText(e) + ' How accurate is it?');
  assert.match(await line.textContent(), new RegExp(`within ±${(e.median_abs_error * 100).toFixed(1)} % .*up to ` +
    `±${(e.max_abs_error * 100).toFixed(1)} %`));

  // The cluster model makes it a data-parallel estimate.
  await afterUpdate(page, () => page.check('#cluster_on'));
  const cluster = (await page.evaluate(() => window.paleoResult)).estimate;
  assert.ok(cluster.cluster);
  assert.equal(cluster.expected_error.family, 'cnn_data_parallel');
  assert.equal(await line.textContent(), expectedErrorText(cluster.expected_error) + ' How accurate is it?');

  // Its link opens the section.
  await page.click('#expected-error a.open-accuracy');
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
  assert.equal(await page.locator('#accuracy').evaluate((d) => d.open), true);
  assert.deepEqual(page.errors, []);
  await assertNoAxeViolations(page, 'the accuracy section open');
  await page.close();
});

test('the expected error beside a transformer estimate is the response\'s', async () => {
  const page = await open();
  await afterUpdate(page, () => page.selectOption('#net', 'llama3_8b'));
  await page.waitForFunction(() => window.paleoResult?.transformer !== undefined);
  const shown = await page.evaluate(() => window.paleoResult);
  const e = shown.transformer.expected_error;
  assert.equal(e.family, 'transformers');
  assertClose(e, cliApi(shown.requests.estimate).expected_error, 0);
  const line = page.locator('#t-expected-error');
  assert.equal(await line.isVisible(), true);
  assert.equal(await line.textContent(), expectedErrorText(e) + ' How accurate is it?');
  assert.equal(await page.locator('#expected-error').isVisible(), false);
  await page.close();
});

test('the validation cases load with the section, not before the first result, and the page says so', async () => {
  const page = await newPage(browser);
  const loaded = [];
  page.on('requestfinished', (r) => loaded.push(new URL(r.url()).pathname));
  // The data script held back until the status was read: the page says what it is waiting for.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/data/validation.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  assert.deepEqual(loaded.filter((p) => p.startsWith('/data/')), [], 'no data file before the section opens');
  await page.click('#accuracy > summary');
  await page.waitForFunction(() => document.getElementById('accuracy-status').textContent.startsWith('Loading'));
  assert.equal(await page.locator('#accuracy').getAttribute('aria-busy'), 'true');
  release();
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
  assert.deepEqual(loaded.filter((p) => p.startsWith('/data/')), ['/data/validation.js']);
  assert.ok((await page.locator('#accuracy-status').textContent()).startsWith(`${validation.overall.cases} measured ` +
    `cases (published, and Paleo's own on Hopper), ${validation.overall.scored} scored, run in `));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a data file that cannot load is an error in the section, and opening it again retries', async () => {
  const page = await newPage(browser);
  let fail = true;
  await page.route('**/data/validation.js', (route) => (fail ? route.abort() : route.continue()));
  await page.goto(server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#accuracy > summary');
  await page.waitForSelector('#accuracy-error:not([hidden])');
  assert.match(await page.locator('#accuracy-error').textContent(), /data\/validation\.js could not be loaded/);
  fail = false;
  await page.click('#accuracy > summary');  // closed
  await page.click('#accuracy > summary');  // opened again
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
  assert.equal(await page.locator('#accuracy-error').isHidden(), true);
  await page.close();
});

test('"How accurate is it?" shows the CLI\'s validate: scatter, families and cases with their sources', async () => {
  const page = await open();
  assert.equal(await page.locator('#accuracy').evaluate((d) => d.open), false);
  assert.equal(await page.locator('#accuracy-cases tbody tr').count(), 0, 'nothing runs before the section is opened');
  await openSection(page);

  // The scatter: one point per scored case.
  // A true/false statement case (its measured is a boolean) has no error: no point.
  const scored = validation.cases.filter((c) => c.ok && c.expressible && typeof c.measured === 'number');
  assert.equal(Number(await page.locator('#accuracy-chart').getAttribute('data-points')), scored.length);
  assert.equal(scored.length, validation.overall.scored);
  assert.ok(await page.locator('#accuracy-chart canvas').count() >= 1);
  const box = await page.locator('#accuracy-chart canvas').first().boundingBox();
  assert.ok(box.width > 200 && box.height > 200, JSON.stringify(box));
  const legend = await page.locator('#accuracy-chart .u-legend .u-series .u-label').allTextContents();
  assert.deepEqual(legend.filter((l) => l !== 'measured'), validation.families.map((f) => f.family));

  // The summary per family, then overall.
  const o = validation.overall;
  assert.deepEqual(await rowsOf(page, '#accuracy-families'), [
    ...validation.families.map((f) => [f.family, String(f.cases), String(f.scored), String(f.not_expressible),
      absPercent(f.median_abs_error), absPercent(f.max_abs_error)]),
    ['overall', String(o.cases), String(o.scored), String(o.not_expressible), absPercent(o.median_abs_error),
      absPercent(o.max_abs_error)]]);

  // Every case, in the CLI's order.
  // Every case, behind its own disclosure (hundreds of rows are laid out when asked for).
  assert.equal(await page.locator('#accuracy-cases').isVisible(), false);
  assert.equal(await page.locator('#accuracy-cases tbody tr').count(), 0, 'the rows are laid out when asked for');
  await page.click('#accuracy-cases-box > summary');
  // The rows are laid out by the disclosure's toggle event, a task after the click.
  await page.waitForSelector('#accuracy-cases tbody tr');
  assert.equal(await page.locator('#accuracy-cases').isVisible(), true);
  const rows = await rowsOf(page, '#accuracy-cases');
  assert.deepEqual(rows, validation.cases.map((c) => [c.id, c.family, compareUnit(c.compare),
    c.ok ? shown(c.predicted) : 'FAILED', shown(c.measured),
    c.ok ? (typeof c.agrees === 'boolean' ? (c.agrees ? 'agrees' : 'disagrees') : signedPercent(c.error)) : c.message,
    c.expressible ? 'yes' : 'no: ' + c.why, rows.find((r) => r[0] === c.id)[7]]));
  // A published "does not fit" statement shows the model's answer beside it.
  const oom = rows.find((r) => r[0] === 'MEM-DS-GPT2-1.5B-8xV100-noZeRO-fits');
  assert.equal(oom[4], 'false');
  assert.ok(['agrees', 'disagrees'].includes(oom[5]), oom[5]);
  // OptCNN's Figure 8 compares bytes (drawn as GB on the scatter, beside the ms).
  assert.equal(rows.find((r) => r[0] === 'OPTCNN-TRAFFIC-AlexNet-2xP100-DP')[2], 'bytes');

  // Each published source is a link to the case's URL, opened without an opener; Paleo's own
  // measurements name the repository's document, as text.
  const links = await page.locator('#accuracy-cases tbody tr').evaluateAll((trs) => trs.map((tr) => {
    const a = tr.querySelector('a.source');
    return a ? { href: a.getAttribute('href'), rel: a.getAttribute('rel'), text: tr.children[7].textContent }
      : { text: tr.children[7].textContent };
  }));
  const own = validation.cases.filter((c) => c.id.startsWith('PM-'));
  assert.ok(own.length > 0 && own.every((c) => c.source_url === 'docs/measurements.md'));
  validation.cases.forEach((c, i) => {
    if (c.id.startsWith('PM-')) {
      assert.equal(links[i].href, undefined, c.id);
      assert.equal(links[i].text, 'docs/measurements.md', c.id);
      return;
    }
    const { url, note } = splitSource(c.source_url);
    assert.ok(links[i].href, c.id);
    assert.equal(links[i].href, new URL(url).href, c.id);
    assert.equal(links[i].rel, 'noopener', c.id);
    if (note) assert.ok(links[i].text.endsWith(note), c.id);
  });
  const megatron = validation.cases.findIndex((c) => c.id.startsWith('NR21-'));
  assert.equal(links[megatron].href, 'https://arxiv.org/abs/2104.04473');

  // Opened once, run once: closing and opening again keeps the answer.
  await page.click('#accuracy > summary');
  await page.click('#accuracy > summary');
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
  assert.equal(await page.locator('#accuracy').getAttribute('data-runs'), '1');

  await page.locator('#accuracy-section').screenshot({ path: join(artifacts, 'accuracy.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the section works at phone width and in the transformer view', async () => {
  const page = await open('#net=llama3_8b', { viewport: { width: 390, height: 844 } });
  await openSection(page);
  assert.equal(Number(await page.locator('#accuracy-chart').getAttribute('data-points')), validation.overall.scored);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide`);
  await page.locator('#accuracy-section').screenshot({ path: join(artifacts, 'accuracy-phone.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
