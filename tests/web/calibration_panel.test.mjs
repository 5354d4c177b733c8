// The calibration panel (docs/calibration.md on the page): measured layer times pasted as CSV are
// fitted by the core's `calibrate` in the worker; the profile it returns recovers the efficiencies
// the times were generated with, and applied to the page it prices the estimate as the CLI does
// with that profile, in the link too. A pasted profile is applied as it is; a bad row is the core's
// error, named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliApi, newPage, pageSession } from './helpers.mjs';

const session = pageSession();

// The page at `hash`, its calibration section open.
async function open(hash) {
  const page = await session.open(hash);
  await page.locator('#calibration-box summary').click();
  return page;
}

// VGG-16 at batch 32 on a Titan X, the scenario of the link below, priced with known efficiencies:
// the "measurements" to recover them from.
const SCENARIO = { net: 'vgg16', device: 'TITAN_X', batch_size: 32 };
const TRUE = { conv_ceiling: 0.6, memory_fraction: 0.4, kernel_overhead_ms: 0.05 };
const LAYERS = ['conv1-2', 'conv2-2', 'conv3-3', 'conv4-3', 'conv5-3', 'fc6', 'fc7', 'pool2'];

function measuredCsv() {
  const truth = cliApi({ command: 'layers', ...SCENARIO, efficiency: TRUE });
  assert.equal(truth.ok, true, JSON.stringify(truth.error));
  const rows = ['layer,pass,measured_ms'];
  for (const name of LAYERS) {
    const layer = truth.layers.find((l) => l.name === name);
    rows.push(`${name},forward,${layer.forward.total_ms}`, `${name},backward,${layer.backward.total_ms}`);
  }
  return rows.join('\n');
}

test('pasted layer times: the fit recovers their efficiencies, and the applied profile prices the page as the CLI does', async () => {
  const page = await open('#net=vgg16&device=TITAN_X&batch_size=32');
  await page.fill('#cal-text', measuredCsv());
  await page.click('#cal-run');
  await page.waitForSelector('#calibration-section[data-state=done]', { timeout: 60000 });
  const fitted = await page.locator('#cal-parameters tbody tr').evaluateAll((rows) =>
    Object.fromEntries(rows.map((r) => [r.cells[0].textContent, Number(r.cells[2].textContent)])));
  for (const [name, value] of Object.entries(TRUE)) assert.ok(Math.abs(fitted[name] - value) < 1e-2, `${name} ${fitted[name]}`);
  assert.match(await page.locator('#cal-summary').textContent(), /16 measurements fitted/);
  assert.equal(await page.locator('#cal-rows tbody tr').count(), 16);

  await page.click('#cal-apply');
  await page.waitForFunction(() => window.paleoResult?.requests?.estimate?.efficiency !== undefined);
  const shown = await page.evaluate(() => window.paleoResult);
  const profile = shown.requests.estimate.efficiency;
  assert.ok(Math.abs(profile.conv_ceiling - TRUE.conv_ceiling) < 1e-2);
  const cli = cliApi(shown.requests.estimate);
  assert.equal(shown.estimate.totals.step_ms, cli.totals.step_ms);
  const unprofiled = { ...shown.requests.estimate };
  delete unprofiled.efficiency;
  delete unprofiled.software_era;
  assert.notEqual(cliApi(unprofiled).totals.step_ms, cli.totals.step_ms);
  assert.match(await page.locator('#cal-applied').textContent(), /conv_ceiling/);

  // The link keeps it; removing it prices the era's efficiencies again.
  const again = await newPage(session.browser);
  await again.goto(session.server.url + '/' + await page.evaluate(() => location.hash));
  await again.waitForSelector('body[data-ready=true]');
  assert.deepEqual((await again.evaluate(() => window.paleoResult)).requests.estimate.efficiency, profile);
  await again.close();
  await page.click('#cal-remove');
  await page.waitForFunction(() => window.paleoResult?.requests?.estimate?.efficiency === undefined);
  assert.equal(await page.locator('#cal-applied').isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a pasted profile is applied as it is; a row naming no layer is the core\'s error', async () => {
  const page = await open('#net=vgg16&device=TITAN_X&batch_size=32');
  await page.fill('#cal-text', 'layer,pass,measured_ms\nconv9-9,forward,1.5\n');
  await page.click('#cal-run');
  await page.waitForSelector('#calibration-section[data-state=failed]');
  assert.match(await page.locator('#cal-error').textContent(), /measurements\[0\].*no layer 'conv9-9'/);

  await page.fill('#cal-text', JSON.stringify({ efficiency: { conv_ceiling: 0.3 } }));
  await page.click('#cal-run');
  await page.waitForFunction(() => window.paleoResult?.requests?.estimate?.efficiency?.conv_ceiling === 0.3);
  const shown = await page.evaluate(() => window.paleoResult);
  assert.equal(shown.estimate.totals.step_ms, cliApi(shown.requests.estimate).totals.step_ms);

  // A PPP pair chosen over the applied profile: the core refuses both at once, and the page says so
  // beside the profile's box, opened.
  await page.locator('#calibration-box summary').click();  // closed
  await page.selectOption('#software', 'tensorflow');
  const note = page.locator('#cal-text + .field-error');
  await note.waitFor();
  assert.match(await note.textContent(), /software era replaces the PPP/);
  assert.equal(await page.locator('#calibration-box').getAttribute('open'), '');
  assert.deepEqual(page.errors, []);
  await page.close();
});
