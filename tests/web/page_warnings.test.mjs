// The page shows the core's warnings for a CNN (docs/api.md, "Warnings") as text, and none when
// there are none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliApi, newPage, pageSession } from './helpers.mjs';

const session = pageSession();


const open = session.open;

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
  // The kernels' own times, as a benchmark loop measures them: the CLI's for the page's request.
  await page.selectOption('#timing', 'kernel');
  await page.waitForFunction(() => window.paleoResult?.requests?.estimate?.timing === 'kernel');
  const timed = await page.evaluate(() => window.paleoResult);
  assert.equal(timed.estimate.totals.step_ms, cliApi(timed.requests.estimate).totals.step_ms);
  await page.selectOption('#cnn_precision', 'fp16');
  await page.selectOption('#profile', 'paleo2017');
  const note = page.locator('#cnn_precision + .field-error');
  await note.waitFor();
  assert.match(await note.textContent(), /paleo2026 profile only/);
  assert.equal(await page.locator('#cnn_precision').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a custom device starts from the device chosen before; a bad value is the core\'s error beside its input', async () => {
  const page = await open('#device=V100_SXM2_16GB');
  assert.equal(await page.locator('#custom-device').isVisible(), false);
  const before = await page.evaluate(() => window.paleoResult.estimate.totals.step_ms);
  await page.selectOption('#device', 'custom');
  await page.locator('#custom-device').waitFor();
  // The V100's numbers, from its preset: the same estimate under the new name.
  assert.equal(await page.locator('#cd_fp32_tflops').inputValue(), '15.7');
  assert.equal(await page.locator('#cd_fp16_tflops').inputValue(), '125');
  assert.equal(await page.locator('#cd_bf16_tflops').inputValue(), '0');
  assert.equal(await page.locator('#cd_generation').inputValue(), 'volta');
  await page.waitForFunction(() => window.paleoResult.estimate.device.name.endsWith('(edited)'));
  assert.equal(await page.evaluate(() => window.paleoResult.estimate.totals.step_ms), before);
  // Emptied, a number is 0 (here: no fp16 units, so the V100's products run on its CUDA cores).
  await page.fill('#cd_fp16_tflops', '');
  await page.waitForFunction(() => window.paleoResult.requests.estimate.device.peak_tensor_gflops === undefined);
  // A bandwidth of 0 is out of the core's range: its message beside the bandwidth input.
  await page.fill('#cd_bandwidth_gbps', '0');
  const note = page.locator('#cd_bandwidth_gbps + .field-error');
  await note.waitFor();
  assert.match(await note.textContent(), /mem_bandwidth_gb_per_s/);
  // Doubled, the device is faster, and the link keeps it.
  await page.fill('#cd_bandwidth_gbps', '1800');
  await page.waitForFunction(() => !document.querySelector('#cd_bandwidth_gbps + .field-error'));
  const link = await page.evaluate(() => location.hash);
  const again = await open(link);
  assert.equal(await again.locator('#cd_bandwidth_gbps').inputValue(), '1800');
  assert.equal(await again.locator('#context').textContent(), await page.locator('#context').textContent());
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
  await again.close();
  await page.close();
});

test("a preset's streaming measurement comes with its custom copy, and a rate above the bandwidth is refused beside it", async () => {
  const page = await open('#device=H100_SXM');
  await page.selectOption('#device', 'custom');
  await page.locator('#custom-device').waitFor();
  // presets/devices.json: the H100 SXM's measured 2,988 GB/s, sent with the copy.
  assert.equal(await page.locator('#cd_stream_gbps').inputValue(), '2988');
  await page.waitForFunction(() => window.paleoResult.requests.estimate.device.stream_bandwidth_gb_per_s === 2988);
  // Below the measured stream, the bandwidth makes the measurement impossible: the core's message
  // beside the streaming input.
  await page.fill('#cd_bandwidth_gbps', '2000');
  const note = page.locator('#cd_stream_gbps + .field-error');
  await note.waitFor();
  assert.match(await note.textContent(), /stream_bandwidth_gb_per_s/);
  // 0: not measured, nothing sent.
  await page.fill('#cd_stream_gbps', '0');
  await page.waitForFunction(() => !document.querySelector('#cd_stream_gbps + .field-error'));
  await page.waitForFunction(() => window.paleoResult.requests.estimate.device.stream_bandwidth_gb_per_s === undefined);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a custom device stays when a transformer is picked, and prices it', async () => {
  const page = await open('#device=custom&cd_name=Mine&cd_bf16_tflops=500');
  await page.selectOption('#net', 'llama3_8b');
  await page.waitForSelector('body[data-mode=transformer]');
  assert.equal(await page.locator('#device').inputValue(), 'custom');
  assert.equal(await page.locator('#custom-device').isVisible(), true);
  // The transformer's estimate names the device it priced: the custom one, at its own bf16 peak,
  // in its preset's node (the DGX H100's links, not the PCIe of a device no preset is built of),
  // as the CLI prices the page's request.
  await page.waitForFunction(() => document.body.textContent.includes('× Mine'));
  const shown = await page.evaluate(() => window.paleoResult);
  assert.equal(shown.requests.estimate.cluster, 'dgx_h100_ndr');
  const cli = cliApi(shown.requests.estimate);
  assert.equal(cli.ok, true, JSON.stringify(cli.error));
  assert.equal(cli.peak_tflops_per_gpu, 500);
  assert.equal(shown.transformer.step_ms, cli.step_ms);
  assert.deepEqual(page.errors, []);
  await page.close();
});
