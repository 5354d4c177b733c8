// The "Training scheme" panel (docs/training-schemes.md): its request, the core's numbers and the
// comparison plot on the page, its state in the URL, and its errors next to its inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, cli, cliApi, assertClose, afterUpdate, urlStateParams, pageSession } from './helpers.mjs';

const session = pageSession();


const HASH = '#net=resnet50_v1_5&cluster_on=1&nodes=4&scheme_on=1&ts_consistency=ssp&ts_staleness=4' +
  '&ts_jitter=lognormal%3A0.2&ts_compression=topk%3A0.01&ts_slow_pct=20';

const open = session.open;

test('the panel asks the core for the scheme and its comparison and shows the core\'s numbers', async () => {
  const page = await open(HASH);
  const { request, shown } = await page.evaluate(() => ({
    request: window.paleoResult.requests.estimate, shown: window.paleoResult.estimate.training_scheme }));
  assert.deepEqual(request.training_scheme, { consistency: 'ssp', jitter: 'lognormal:0.2', compression: 'topk:0.01',
    averaging: 'none', staleness: 4, slow_worker: 0.2 });
  assert.equal(request.scheme_comparison, true);
  // The WebAssembly core gives the native core's answer.
  const native = cliApi(request).training_scheme;
  assertClose(shown, native, 1e-9);
  assert.equal(await page.locator('#scheme-section').isVisible(), true);
  const summary = await page.locator('#scheme-summary').textContent();
  assert.match(summary, /^ssp, topk sparse_allreduce, \d+ workers: step /);
  assert.ok(summary.includes(native.step_ms.toFixed(1)) || summary.includes(native.step_ms.toFixed(3)), summary);
  // Six schemes on one plot of step time and one of bytes, against the worker count.
  assert.equal(native.comparison.length, 6);
  for (const chart of ['#scheme-step-chart', '#scheme-bytes-chart']) {
    const labels = await page.locator(`${chart} .u-legend .u-series .u-label`).allTextContents();
    assert.deepEqual(labels.filter((l) => l !== 'workers'), native.comparison.map((s) => s.scheme));
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the panel\'s state is in the URL, and off means no training_scheme in the request', async () => {
  const page = await open('#net=resnet50_v1_5&cluster_on=1&nodes=2');
  assert.equal(await page.evaluate(() => 'training_scheme' in window.paleoResult.requests.estimate), false);
  assert.equal(await page.locator('#scheme-section').isVisible(), false);
  await afterUpdate(page, () => page.check('#scheme_on'));
  await afterUpdate(page, () => page.fill('#ts_compression', 'fp16'));
  assert.match(page.url(), /#z=/);
  assert.equal(urlStateParams(page.url()).get('ts_compression'), 'fp16');
  assert.equal(urlStateParams(page.url()).get('scheme_on'), '1');
  assert.equal(await page.evaluate(() => window.paleoResult.estimate.training_scheme.compression_ratio), 2);
  await page.close();
});

test('a bad compression is shown next to its input with the core\'s message', async () => {
  const page = await open('#net=resnet50_v1_5&cluster_on=1&nodes=2&scheme_on=1');
  await afterUpdate(page, () => page.fill('#ts_compression', 'zip'));
  const request = { ...(await page.evaluate(() => window.paleoResult.requests.estimate)),
    training_scheme: { consistency: 'sync', jitter: 'none', compression: 'zip', averaging: 'none' } };
  // The CLI prints the error response and exits with status 2.
  const native = JSON.parse(spawnSync(cli, ['api'], { input: JSON.stringify(request) }).stdout.toString());
  assert.equal(native.ok, false);
  assert.equal(native.error.field, 'training_scheme.compression');
  assert.equal(await page.locator('#ts_compression').getAttribute('aria-invalid'), 'true');
  const note = page.locator('#ts_compression + .field-error');
  assert.equal(await note.isVisible(), true);
  assert.ok(native.error.message.endsWith(await note.textContent()), await note.textContent());
  await page.close();
});

test('the page plots the comparison of docs/training-schemes.md: its 64-worker points are the table\'s', async () => {
  const doc = readFileSync(join(root, 'docs', 'training-schemes.md'), 'utf8');
  const hash = doc.match(/`(#net=resnet50_v1_5&[^`]+)`/)[1];
  const page = await open(hash);
  const sweeps = await page.evaluate(() => window.paleoResult.estimate.training_scheme.comparison);
  // Table rows in the comparison's order (the table has one more, sharded servers); the column
  // "step with a 20 % straggler (ms)" is the eighth cell.
  const rows = doc.split('\n').filter((l) => /^\| (synchronous|stale|asynchronous, one|top-1|fp16|local SGD)/.test(l));
  assert.equal(rows.length, sweeps.length);
  rows.forEach((row, i) => {
    const cells = row.split('|').map((c) => c.trim());
    const last = sweeps[i].points.at(-1);
    assert.equal(last.workers, 64);
    assert.equal(last.step_ms.toFixed(1), cells[8], `${sweeps[i].scheme}: ${row}`);
  });
  await page.close();
});
