// Bringing a model to the page (web/src/import_drop.js, web/src/net_text.js): a Caffe prototxt
// picked with the file button or pasted, a Keras model.to_json() file, an .onnx file dropped on the
// page and decoded in the browser. The layer table and the warnings are the core's, the same as
// the native CLI gives for the same request; a net too large for a shareable link says so and
// offers itself as a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, cliApi, afterUpdate, pageSession, reluChainLayers, openLayers } from './helpers.mjs';
import { MAX_SHAREABLE_LINK } from '../../web/src/import_drop.js';
import onnxProto from 'onnx-proto';

const session = pageSession();
const data = (...parts) => join(root, 'tests', 'data', ...parts);


const open = session.open;

// The forward FLOPs of the page's request under the original's profile (convolutions as GEMMs;
// it prices fp32 only and takes no precision; FLOPs do not depend on it), the numbers counted by
// hand.
const forwardFlops2017 = ({ precision, ...request }) =>
  cliApi({ ...request, profile: 'paleo2017', conv_algorithm: 'gemm' }).totals.forward_flops;

// The page's layer names, warnings and totals against the CLI's answer to the page's own request.
async function assertSameAsCli(page) {
  await openLayers(page);
  const shown = await page.evaluate(() => ({ request: window.paleoResult.requests.estimate,
    estimate: window.paleoResult.estimate,
    rows: document.querySelectorAll('#layers tbody tr').length,
    count: document.getElementById('layer-count').textContent,
    warnings: [...document.querySelectorAll('#warnings li')].map((li) => li.textContent) }));
  const cli = cliApi(shown.request);
  assert.equal(cli.ok, true);
  assert.equal(shown.estimate.ok, true);
  assert.equal(shown.count, `(${cli.layers.length})`);
  assert.equal(shown.rows, cli.layers.length);
  assert.deepEqual(shown.estimate.layers.map((l) => l.name), cli.layers.map((l) => l.name));
  assert.equal(shown.estimate.totals.forward_flops, cli.totals.forward_flops);
  assert.deepEqual(shown.warnings, cli.warnings);
  return { shown, cli };
}

test('a prototxt picked with the file button: the core\'s layers and warnings, a shareable link', async () => {
  const page = await open();
  await afterUpdate(page, () => page.setInputFiles('#spec-file', data('caffe', 'resnet50.prototxt')));
  assert.match(await page.locator('#net-info').textContent(), /^Imported Caffe prototxt/);
  const { shown, cli } = await assertSameAsCli(page);
  assert.equal(shown.request.net.prototxt, readFileSync(data('caffe', 'resnet50.prototxt'), 'utf8'));
  assert.ok(cli.warnings.some((w) => /^in-place layers dropped/.test(w)), 'the converter counts the in-place layers it dropped');
  // The prototxt text is in the link: the same page again from it. Past the length a link can
  // be shared at, a note says so.
  assert.equal(await page.locator('#link-note').isVisible(), page.url().length > MAX_SHAREABLE_LINK);
  const again = await open(new URL(page.url()).hash);
  assert.match(await again.locator('#net-info').textContent(), /^Imported Caffe prototxt/);
  assert.equal(await again.locator('#layer-count').textContent(), `(${cli.layers.length})`);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await page.close();
  await again.close();
});

test('prototxt pasted into the spec box', async () => {
  const page = await open();
  await page.locator('#spec-box summary').click();
  const text = 'name: "tiny"\ninput: "data"\ninput_dim: 1\ninput_dim: 3\ninput_dim: 32\ninput_dim: 32\n' +
    'layer { name: "conv" type: "Convolution" bottom: "data" top: "conv" convolution_param { num_output: 8 kernel_size: 3 } }\n' +
    'layer { name: "relu" type: "ReLU" bottom: "conv" top: "conv" }\n' +
    'layer { name: "fc" type: "InnerProduct" bottom: "conv" top: "fc" inner_product_param { num_output: 10 } }\n';
  await afterUpdate(page, () => page.fill('#spec', text));
  const { shown, cli } = await assertSameAsCli(page);
  assert.deepEqual(cli.layers.map((l) => l.name), ['data', 'conv', 'fc']);
  // conv 3x3, VALID (no pad): 30x30x8 at batch 1 (the spec's), 2 FLOPs per multiply-add; then 7200 x 10.
  assert.equal(forwardFlops2017(shown.request), 2 * 30 * 30 * 8 * 27 + 2 * 7200 * 10);
  assert.equal(await page.locator('#link-note').isVisible(), false);
  // The embed's module reads Paleo specs only (docs/embed.md): no snippet, and the page says why.
  await page.click('#copy-embed');
  assert.match(await page.locator('#action-status').textContent(),
    /^No embed snippet: the embed reads Paleo specs, and an imported Caffe prototxt is converted by the page only/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a Keras model.to_json() file', async () => {
  const page = await open();
  await afterUpdate(page, () => page.setInputFiles('#spec-file', data('keras', 'small_cnn_sequential.json')));
  assert.match(await page.locator('#net-info').textContent(), /^Imported Keras model/);
  const { shown, cli } = await assertSameAsCli(page);
  assert.equal(cli.layers.length, 13);
  assert.equal(forwardFlops2017(shown.request), 1312768);  // tests/test_import_keras.cpp counts it by hand
  await page.close();
});

test('an .onnx file dropped on the page: decoded in the browser, attention priced, in a compressed link', async () => {
  const page = await open();
  const bytes = readFileSync(data('onnx', 'vit_b_16.onnx')).toString('base64');
  await afterUpdate(page, () => page.evaluate(async (b64) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([raw], 'vit_b_16.onnx'));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, bytes));
  assert.match(await page.locator('#net-info').textContent(), /^Imported ONNX graph/);
  const { shown, cli } = await assertSameAsCli(page);
  // The browser's decoding is the Node tool's (tools/onnx_to_graph.mjs wrote the graph file).
  const graph = JSON.parse(readFileSync(data('onnx', 'vit_b_16.graph.json'), 'utf8'));
  assert.deepEqual(shown.request.net, graph);
  assert.equal(shown.estimate.layers.filter((l) => l.type === 'MatMul').length, 24);
  assert.ok(cli.warnings.some((w) => w.includes('24 MatMul nodes of two activations')));
  // The 217 kB graph compresses into a link short enough to share, which opens the same net.
  assert.ok(page.url().length < MAX_SHAREABLE_LINK, `${page.url().length} characters`);
  assert.equal(await page.locator('#link-note').isVisible(), false);
  const again = await open(new URL(page.url()).hash);
  assert.deepEqual(await again.evaluate(() => window.paleoResult.requests.estimate.net), graph);
  assert.equal(await page.evaluate(() => document.body.classList.contains('dropping')), false);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await page.close();
  await again.close();
});

test('a net too large for a shareable link: a note, and the net as a JSON file', async () => {
  // 6,000 layers with random names: no compression makes that link short.
  const layers = reluChainLayers(6000, [1, 8]);
  const spec = { name: 'long chain', layers };
  const page = await open();
  await afterUpdate(page, () => page.setInputFiles('#spec-file', { name: 'long.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(spec)) }));
  assert.ok(page.url().length > MAX_SHAREABLE_LINK, `${page.url().length} characters`);
  assert.equal(await page.locator('#link-note').isVisible(), true);
  assert.equal(await page.locator('#link-note .size').textContent(), `${Math.round(page.url().length / 1000)} kB`);
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#link-note-download')]);
  assert.equal(file.suggestedFilename(), 'paleo-net.json');
  assert.deepEqual(JSON.parse(readFileSync(await file.path(), 'utf8')), spec);
  // Back to a preset: the note goes.
  await afterUpdate(page, () => page.click('#spec-clear'));
  assert.equal(await page.locator('#link-note').isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a file that is not a model: an error next to the spec box, the page stays', async () => {
  const page = await open();
  await page.setInputFiles('#spec-file', { name: 'broken.onnx', mimeType: 'application/octet-stream',
    buffer: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]) });
  await page.waitForSelector('#spec-error:not([hidden])');
  assert.match(await page.locator('#spec-error').textContent(), /broken\.onnx: not a readable model file/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an ONNX export with symbolic sizes: the error beside the input-shape field, then priced at the shape given', async () => {
  // A dynamic-axes export: the input's batch, height and width are names, not sizes. One 3x3
  // convolution to 8 channels, padded to keep the height and width.
  const { onnx } = onnxProto;
  const dim = (d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d });
  const bytes = onnx.ModelProto.encode({
    irVersion: 8, opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'dynamic',
      input: [{ name: 'images', type: { tensorType: { elemType: 1, shape: { dim: ['batch', 3, 'height', 'width'].map(dim) } } } }],
      output: [{ name: 'y' }],
      initializer: [{ name: 'w', dims: [8, 3, 3, 3], dataType: 1, rawData: new Uint8Array(8 * 3 * 3 * 3 * 4) }],
      node: [{ name: 'conv', opType: 'Conv', input: ['images', 'w'], output: ['y'],
        attribute: [{ name: 'kernel_shape', type: 7, ints: [3, 3] }, { name: 'pads', type: 7, ints: [1, 1, 1, 1] }] }],
    },
  }).finish();
  const page = await open();
  await afterUpdate(page, () => page.setInputFiles('#spec-file', { name: 'dynamic.onnx', mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes) }));
  // The core's error names the graph input and its unknown size; the page shows it at the field.
  await page.waitForSelector('#input_shape[aria-invalid=true]');
  const note = page.locator('#input_shape + .field-error');
  assert.match(await note.textContent(), /the graph input 'images' has no known size for dimension/);
  assert.equal(await page.locator('#input_shape').isVisible(), true);
  assert.equal(await page.locator('#input_shape').getAttribute('aria-describedby'), await note.getAttribute('id'));

  // NCHW [2, 3, 32, 48]: Paleo's [2, 32, 48, 3]; the convolution keeps 32 x 48 and gives 8 channels.
  await afterUpdate(page, () => page.fill('#input_shape', '2, 3, 32, 48'));
  const { shown, cli } = await assertSameAsCli(page);
  assert.deepEqual(shown.request.net.input_shape, [2, 3, 32, 48]);
  const conv = cli.layers.find((l) => l.name === 'conv');
  assert.deepEqual(conv.output, [2, 32, 48, 8]);
  // 2 x 32 x 48 x 8 outputs, 27 multiply-adds each, 2 FLOPs per multiply-add.
  assert.equal(forwardFlops2017(shown.request), 2 * (2 * 32 * 48 * 8) * 27);
  assert.equal(await page.locator('#input_shape').getAttribute('aria-invalid'), null);
  assert.equal(await page.locator('.field-error').count(), 0);

  // A shape the core refuses (three sizes for a four-dimensional input) names the field too.
  await afterUpdate(page, () => page.fill('#input_shape', '2, 3, 32'));
  await page.waitForSelector('#input_shape[aria-invalid=true]');
  assert.match(await page.locator('#input_shape + .field-error').textContent(), /has 3 dimensions/);
  // The field is part of the link: the page opened from it asks with the same shape.
  await afterUpdate(page, () => page.fill('#input_shape', '2, 3, 32, 48'));
  const again = await open(new URL(page.url()).hash);
  assert.deepEqual(await again.evaluate(() => window.paleoResult.requests.estimate.net.input_shape), [2, 3, 32, 48]);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await page.close();
  await again.close();
});
