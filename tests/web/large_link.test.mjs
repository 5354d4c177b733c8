// A link of a large pasted net (web/src/state.js readLink, web/src/spec_box.js): the page reads it
// in slices and keeps the long spec out of the closed spec box, and still shows exactly the state
// the link holds: the net priced as the CLI prices it, the other inputs, the spec box's text once
// opened, and an edit elsewhere that keeps the net. (How long the page's tasks take on a 1 MB
// link is measured by bench/link_timing.mjs, not asserted here.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { cliApi, newPage, afterUpdate, pageSession, reluChainLayers } from './helpers.mjs';

const session = pageSession();

// A chain of 9,000 ReLU layers with random names (under the core's 10,000-layer limit): about
// 0.7 MB of spec and a link of about 230 KB. Compressed with Node's zlib, independently of
// the page's fflate.
const layers = reluChainLayers(9000, [4, 16]);
const spec = JSON.stringify({ name: 'long chain', layers });
const params = new URLSearchParams({ spec, device: 'V100_SXM2_16GB', batch_size: '8', workers: '1,2,4' });
const hash = '#z=' + deflateRawSync(Buffer.from(params.toString()), { level: 9 }).toString('base64url');

test('a large link loads the state it holds, and the spec box shows the net when opened', async () => {
  assert.ok(hash.length > 200000, `${hash.length} characters`);
  const page = await newPage(session.browser);
  page.setDefaultTimeout(60000);
  await page.goto(session.server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  const shown = await page.evaluate(() => ({ request: window.paleoResult.requests.estimate,
    estimate: window.paleoResult.estimate, device: document.getElementById('device').value,
    batch: document.getElementById('batch_size').value, workers: document.getElementById('workers').value }));
  assert.deepEqual(shown.request.net, JSON.parse(spec));
  assert.equal(shown.request.device, 'V100_SXM2_16GB');
  assert.equal(shown.request.batch_size, 8);
  // The link's workers stay in the input; the PALEO 2017 sections closed, the request leaves them out.
  assert.equal(shown.request.workers, undefined);
  assert.deepEqual([shown.device, shown.batch, shown.workers], ['V100_SXM2_16GB', '8', '1,2,4']);
  assert.equal(shown.estimate.ok, true);
  assert.equal(shown.estimate.net.layer_count, 9001);
  const cli = cliApi(shown.request);
  assert.equal(shown.estimate.totals.forward_flops, cli.totals.forward_flops);
  assert.equal(shown.estimate.totals.forward_ms, cli.totals.forward_ms);

  // Another input changed while the box is closed: the net stays in the request and the link.
  await afterUpdate(page, () => page.fill('#batch_size', '16'));
  const after = await page.evaluate(() => window.paleoResult.requests.estimate);
  assert.equal(after.batch_size, 16);
  assert.deepEqual(after.net, JSON.parse(spec));
  // The spec box, opened, holds the net's text as the link gave it.
  await page.locator('#spec-box summary').click();
  await page.waitForFunction((n) => document.getElementById('spec').value.length === n, spec.length);
  assert.equal(await page.locator('#spec').inputValue(), spec);
  assert.deepEqual(page.errors, []);
  await page.close();
});
