// The embed's module is the core's estimate-only build (docs/embed.md): in headless Chromium, an
// element with a Paleo spec gets the CLI's answer from it, and one with an imported net (a Caffe
// prototxt, which the page's embed snippet carries as it is) gets the error that says where such a
// net is read, where the full module would have converted it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { serve, launch, dist, cliApi, assertClose, newPage } from './helpers.mjs';
import { EMBED_SECTIONS } from '../../web/src/embed_attributes.js';

// Two layers, written here: a 3x3 convolution of 16 filters and a fully-connected layer of 10 (a
// convolution over the whole 32x32 map, as the presets write one) on a batch of 8 32x32x3 images.
const SPEC = { name: 'two layers', layers: {
  data: { parents: [], type: 'Input', tensor: [8, 32, 32, 3] },
  conv: { parents: ['data'], type: 'Convolution', filter: [3, 3, 3, 16], padding: 'SAME', strides: [1, 1, 1, 1] },
  fc: { parents: ['conv'], type: 'Convolution', filter: [32, 32, 16, 10], padding: 'VALID', strides: [1, 1, 1, 1] } } };
const PROTOTXT = 'name: "tiny"\ninput: "data"\ninput_dim: 8\ninput_dim: 3\ninput_dim: 32\ninput_dim: 32\n' +
  'layer { name: "fc" type: "InnerProduct" bottom: "data" top: "fc" inner_product_param { num_output: 10 } }\n';

// The page's spec-z: raw deflate of the net's JSON text, base64url.
const specZ = (net) => deflateRawSync(Buffer.from(JSON.stringify(net))).toString('base64')
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const doc = '<!doctype html><html lang="en"><title>notes</title>\n<script src="paleo-embed.js"></script>\n' +
  `<paleo-estimate id="spec" device="TITAN_X" spec-z="${specZ(SPEC)}"></paleo-estimate>\n` +
  `<paleo-estimate id="caffe" device="TITAN_X" spec-z="${specZ({ prototxt: PROTOTXT })}"></paleo-estimate>\n`;

let server, browser;
before(async () => {
  server = await serve(dist, { '/doc.html': doc });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('a spec gets the CLI\'s step; an imported net gets the estimate-only module\'s error', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '/doc.html');
  await page.waitForFunction(() => ['spec', 'caffe'].every((id) => document.getElementById(id).result),
    null, { timeout: 60000 });
  const results = await page.evaluate(() => Object.fromEntries(['spec', 'caffe'].map((id) => {
    const e = document.getElementById(id);
    return [id, { result: e.result, text: e.shadowRoot.textContent }];
  })));
  const cli = cliApi({ command: 'estimate', net: SPEC, device: 'TITAN_X', sections: EMBED_SECTIONS });
  assert.ok(cli.ok && results.spec.result.ok, JSON.stringify(results.spec.result.error ?? cli.error));
  assertClose(results.spec.result.totals.step_ms, cli.totals.step_ms, 1e-12);
  // The full core converts the same prototxt: only the embed's module leaves the importers out.
  assert.ok(cliApi({ command: 'estimate', net: { prototxt: PROTOTXT }, device: 'TITAN_X' }).ok);
  const { error } = results.caffe.result;
  assert.equal(results.caffe.result.ok, false);
  assert.equal(error.field, 'net');
  assert.match(error.message, /imported net \(Caffe, Keras or ONNX\), which this estimate-only build does not read/);
  assert.match(results.caffe.text, /estimate-only build/);
  await page.close();
});
