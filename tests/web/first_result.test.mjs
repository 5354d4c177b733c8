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

// A fresh page at `hash`, once `ready` shows: whether the form was in the document when the parse
// ended, when it first was, and the page's first-result marks (the navigation's clock).
async function formTimes(hash, ready) {
  const page = await newPage(session.browser);
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    window.formAtParseEnd = document.getElementById('inputs') !== null;
    new MutationObserver(() => {
      if (window.formAt === undefined && document.getElementById('inputs')) window.formAt = performance.now();
    }).observe(document.body, { childList: true });
  }));
  await page.goto(session.server.url + '/' + hash);
  await page.waitForSelector(ready);
  const seen = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return { parsed: window.formAtParseEnd, form: window.formAt, result: at('paleo-first-result'),
      painted: at('paleo-first-result-painted') };
  });
  assert.deepEqual(page.errors, []);
  await page.close();
  return seen;
}

test('the inputs and result sections go in once the headline is painted, and at once without a headline', async () => {
  const cnn = await formTimes('#net=inception_v3', 'body[data-ready=true]');
  assert.equal(cnn.parsed, false);
  assert.ok(cnn.painted !== undefined && cnn.form >= cnn.painted, JSON.stringify(cnn));
  // A transformer's link paints no CNN headline: its inputs come without waiting for one.
  const llm = await formTimes('#net=llama3_8b', 'body[data-ready=true][data-mode=transformer]');
  assert.equal(llm.parsed, false);
  assert.ok(llm.result !== undefined && llm.form < llm.result, JSON.stringify(llm));
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
