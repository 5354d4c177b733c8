// End to end in headless Chromium: the page's transformer view (presets, pasted and uploaded
// configs, errors next to their inputs, the memory bar, the planner) against the native CLI.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, cliApi, assertClose, newPage, afterUpdate, assertNoAxeViolations, pageSession, openLayers } from './helpers.mjs';
import { bytes, count, ms } from '../../web/src/format.js';
import { TRANSFORMER_DEFAULTS, planRequest } from '../../web/src/transformer_request.js';

const session = pageSession();
const artifacts = join(root, 'test-artifacts');
const hfConfig = join(root, 'tests', 'data', 'hf', 'Meta-Llama-3-8B.config.json');

before(() => {
  mkdirSync(artifacts, { recursive: true });
});

const percent = (v) => (v * 100).toFixed(1) + '%';
const result = (page) => page.evaluate(() => window.paleoResult);

const open = session.open;

async function card(page, label) {
  const exact = page.locator('.label', { hasText: new RegExp(`^${label}$`) });
  return page.locator('#t-cards .card').filter({ has: exact }).locator('.value').textContent();
}

// The page's link opened afresh keeps input `id` at `value` and prices as `cli`; closes both pages.
async function assertLinkKeeps(page, id, value, cli) {
  const again = await open(new URL(page.url()).hash);
  assert.equal(await again.locator('#' + id).inputValue(), value);
  assertClose((await result(again)).transformer, cli, 1e-12);
  assert.deepEqual(page.errors, []);
  await again.close();
  await page.close();
}

// The newcomer's path: the default page, then Llama 3 8B from the picker.
async function llama(options) {
  const page = await open('', options);
  const start = Date.now();
  await afterUpdate(page, () => page.selectOption('#net', 'llama3_8b'));
  await page.waitForFunction(() => window.paleoResult?.transformer !== undefined);
  page.pickMs = Date.now() - start;
  return page;
}

// The request the page's inputs stand for, written out here (docs/api.md).
async function expectedRequest(page, net) {
  const tp = Number(await page.locator('#tp').inputValue());
  return { command: 'estimate', net, device: 'H100_SXM', nodes: 1, devices_per_node: 8, precision: 'bf16', tp, pp: 1, cp: 1,
    sequence_parallel: tp > 1, schedule: '1f1b', micro_batch: 1, global_batch: 64, recompute: 'selective', zero: 1,
    attention: 'flash', seq_len: 8192, train_tokens: 1e12, price_per_gpu_hour: 'aws_p5_h100_capacity_block' };
}

test('picking Llama 3 8B gives 8 x H100 bf16 defaults and the CLI\'s step time, tokens/s and MFU', async () => {
  const page = await llama();
  assert.ok(page.pickMs < 5000, `the first estimate took ${page.pickMs} ms`);
  const option = page.locator('#net optgroup[label="Transformers and LLMs"] option[value=llama3_8b]');
  assert.equal(await option.textContent(), 'Llama 3 8B (Meta 2024)');
  for (const [id, value] of [['device', 'H100_SXM'], ['t_nodes', '1'], ['t_per_node', '8'], ['precision', 'bf16'],
    ['seq_len', '8192'], ['global_batch', '64'], ['recompute', 'selective'], ['attention', 'flash']]) {
    assert.equal(await page.locator('#' + id).inputValue(), value, id);
  }
  assert.ok(['1', '2', '4', '8'].includes(await page.locator('#tp').inputValue()));
  const request = await expectedRequest(page, 'llama3_8b');
  const shown = await result(page);
  assert.deepEqual(shown.requests.estimate, request);
  const cli = cliApi(request);
  assert.equal(cli.ok, true, JSON.stringify(cli.error));
  assertClose(shown.transformer, cli, 1e-12);
  assert.equal(cli.fits, true, 'the starting layout fits');
  assert.equal(await card(page, 'Step'), ms(cli.step_ms) + ' ms');
  assert.equal(await card(page, 'Tokens/s'), count(cli.tokens_per_s) + ' tokens/s');
  assert.equal(await card(page, 'MFU'), percent(cli.mfu));
  assert.equal(await card(page, 'HFU'), percent(cli.hfu));
  assert.equal(await card(page, 'Model TFLOP/s per GPU'), cli.model_tflops_per_gpu.toFixed(1) + ' TFLOP/s');
  assert.equal(await card(page, 'Memory per GPU'), bytes(cli.memory_per_device_bytes));
  assert.match(await page.locator('#t-train').textContent(), new RegExp(`\\$${Math.floor(cli.train.cost_usd).toLocaleString('en-US')}`));
  // The CNN view is out of the way; the operator table holds the transformer's operators.
  assert.equal(await page.locator('#cards').isVisible(), false);
  assert.equal(await page.locator('#scaling-h').isVisible(), false);
  assert.equal(await page.locator('#layers-title').textContent(), 'Operators');
  assert.equal(await page.locator('#layer-count').textContent(), `(${cli.layers.length})`);
  await openLayers(page);
  const rows = page.locator('#layers tbody tr');
  assert.equal(await rows.count(), cli.layers.length);
  const first = await rows.first().locator(':scope > *').allTextContents();
  assert.deepEqual(first.slice(0, 5), [cli.layers[0].name, cli.layers[0].type, String(cli.layers[0].count),
    ms(cli.layers[0].forward.total_ms), ms(cli.layers[0].backward.total_ms)]);
  // Sortable as the CNN table: backward ms, slowest first.
  await page.locator('#layers thead th').nth(4).locator('button').click();
  const slowest = cli.layers.reduce((a, b) => (b.backward.total_ms > a.backward.total_ms ? b : a));
  assert.equal(await rows.first().locator('th').textContent(), slowest.name);
  // Warnings from the core beside the result.
  assert.equal(await page.locator('#t-warnings li').count(), cli.warnings.length);
  // The link restores the same estimate.
  const again = await newPage(session.browser);
  await again.goto(page.url());
  await again.waitForSelector('body[data-ready=true]');
  assertClose((await result(again)).transformer, cli, 1e-12);
  await again.close();
  await page.screenshot({ path: join(artifacts, 'transformer.png'), fullPage: true });
  // Result JSON holds the request and the core's response.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(saved.requests.estimate, request);
  assertClose(saved.transformer, cli, 1e-12);
  assert.deepEqual(page.errors, []);
  await assertNoAxeViolations(page, 'Llama 3 8B picked');
  await page.close();
});

test('a hand-written link naming only the preset gets the same starting layout', async () => {
  const picked = await llama();
  const page = await open('#net=llama3_8b');
  assert.deepEqual((await result(page)).requests.estimate, (await result(picked)).requests.estimate);
  await picked.close();
  await page.close();
});

test('an uploaded Hugging Face config.json and a pasted compact config give estimates', async () => {
  const page = await open();
  await page.click('#config-box summary');
  await afterUpdate(page, () => page.setInputFiles('#config-file', hfConfig));
  await page.waitForFunction(() => window.paleoResult?.transformer !== undefined);
  const hf = JSON.parse(readFileSync(hfConfig, 'utf8'));
  assert.deepEqual(JSON.parse(await page.locator('#config').inputValue()), hf);
  const request = await expectedRequest(page, hf);
  const shown = await result(page);
  assert.deepEqual(shown.requests.estimate, request);
  const cli = cliApi(request);
  assertClose(shown.transformer, cli, 1e-12);
  assert.equal(cli.model.source, 'huggingface');
  assert.match(await page.locator('#net-info').textContent(), /^Pasted Hugging Face config/);
  assert.equal(await card(page, 'Step'), ms(cli.step_ms) + ' ms');
  // The config stays in the (compressed) link.
  assert.match(page.url(), /#z=[A-Za-z0-9_-]+$/);
  const again = await newPage(session.browser);
  await again.goto(page.url());
  await again.waitForSelector('body[data-ready=true]');
  assert.deepEqual(JSON.parse(await again.locator('#config').inputValue()), hf);
  await again.close();

  const compact = { transformer: { name: 'tiny', layers: 4, hidden: 512, heads: 8, ffn_hidden: 2048, vocab: 32000,
    seq_len: 1024 } };
  await afterUpdate(page, () => page.fill('#config', JSON.stringify(compact)));
  const tiny = await result(page);
  assert.equal(tiny.transformer.model.source, 'config');
  assertClose(tiny.transformer, cliApi(tiny.requests.estimate), 1e-12);
  assert.match(await page.locator('#net-info').textContent(), /^Pasted config “tiny”/);
  // A config error is shown next to the config, naming its field.
  await afterUpdate(page, () => page.fill('#config', JSON.stringify({ transformer: { layers: 2, hidden: 64 } })));
  assert.match(await page.locator('#config-error').textContent(), /field “net\.transformer\.heads”: is missing/);
  assert.equal(await page.locator('#config').getAttribute('aria-invalid'), 'true');
  await afterUpdate(page, () => page.fill('#config', '{"transformer": '));
  assert.match(await page.locator('#config-error').textContent(), /malformed JSON/);
  // Clearing the config goes back to the preset (a CNN here), without errors.
  await afterUpdate(page, () => page.click('#config-clear'));
  assert.equal(await page.locator('#config-error').isVisible(), false);
  assert.equal(await page.locator('#cards').isVisible(), true);
  assert.equal((await result(page)).estimate.net.name, 'ResNet-50 v1.5');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('errors appear next to the input they name: global batch, then a tp that does not divide the heads', async () => {
  const page = await llama();
  await afterUpdate(page, () => page.fill('#t_nodes', '3'));
  const error = page.locator('#field-error');
  assert.equal(await page.locator('#global_batch + #field-error').isVisible(), true);
  assert.match(await error.textContent(), /not a multiple of dp x micro_batch/);
  await afterUpdate(page, () => page.fill('#global_batch', '72'));
  await afterUpdate(page, () => page.fill('#tp', '3'));
  assert.equal(await page.locator('#tp + #field-error').isVisible(), true);
  assert.equal(await error.textContent(), 'tensor parallelism 3 does not divide the 32 heads');
  assert.equal(await page.locator('#tp').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#results').getAttribute('class'), 'results stale');
  assert.match(await page.locator('#error').textContent(), /shown next to it/);
  await afterUpdate(page, () => page.fill('#tp', '4'));
  assert.equal(await error.count(), 0);
  assert.equal(await page.locator('#tp').getAttribute('aria-invalid'), null);
  assert.equal(await page.locator('#error').isVisible(), false);
  assert.equal((await result(page)).transformer.parallel.dp, 6);
  await page.close();
});

test('the memory bar marks the overflow of a layout that does not fit', async () => {
  const page = await llama();
  await afterUpdate(page, () => page.fill('#tp', '1'));
  await afterUpdate(page, () => page.selectOption('#zero', '0'));
  await afterUpdate(page, () => page.selectOption('#recompute', 'none'));
  await afterUpdate(page, () => page.fill('#micro_batch', '4'));
  const { transformer: t, requests } = await result(page);
  const cli = cliApi(requests.estimate);
  assertClose(t, cli, 1e-12);
  assert.equal(cli.fits, false);
  const over = cli.memory.total_bytes - cli.memory.capacity_bytes;
  assert.equal(await page.locator('#t-memory .hbar.over').count(), 1);
  assert.equal(await page.locator('#t-memory .overflow').textContent(), 'over by ' + bytes(over));
  assert.match(await page.locator('#t-memory p.error').textContent(), new RegExp(`^Does not fit: ${bytes(cli.memory.total_bytes)}`));
  assert.match(await page.locator('#t-cards .card.bad .note').textContent(), /does not fit/);
  await page.screenshot({ path: join(artifacts, 'transformer-overflow.png'), fullPage: true });
  await page.close();
});

test('the planner ranks layouts, gives its reasons, and loads a row into the inputs', async (t) => {
  const probe = cliApi({ command: 'plan', net: 'llama3_8b', device: 'H100_SXM', nodes: 1, devices_per_node: 8,
    precision: 'bf16', global_batch: 64, seq_len: 8192, top: 10 });
  if (!probe.ok) {
    t.skip('the core has no plan command yet: ' + probe.error.message);
    return;
  }
  const page = await llama();
  await page.evaluate(() => {
    window.busySeen = [];
    new MutationObserver(() => window.busySeen.push(document.getElementById('planner').getAttribute('aria-busy')))
      .observe(document.getElementById('planner'), { attributes: true, attributeFilter: ['aria-busy'] });
  });
  await page.click('#plan-run');
  await page.waitForSelector('#plan-table tbody tr');
  await page.waitForFunction(() => !document.getElementById('plan-run').disabled);
  assert.deepEqual(await page.evaluate(() => window.busySeen), ['true', 'false']);
  const rows = page.locator('#plan-table tbody tr');
  assert.equal(await rows.count(), probe.candidates.length);
  assert.ok(probe.candidates.length > 0 && probe.candidates.length <= 10);
  for (let i = 0; i < probe.candidates.length; ++i) {
    const c = probe.candidates[i];
    const cells = await rows.nth(i).locator(':scope > *').allTextContents();
    assert.deepEqual(cells.slice(0, 5).concat(cells[10]), [c.rank, c.tp, c.pp, c.dp, c.cp].map(String).concat(ms(c.step_ms)));
  }
  assert.deepEqual(await page.locator('#plan-why li').allTextContents(), probe.why);
  assert.match(await page.locator('#plan-summary').textContent(), new RegExp(`^${probe.evaluated} layouts evaluated, ` +
    `${probe.feasible} fit`));
  // A row loads its layout: the estimate of the loaded layout is the planner's.
  const pick = probe.candidates[Math.min(1, probe.candidates.length - 1)];
  await afterUpdate(page, () => rows.nth(pick.rank - 1).click());
  for (const key of ['tp', 'pp', 'cp', 'micro_batch', 'virtual_stages', 'recompute', 'zero']) {
    assert.equal(await page.locator('#' + key).inputValue(), String(pick[key]), key);
  }
  assert.equal(await page.locator('#sequence_parallel').isChecked(), pick.sequence_parallel);
  const loaded = (await result(page)).transformer;
  assertClose(loaded.step_ms, pick.step_ms, 1e-9);
  assertClose(loaded.breakdown, pick.breakdown, 1e-9);
  assert.equal(await page.locator('#plan-stale').isVisible(), false);
  await page.screenshot({ path: join(artifacts, 'transformer-planner.png'), fullPage: true });
  // Another batch makes the plan out of date.
  await afterUpdate(page, () => page.fill('#global_batch', '128'));
  assert.equal(await page.locator('#plan-stale').isVisible(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a transformer\'s software era from the list prices as the CLI does with it, and the link keeps it', async () => {
  const page = await open('#net=megatron22_22b&device=A100_80GB_SXM&tp=8&global_batch=4&seq_len=2048&precision=fp16' +
    '&recompute=full&attention=materialized&t_per_node=8');
  const values = await page.locator('#t_software_era option').evaluateAll((os) => os.map((o) => o.value));
  const eras = cliApi({ command: 'presets' }).software_eras.filter((e) => e.applies_to.includes('transformer'));
  assert.deepEqual(values, ['', ...eras.map((e) => e.key)]);
  const before = await result(page);
  assert.equal(before.transformer.software_era.key, 'megatron_lm_2021');  // the A100's own
  await afterUpdate(page, () => page.selectOption('#t_software_era', 'megatron_lm_2022'));
  await page.waitForFunction(() => window.paleoResult?.transformer?.software_era?.key === 'megatron_lm_2022');
  const shown = await result(page);
  assert.equal(shown.requests.estimate.software_era, 'megatron_lm_2022');
  const cli = cliApi(shown.requests.estimate);
  assertClose(shown.transformer, cli, 1e-12);
  assert.notEqual(cli.step_ms, before.transformer.step_ms, 'the era\'s own efficiencies price it');
  assert.equal(await card(page, 'Step'), ms(cli.step_ms) + ' ms');
  await assertLinkKeeps(page, 't_software_era', 'megatron_lm_2022', cli);
});

test('the transformer view fits a phone-width screen', async () => {
  const page = await llama({ viewport: { width: 375, height: 800 } });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `page is ${width} px wide`);
  assert.match(await page.locator('#summary-bar').textContent(), /tokens\/s · MFU/);
  await page.screenshot({ path: join(artifacts, 'transformer-phone.png') });
  await assertNoAxeViolations(page, 'the transformer view on a phone');
  await page.close();
});

test('"the stack\'s default" sends no field, and the answer names what the stack chose', async () => {
  const page = await llama();
  await afterUpdate(page, () => page.selectOption('#recompute', { index: 0 }));
  assert.equal(await page.locator('#recompute').inputValue(), '');
  const { requests, transformer } = await result(page);
  assert.equal('recompute' in requests.estimate, false);
  assertClose(transformer, cliApi(requests.estimate), 1e-12);
  // Megatron-Core on Hopper recomputes the least that fits.
  assert.ok(['none', 'selective', 'full'].includes(transformer.assumed.recompute));
  const warned = await page.locator('#t-warnings li').allTextContents();
  assert.ok(warned.some((w) => w.startsWith('assumed the defaults of')), warned.join('\n'));
  await page.close();
});

test('the element-wise kernels: the stack\'s default sends nothing, "eager" and "fused" price as the CLI does, and a link keeps them', async () => {
  const page = await open('#net=llama3_8b&t_software_era=pytorch_fsdp_hopper_2024&zero=3&seq_len=8192&micro_batch=2' +
    '&global_batch=16&t_per_node=8');
  const options = await page.locator('#fused_elementwise option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(options, ['', 'true', 'false']);
  const stack = await result(page);
  assert.equal('fused_elementwise' in stack.requests.estimate, false);
  assert.equal(stack.transformer.assumed.fused_elementwise, false);  // torchtitan's default: no torch.compile
  await afterUpdate(page, () => page.selectOption('#fused_elementwise', 'true'));
  const fused = await result(page);
  assert.equal(fused.requests.estimate.fused_elementwise, true);
  const cli = cliApi(fused.requests.estimate);
  assertClose(fused.transformer, cli, 1e-12);
  assert.ok(cli.step_ms < stack.transformer.step_ms, `fused ${cli.step_ms} ms, eager ${stack.transformer.step_ms} ms`);
  // The planner weighs its layouts with the same kernels.
  const state = { ...TRANSFORMER_DEFAULTS, net: 'llama3_8b', device: 'H100_SXM', calibration: '' };
  assert.equal(planRequest({ ...state, fused_elementwise: 'false' }).fused_elementwise, false);
  assert.equal('fused_elementwise' in planRequest(state), false);
  await assertLinkKeeps(page, 'fused_elementwise', 'true', cli);
});

test('the TP communication overlap: the default sends nothing, "forward and backward" prices as the CLI does, and a link keeps it', async () => {
  const page = await open('#net=llama3_8b&tp=8&sequence_parallel=true&seq_len=8192&micro_batch=1&global_batch=8' +
    '&t_per_node=8');
  const options = await page.locator('#tp_comm_overlap option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(options, ['', 'none', 'forward', 'forward_backward']);
  const stack = await result(page);
  assert.equal('tp_comm_overlap' in stack.requests.estimate, false);
  await afterUpdate(page, () => page.selectOption('#tp_comm_overlap', 'forward_backward'));
  const overlapped = await result(page);
  assert.equal(overlapped.requests.estimate.tp_comm_overlap, 'forward_backward');
  const cli = cliApi(overlapped.requests.estimate);
  assertClose(overlapped.transformer, cli, 1e-12);
  assert.ok(cli.breakdown.tp_comm_ms < stack.transformer.breakdown.tp_comm_ms,
    `overlapped ${cli.breakdown.tp_comm_ms} ms, exposed ${stack.transformer.breakdown.tp_comm_ms} ms`);
  const state = { ...TRANSFORMER_DEFAULTS, net: 'llama3_8b', device: 'H100_SXM', calibration: '' };
  assert.equal(planRequest({ ...state, tp_comm_overlap: 'forward' }).tp_comm_overlap, 'forward');
  assert.equal('tp_comm_overlap' in planRequest(state), false);
  await assertLinkKeeps(page, 'tp_comm_overlap', 'forward_backward', cli);
});

test('expert TP: empty sends nothing (the core takes tp), 1 folds the experts over the TP ranks as the CLI prices it, and a link keeps it', async () => {
  const page = await open('#net=mixtral_8x7b&t_nodes=2&t_per_node=8&tp=2&sequence_parallel=true&ep=8&seq_len=4096' +
    '&micro_batch=1&global_batch=64&zero=1');
  const unsplit = await result(page);
  assert.equal('expert_tp' in unsplit.requests.estimate, false);
  assert.equal(unsplit.transformer.parallel.expert_tp, 2, 'the default is tp');
  await afterUpdate(page, () => page.fill('#expert_tp', '1'));
  const folded = await result(page);
  assert.equal(folded.requests.estimate.expert_tp, 1);
  const cli = cliApi(folded.requests.estimate);
  assertClose(folded.transformer, cli, 1e-12);
  assert.equal(cli.parallel.expert_tp, 1);
  // Whole experts on each rank: each all-to-all carries half the tokens of expert TP 2's.
  assert.ok(cli.breakdown.ep_comm_ms < unsplit.transformer.breakdown.ep_comm_ms,
    `expert TP 1: ${cli.breakdown.ep_comm_ms} ms, 2: ${unsplit.transformer.breakdown.ep_comm_ms} ms`);
  assert.match(await page.locator('#context').textContent(), /EP 8 · expert TP 1/);
  await assertLinkKeeps(page, 'expert_tp', '1', cli);
});
