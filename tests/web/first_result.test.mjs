// The first result: the link's estimate is the core's first answer, and the page paints its
// headline from it before the inputs are built from the presets and the schema (web/src/boot.js,
// web/src/main.js paintFirstHeadline); the first update leaves that headline as it is.
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
