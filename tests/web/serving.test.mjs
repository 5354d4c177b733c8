// End to end in headless Chromium: the transformer view's "Serve" task (docs/serving.md) answers
// as the native CLI does, field for field, shows its cards and the sweep against the load, and
// puts an error next to the input that caused it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliApi, assertClose, afterUpdate, assertNoAxeViolations, pageSession } from './helpers.mjs';
import { ms } from '../../web/src/format.js';
import { SWEEP_AXES } from '../../web/src/serving_view.js';

const session = pageSession();

// A newcomer's link: Llama 3 70B on one node of 8 H100s, TP 8, served at 32 requests in flight.
const HASH = '#net=llama3_70b&device=H100_SXM&tp=8&t_nodes=1&t_per_node=8&t_task=serve&s_concurrency=32' +
  '&prompt_len=2048&generate_len=256';

async function open(hash) {
  const page = await session.open(hash);
  await page.waitForFunction(() => window.paleoResult?.transformer?.serving !== undefined);
  return page;
}

const shown = (page) => page.evaluate(() => window.paleoResult);

async function card(page, label) {
  const exact = page.locator('.label', { hasText: new RegExp(`^${label}$`) });
  return page.locator('#s-cards .card').filter({ has: exact }).locator('.value').textContent();
}

test('the serving view equals the CLI field for field, with its cards and the sweep', async () => {
  const page = await open(HASH);
  const { requests, transformer } = await shown(page);
  const request = requests.inference;
  assert.equal(request.command, 'inference');
  assert.equal(request.concurrency, 32);
  assert.equal(request.tp, 8);
  assertClose(transformer, cliApi(request), 1e-12);
  const s = transformer.serving;
  assert.equal(await card(page, 'Time to first token'), ms(s.ttft_ms) + ' ms');
  assert.equal(await card(page, 'Time per output token'), ms(s.tpot_ms) + ' ms');
  // The training parts are hidden; the sweep draws its chart.
  assert.equal(await page.locator('#t-step').isVisible(), false);
  assert.equal(await page.locator('#layers-section').isVisible(), false);
  await page.waitForSelector('#s-sweep canvas');
  // Speculative decoding off: the box says 0, not nothing.
  assert.equal(await page.inputValue('#draft_tokens'), '0');
  // The y axis's label is drawn along the plot's height, in the axis font (charts.js): it fits.
  const fit = await page.evaluate((label) => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = '12px system-ui, sans-serif';
    return { label: ctx.measureText(label).width, plot: document.querySelector('#s-sweep .u-over').clientHeight };
  }, SWEEP_AXES.y);
  assert.ok(fit.label > 0 && fit.label <= fit.plot, `label ${fit.label} px, plot ${fit.plot} px`);
  assert.deepEqual(page.errors, []);
  await assertNoAxeViolations(page, 'serving view');
  await page.close();
});

test('a change re-estimates, a request rate is solved for, and an error is marked at its input', async () => {
  const page = await open(HASH);
  await afterUpdate(page, () => page.fill('#s_concurrency', '64'));
  assert.equal((await shown(page)).requests.inference.concurrency, 64);
  // Today's engines by default (the core's): unticked, the request says so and the answer is the CLI's.
  assert.equal(await page.isChecked('#s_cuda_graphs'), true);
  assert.equal(await page.isChecked('#s_mixed_steps'), true);
  await afterUpdate(page, () => page.uncheck('#s_cuda_graphs'));
  const eager = await shown(page);
  assert.equal(eager.requests.inference.cuda_graphs, false);
  assert.equal(eager.transformer.serving.cuda_graphs, false);
  assertClose(eager.transformer, cliApi(eager.requests.inference), 1e-12);
  await afterUpdate(page, () => page.uncheck('#s_mixed_steps'));
  assert.equal((await shown(page)).transformer.serving.mixed_steps, false);
  await afterUpdate(page, () => page.selectOption('#s_load', 'request_rate'));
  const rate = await shown(page);
  assert.equal(rate.requests.inference.request_rate, 4);
  assert.ok(Math.abs(rate.transformer.serving.total_requests_per_s - 4) < 1e-6);
  await afterUpdate(page, () => page.fill('#draft_tokens', '4'));
  await afterUpdate(page, () => page.fill('#acceptance_rate', '2'));
  await page.waitForSelector('#acceptance_rate[aria-invalid=true]');
  await page.close();
});
