// The first result: the link's estimate is the core's first answer, and the page paints its
// headline from it before the inputs are built from the presets and the schema (web/src/boot.js,
// web/src/main.js paintFirstHeadline); the first update leaves that headline as it is. The inputs
// and result sections are not parsed into the document: they go in after that headline
// (showPageBody), or at once when there is none to wait for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliApi, newPage, pageSession } from './helpers.mjs';

const session = pageSession();

// The page's formatting of milliseconds (web/src/format.js).
const ms = (v) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));

test('the headline comes from the first answer, before the inputs, and is written once', async () => {
  const page = await newPage(session.browser);
  // Every write of the headline's children, from the document's parse on.
  // The commands the page posts to its workers, in order.
  await page.addInitScript(() => {
    window.postedCommands = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message?.type === 'call') window.postedCommands.push(JSON.parse(message.json).command);
      return post.call(this, message, ...rest);
    };
  });
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    window.headlineWrites = 0;
    new MutationObserver((records) => { window.headlineWrites += records.length; })
      .observe(document.getElementById('headline'), { childList: true });
  }));
  await page.goto(session.server.url + '/#net=inception_v3&batch_size=32');
  await page.waitForSelector('body[data-ready=true]');
  const seen = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return { result: at('paleo-first-result'), presets: at('paleo-presets-ready'), writes: window.headlineWrites,
      posted: window.postedCommands.slice(0, 3),
      request: window.paleoResult.requests.estimate, step: document.getElementById('headline-step').textContent };
  });
  // The estimate first: a cold core takes about twice as long over the presets.
  assert.deepEqual(seen.posted, ['estimate', 'presets', 'schema']);
  assert.ok(seen.result !== undefined && seen.presets !== undefined, JSON.stringify(seen));
  assert.ok(seen.result < seen.presets, `the headline (${seen.result}) after the inputs (${seen.presets})`);
  assert.equal(seen.writes, 1);
  const cli = cliApi(seen.request);
  assert.equal(seen.step, ms(cli.totals.step_ms) + ' ms');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the inputs and result sections go in once the headline is painted, and at once without a headline', async () => {
  // When the form first is in the document, and whether it was when the parse ended.
  const watched = async () => {
    const page = await newPage(session.browser);
    await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
      window.formAtParseEnd = document.getElementById('inputs') !== null;
      new MutationObserver(() => {
        if (window.formAt === undefined && document.getElementById('inputs')) window.formAt = performance.now();
      }).observe(document.body, { childList: true });
    }));
    return page;
  };
  const page = await watched();
  await page.goto(session.server.url + '/#net=inception_v3');
  await page.waitForSelector('body[data-ready=true]');
  const seen = await page.evaluate(() => ({ parsed: window.formAtParseEnd, form: window.formAt,
    painted: performance.getEntriesByName('paleo-first-result-painted')[0]?.startTime }));
  assert.equal(seen.parsed, false);
  assert.ok(seen.painted !== undefined && seen.form >= seen.painted, JSON.stringify(seen));
  assert.deepEqual(page.errors, []);
  await page.close();
  // A transformer's link paints no CNN headline: its inputs come without waiting for one.
  const llm = await watched();
  await llm.goto(session.server.url + '/#net=llama3_8b');
  await llm.waitForSelector('body[data-ready=true][data-mode=transformer]');
  const first = await llm.evaluate(() => ({ parsed: window.formAtParseEnd, form: window.formAt,
    result: performance.getEntriesByName('paleo-first-result')[0]?.startTime }));
  assert.equal(first.parsed, false);
  assert.ok(first.result !== undefined && first.form < first.result, JSON.stringify(first));
  assert.deepEqual(llm.errors, []);
  await llm.close();
});

test('a page whose core cannot load says so, with its inputs in place', async () => {
  const page = await newPage(session.browser);
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(session.server.url + '/#net=inception_v3');
  await page.locator('#error').waitFor({ state: 'visible' });
  assert.match(await page.locator('#error').textContent(), /Paleo could not start: .*could not load/);
  assert.equal(await page.locator('#inputs').count(), 1);
  await page.close();
});
