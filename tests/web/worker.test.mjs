// The core off the main thread, in headless Chromium: estimates, searches, plans and the validation
// suite run in the page's Web Workers; a search shows its progress and is cancelled by a newer
// one; an input the requests do not depend on is answered from the cache; and no main-thread task
// runs longer than 50 ms while the test drives the page (the middle of three drives).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, afterUpdate, cliApi, assertClose, pageSession, openLayers } from './helpers.mjs';

const session = pageSession();


// Before the page's scripts: every state the search section goes through.
function watch() {
  window.__searchStates = [];
  new MutationObserver(() => {
    const state = document.getElementById('search-section')?.dataset.state;
    if (state && state !== window.__searchStates.at(-1)) window.__searchStates.push(state);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
}

async function open(hash) {
  const page = await newPage(session.browser);
  await page.addInitScript(watch);
  await page.goto(session.server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

const setHash = (page, hash) => afterUpdate(page, () => page.evaluate((h) => { location.hash = h; }, hash));
const searchRequest = (net, devices, batch) => ({ command: 'search', net, device: 'TITAN_X', profile: 'paleo2026',
  batch_size: batch, devices, devices_per_node: 4 });

test('a newer search cancels the running one: its worker is replaced, and its answer never comes', async () => {
  const page = await open('#net=alex_v2');
  // Both in one task of the page: the first is still running in the worker when the second comes.
  const outcome = await page.evaluate(async ([heavy, light]) => {
    const core = window.paleoCore;
    const stopped = core.stats.stopped;
    const first = core.call(heavy, { lane: 'slow', key: 'test-search', cache: false })
      .then((r) => ({ answered: r.ok }), (e) => ({ rejected: e.name }));
    const second = core.call(light, { lane: 'slow', key: 'test-search', cache: false });
    return { first: await first, second: await second, stopped: core.stats.stopped - stopped };
  }, [searchRequest('inception_v3', 256, 32), searchRequest('alex_v2', 16, 32)]);
  assert.deepEqual(outcome.first, { rejected: 'Cancelled' });
  assert.equal(outcome.stopped, 1);
  assertClose(outcome.second, cliApi(searchRequest('alex_v2', 16, 32)), 1e-12);
  await page.close();
});

test('the page\'s search shows progress, ends with the latest inputs\' answer, and unrelated inputs reuse it', async () => {
  const page = await open('#net=inception_v3&batch_size=32');
  await setHash(page, '#net=inception_v3&batch_size=32&search_on=1&search_devices=64&search_per_node=4');
  await page.waitForFunction(() => window.__searchStates.includes('running'));
  // A newer input while it runs: the 16-device search replaces it.
  await setHash(page, '#net=inception_v3&batch_size=32&search_on=1&search_devices=16&search_per_node=4');
  await page.waitForSelector('#search-section[data-state=done]', { timeout: 60000 });
  const cli = cliApi(searchRequest('inception_v3', 16, 32));
  const shown = await page.evaluate(() => window.paleoResult.search);
  assert.equal(shown.devices, 16);
  assertClose(shown, cli, 1e-12);
  assert.match(await page.locator('#search-summary').textContent(), new RegExp(`^16 devices \\(4 per node\\)`));
  const states = await page.evaluate(() => window.__searchStates);
  assert.equal(states[0], 'running');
  assert.equal(states.at(-1), 'done');
  assert.ok(!states.slice(0, -1).includes('done') || states.indexOf('done') > states.indexOf('running'), states.join());

  // The price and the epochs enter the estimate's request only (the core prices the time to
  // train): one estimate each, and the search on screen stays (not searched again).
  const posted = await page.evaluate(() => window.paleoCore.stats.posted);
  const searched = await page.locator('#search-status').textContent();
  await afterUpdate(page, () => page.fill('#price', '2.5'));
  await afterUpdate(page, () => page.fill('#epochs', '30'));
  assert.equal(await page.evaluate(() => window.paleoCore.stats.posted), posted + 2);
  assert.equal(await page.locator('#search-section').getAttribute('data-state'), 'done');
  assert.equal(await page.locator('#search-status').textContent(), searched);
  assert.match(await page.locator('#train-summary').textContent(), /^30 epochs/);
  // Back to an input the estimate depends on: one request, the estimate's (the search is cached).
  await afterUpdate(page, () => page.selectOption('#optimizer', 'adam'));
  assert.equal(await page.evaluate(() => window.paleoCore.stats.posted), posted + 3);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The main thread's tasks while the test drives the page, from a trace of the browser: each task's
// time on the processor (thread time: what the page made the thread do, its scripts, style,
// layout and paint), which other processes on a busy machine do not stretch as they stretch wall
// time. bench/browser_timing.mjs reports the wall-time long tasks (PerformanceObserver 'longtask').
async function mainThreadTasks(page, drive) {
  const browserOfPage = page.context().browser();
  await browserOfPage.startTracing(page, { categories: ['disabled-by-default-devtools.timeline', 'devtools.timeline'] });
  await drive();
  const events = JSON.parse((await browserOfPage.stopTracing()).toString()).traceEvents;
  const pid = events.find((e) => e.name === 'FunctionCall' && String(e.args?.data?.url).startsWith(session.server.url))?.pid;
  const tid = events.find((e) => e.pid === pid && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid;
  assert.ok(pid !== undefined && tid !== undefined, 'no trace of the page\'s main thread');
  return events.filter((e) => e.pid === pid && e.tid === tid && e.name === 'RunTask' && e.ph === 'X' && e.tdur !== undefined)
    .map((e) => ({ thread_ms: e.tdur / 1e3, wall_ms: e.dur / 1e3 }));
}

// One drive of the page, as a user goes through it: its main-thread tasks.
async function drive() {
  const page = await open('#net=inception_v3');
  await openLayers(page);
  await page.waitForTimeout(300);  // the load is not an interaction
  const tasks = await mainThreadTasks(page, async () => {
    for (const batch of [16, 24, 48]) await afterUpdate(page, () => page.fill('#batch_size', String(batch)));
    await afterUpdate(page, () => page.check('#search_on'));
    await afterUpdate(page, () => page.fill('#search_devices', '64'));
    await page.waitForSelector('#search-section[data-state=done]', { timeout: 60000 });
    await page.click('#layers thead th:nth-child(6) button');
    await afterUpdate(page, () => page.check('#cluster_on'));
    await afterUpdate(page, () => page.check('#compare_on'));
    await page.click('#accuracy summary');
    await page.waitForFunction(() => document.getElementById('accuracy').dataset.runs === '1');
    await afterUpdate(page, () => page.selectOption('#net', 'llama3_8b'));
    await page.waitForFunction(() => window.paleoResult?.transformer !== undefined);
    await page.click('#plan-run');
    await page.waitForSelector('#plan-table tbody tr');
    await afterUpdate(page, () => page.selectOption('#net', 'vgg16'));
    await page.waitForTimeout(300);
  });
  assert.ok(tasks.length > 100, `only ${tasks.length} tasks traced`);
  assert.deepEqual(page.errors, []);
  await page.close();
  return tasks.sort((a, b) => b.thread_ms - a.thread_ms);
}

// Three drives, and the middle one of them by its longest task is held to 50 ms: a task that takes
// that long at every drive fails the test, a stall of a drive's own (a busy machine taking the
// processor core the page shares with its workers) does not.
test('no main-thread task takes 50 ms while the page is driven: estimates, search, sort, accuracy, transformer, ' +
  'planner', async () => {
  const drives = [];
  for (let i = 0; i < 3; ++i) drives.push(await drive());
  drives.sort((a, b) => a[0].thread_ms - b[0].thread_ms);
  const long = drives[1].filter((t) => t.thread_ms > 50);
  assert.deepEqual(long, [], `longest of each drive: ${JSON.stringify(drives.map((tasks) => tasks.slice(0, 3)))}`);
});
