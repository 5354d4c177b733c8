// Offline after the first visit (web/src/offline_worker.js, registered by web/src/offline.js): a
// page visited once over http gives the same first result with the network gone, and a section
// whose files it fetched once (the validation cases and the full module) opens offline too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, pageSession } from './helpers.mjs';

const session = pageSession();

test('a page visited once works offline: the same headline, the accuracy section it opened', async () => {
  const page = await newPage(session.browser, { serviceWorkers: 'allow' });
  await page.goto(session.server.url + '/#net=inception_v3&batch_size=32');
  await page.waitForSelector('body[data-ready=true]');
  // The worker installed and serving this page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const online = await page.locator('#headline-step').textContent();
  await page.click('#accuracy > summary');
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
  const cases = await page.locator('#accuracy-chart').getAttribute('data-points');
  await page.context().setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.locator('#headline-step').textContent(), online);
  await page.click('#accuracy > summary');
  await page.waitForSelector('#accuracy-chart[data-points] canvas');
  assert.equal(await page.locator('#accuracy-chart').getAttribute('data-points'), cases);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the worker keeps the first view\'s files in a cache named after them, the full module only once fetched', async () => {
  const page = await newPage(session.browser, { serviceWorkers: 'allow' });
  await page.goto(session.server.url + '/');
  await page.waitForSelector('body[data-ready=true]');
  await page.evaluate(() => navigator.serviceWorker.ready);
  const keys = await page.evaluate(() => caches.keys());
  assert.equal(keys.length, 1);
  assert.match(keys[0], /^paleo-[0-9a-f]{16}$/);
  const kept = await page.evaluate(async (key) => (await (await caches.open(key)).keys()).map((r) => new URL(r.url).pathname), keys[0]);
  for (const file of ['/', '/index.html', '/boot.js', '/app.js', '/paleo-estimate.wasm', '/worker-estimate.js']) assert.ok(kept.includes(file), file);
  assert.ok(!kept.includes('/paleo.wasm'), 'the full module is kept only once a section fetched it');
  await page.close();
});
