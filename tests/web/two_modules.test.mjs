// The page's two WebAssembly modules (web/src/core_client.js, docs/web.md "Two modules"): it starts
// on the estimate-only module and fetches the full one only when a section needs a command or an
// importer the small one lacks, saying so while it loads. Answers are the CLI's from either.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, dist, root, cliApi, assertClose, newPage, afterUpdate, openLayers } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await serve(dist);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// A page that records the paths it requests, its workers' included.
async function recordedPage() {
  const page = await newPage(browser);
  page.paths = [];
  page.on('request', (r) => page.paths.push(new URL(r.url()).pathname));
  return page;
}

// The full module's request held until release(): what the page shows meanwhile can be read.
async function holdFullModule(page) {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/paleo.wasm', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const fullModuleFetches = (page) => page.paths.filter((p) => p === '/paleo.wasm' || p === '/worker.js').length;

test('the first result comes from the estimate-only module: the full module is not fetched', async () => {
  const page = await recordedPage();
  await page.goto(server.url + '/#net=inception_v3&batch_size=32');
  await page.waitForSelector('body[data-ready=true]');
  assert.ok(page.paths.includes('/paleo-estimate.wasm'), page.paths.join());
  assert.ok(page.paths.includes('/worker-estimate.js'), page.paths.join());
  assert.equal(fullModuleFetches(page), 0, page.paths.join());
  // Its answer is the CLI's, to the request the page sent (the per-layer table closed: left out).
  let shown = await page.evaluate(() => ({ request: window.paleoResult.requests.estimate,
    totals: window.paleoResult.estimate.totals }));
  assertClose(shown.totals, cliApi(shown.request).totals, 1e-12);
  // The per-layer table opened: the small module answers that too.
  await openLayers(page);
  shown = await page.evaluate(() => ({ request: window.paleoResult.requests.estimate,
    totals: window.paleoResult.estimate.totals, layers: window.paleoResult.estimate.layers.length }));
  const cli = cliApi(shown.request);
  assertClose(shown.totals, cli.totals, 1e-12);
  assert.equal(shown.layers, cli.layers.length);
  assert.equal(fullModuleFetches(page), 0, page.paths.join());
  // Another estimate (a transformer too) still needs no full module.
  await afterUpdate(page, () => page.evaluate(() => { location.hash = '#net=llama3_8b'; }));
  await page.waitForSelector('body[data-mode=transformer]');
  assert.equal(fullModuleFetches(page), 0, page.paths.join());
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('"How accurate is it?" loads the full module, says so meanwhile, and shows the CLI\'s validate', async () => {
  const page = await recordedPage();
  const release = await holdFullModule(page);
  await page.goto(server.url + '/#net=alex_v2');
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#accuracy > summary');
  await page.waitForFunction(() => /^Loading the full model \(\d+ KB\) and the validation cases…$/
    .test(document.getElementById('accuracy-status').textContent));
  assert.equal(await page.locator('#accuracy').getAttribute('aria-busy'), 'true');
  release();
  await page.waitForSelector('#accuracy-chart[data-points] canvas', { timeout: 60000 });
  const validation = cliApi({ command: 'validate' });
  assert.ok((await page.locator('#accuracy-status').textContent()).startsWith(`${validation.overall.cases} measured cases`));
  assert.equal(page.paths.filter((p) => p === '/paleo.wasm').length, 1);
  // Estimates keep their answers (and their module): a batch change is the CLI's still.
  await afterUpdate(page, () => page.fill('#batch_size', '48'));
  const shown = await page.evaluate(() => ({ request: window.paleoResult.requests.estimate,
    totals: window.paleoResult.estimate.totals }));
  assertClose(shown.totals, cliApi(shown.request).totals, 1e-12);
  assert.equal(page.paths.filter((p) => p === '/paleo.wasm').length, 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an imported net loads the full module, which reads it: the net\'s line says so meanwhile', async () => {
  const page = await recordedPage();
  const release = await holdFullModule(page);
  await page.goto(server.url + '/#net=alex_v2');
  await page.waitForSelector('body[data-ready=true]');
  await page.setInputFiles('#spec-file', join(root, 'tests', 'data', 'caffe', 'resnet50.prototxt'));
  await page.waitForFunction(() => /^Loading the full model \(\d+ KB\) to read the imported net…$/
    .test(document.getElementById('net-info').textContent));
  await afterUpdate(page, release);
  assert.match(await page.locator('#net-info').textContent(), /^Imported Caffe prototxt/);
  const shown = await page.evaluate(() => ({ request: window.paleoResult.requests.estimate,
    totals: window.paleoResult.estimate.totals }));
  assert.equal(shown.request.net.prototxt, readFileSync(join(root, 'tests', 'data', 'caffe', 'resnet50.prototxt'), 'utf8'));
  assertClose(shown.totals, cliApi(shown.request).totals, 1e-12);
  assert.equal(page.paths.filter((p) => p === '/paleo.wasm').length, 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The estimate-only module leaves out the presets' provenance in words (cmake/compact_presets.mjs,
// --drop-provenance): its `presets` is the CLI's without the devices', links', clusters',
// interconnects' and software presets' sources and notes, every key and number the same.
test('the first module\'s presets are the CLI\'s without their provenance in words', async () => {
  const page = await recordedPage();
  await page.goto(server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  const shown = await page.evaluate(() => window.paleoBoot.firstPresets);
  const cli = cliApi({ command: 'presets' });
  const lists = ['devices', 'links', 'clusters', 'interconnects', 'software'];
  for (const list of lists) assert.ok(cli[list].every((e) => e.sources), `the CLI's ${list} carry sources`);
  const withoutProvenance = { ...cli };
  for (const list of lists)
    withoutProvenance[list] = cli[list].map((entry) => {
      const rest = { ...entry };
      delete rest.sources;
      delete rest.notes;
      return rest;
    });
  assert.deepEqual(shown, withoutProvenance);
  assert.ok(cli.prices.every((p) => p.sources), 'the prices keep theirs: the page prints them');
  assert.equal(fullModuleFetches(page), 0, page.paths.join());
  await page.close();
});
