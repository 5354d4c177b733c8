// The page shows the core's warnings for a CNN (docs/api.md, "Warnings") as text, and none when
// there are none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, dist, cliApi, newPage } from './helpers.mjs';

let server, browser;

before(async () => {
  server = await serve(dist);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash) {
  const page = await newPage(browser);
  await page.goto(server.url + '/' + hash);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

test('a convolution algorithm a CPU cannot use is shown as the core\'s warning', async () => {
  const page = await open('#device=CPU_I7&conv_algorithm=winograd');
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'CPU_I7', conv_algorithm: 'winograd' });
  assert.equal(cli.warnings.length, 1);
  const list = page.locator('#warnings');
  assert.equal(await list.isVisible(), true);
  assert.deepEqual(await list.locator('li').allTextContents(), cli.warnings);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('no warnings, no list', async () => {
  const page = await open('#device=TITAN_X&conv_algorithm=winograd');
  assert.equal(await page.locator('#warnings').isVisible(), false);
  assert.equal(await page.locator('#warnings li').count(), 0);
  await page.close();
});

test('a CNN precision the device lacks: priced as its fallback, with the core\'s warning; paleo2017 refuses it beside the select', async () => {
  const page = await open('#device=V100_SXM2_16GB&cnn_precision=bf16');
  const cli = cliApi({ command: 'estimate', net: 'vgg16', device: 'V100_SXM2_16GB', precision: 'bf16' });
  const expected = cli.warnings.filter((w) => w.startsWith('precision:'));
  assert.deepEqual(expected, ['precision: the device has no bf16 matrix units: products run as fp16']);
  const shown = await page.locator('#warnings li').allTextContents();
  assert.deepEqual(shown.filter((w) => w.startsWith('precision:')), expected);
  assert.match(await page.locator('#context').textContent(), /, bf16, profile paleo2026/);

  // Chosen on the page: fp32 again, then a profile that prices fp32 only.
  await page.selectOption('#cnn_precision', '');
  await page.waitForFunction(() => ![...document.querySelectorAll('#warnings li')].some((li) => li.textContent.startsWith('precision:')));
  assert.match(await page.locator('#context').textContent(), /, fp32, profile paleo2026/);
  await page.selectOption('#cnn_precision', 'fp16');
  await page.selectOption('#profile', 'paleo2017');
  const note = page.locator('#cnn_precision + .field-error');
  await note.waitFor();
  assert.match(await note.textContent(), /paleo2026 profile only/);
  assert.equal(await page.locator('#cnn_precision').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(page.errors, []);
  await page.close();
});
