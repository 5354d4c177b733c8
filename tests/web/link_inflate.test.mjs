// The page's "#z=" link inflated with a cap (web/src/link_inflate.js): a deflate bomb stops at the
// request limit while inflating, with a message, instead of filling the heap; links under the cap
// load as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { deflateSync } from 'fflate';
import { join } from 'node:path';
import { root } from './helpers.mjs';

const bundled = await build({ stdin: { contents: "export * from './state.js'; export * from './link_compress.js';",
  resolveDir: join(root, 'web', 'src') }, bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent' });
const state = await import('data:text/javascript;base64,' + Buffer.from(bundled.outputFiles[0].text).toString('base64'));
const linkModule = await build({ entryPoints: [join(root, 'web', 'src', 'link_inflate.js')], bundle: true, write: false,
  format: 'esm', platform: 'neutral', logLevel: 'silent' });
const link = await import('data:text/javascript;base64,' + Buffer.from(linkModule.outputFiles[0].text).toString('base64'));

const MiB = 1024 * 1024;
const hashOf = (bytes) => '#z=' + Buffer.from(bytes).toString('base64url');

test('a link inflating to 400 MiB stops at the request limit, with a message, and gives the defaults', () => {
  const bomb = deflateSync(new Uint8Array(400 * MiB), { level: 9 });  // about 400 KB deflated
  const problems = [];
  const before = process.memoryUsage().rss;
  assert.deepEqual(state.fromHash(hashOf(bomb), problems), state.DEFAULTS);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /more than 8 MiB \(the request limit\)/);
  // Stopped early: far less than the 400 MiB the whole of it would take.
  assert.ok(process.memoryUsage().rss - before < 100 * MiB, `${(process.memoryUsage().rss - before) / MiB} MiB more`);
  assert.throws(() => link.inflateBounded(bomb), link.LinkTooLong);
});

test('the cap is the request limit: 8 MiB inflates, one byte more does not', () => {
  assert.equal(link.MAX_LINK_BYTES, 8 * MiB);
  const at = deflateSync(new Uint8Array(8 * MiB).fill(97), { level: 9 });
  assert.equal(link.inflateBounded(at).length, 8 * MiB);
  const over = deflateSync(new Uint8Array(8 * MiB + 1).fill(97), { level: 9 });
  assert.throws(() => link.inflateBounded(over), link.LinkTooLong);
});

test('links under the cap still round-trip, and damaged ones still give the defaults', () => {
  const s = { ...state.DEFAULTS, net: 'vgg16', batch_size: 32, spec: JSON.stringify({ name: 'x'.repeat(40000) }) };
  const problems = [];
  assert.deepEqual(state.fromHash(state.toHash(s), problems), s);
  assert.deepEqual(problems, []);
  assert.deepEqual(state.fromHash('#z=AAAA', problems), state.DEFAULTS);
  assert.deepEqual(state.fromHash('#z=', problems), state.DEFAULTS);
  assert.deepEqual(problems, []);
});

// The page reads its link in slices (state.js readLink): the browser's DecompressionStream where
// it inflates raw deflate, fflate's inflater elsewhere; the same cap, state and problems as the
// whole-at-once functions above.
for (const streaming of [true, false]) {
  const how = streaming ? 'DecompressionStream' : 'fflate in slices';
  test(`read in slices (${how}): the same cap, bomb message and round trip`, async () => {
    const options = { streaming };
    const at = deflateSync(new Uint8Array(8 * MiB).fill(97), { level: 9 });
    assert.equal((await link.inflateBoundedAsync(at, undefined, options)).length, 8 * MiB);
    const over = deflateSync(new Uint8Array(8 * MiB + 1).fill(97), { level: 9 });
    await assert.rejects(link.inflateBoundedAsync(over, undefined, options), link.LinkTooLong);
    const bomb = deflateSync(new Uint8Array(400 * MiB), { level: 9 });
    const before = process.memoryUsage().rss;
    const read = await state.readLink(hashOf(bomb), options);
    assert.deepEqual(read.state, state.DEFAULTS);
    assert.equal(read.problems.length, 1);
    assert.match(read.problems[0], /more than 8 MiB \(the request limit\)/);
    assert.ok(process.memoryUsage().rss - before < 100 * MiB, `${(process.memoryUsage().rss - before) / MiB} MiB more`);

    const s = { ...state.DEFAULTS, net: 'vgg16', batch_size: 32, spec: JSON.stringify({ name: 'x'.repeat(40000) }) };
    const good = await state.readLink(state.toHash(s), options);
    assert.deepEqual(good.state, s);
    assert.equal(good.params.get('batch_size'), '32');
    assert.deepEqual(good.problems, []);
    for (const damaged of ['#z=AAAA', '#z=', '#z=%%%']) {
      const read = await state.readLink(damaged, options);
      assert.deepEqual(read.state, state.DEFAULTS);
      assert.deepEqual(read.problems, []);
    }
    // A link of before compression keeps its own defaults.
    assert.deepEqual((await state.readLink('#batch_size=32', options)).state, state.fromHash('#batch_size=32'));
  });
}

test('the page writes a long state\'s link in slices (CompressionStream): it reads back as the same state', async () => {
  // 0.3 MB of parameters: past the 64 K characters deflated at once.
  const long = { ...state.DEFAULTS, batch_size: 16, spec: JSON.stringify({ name: 'y'.repeat(300000) }) };
  const hash = await state.toHashAsync(long);
  assert.match(hash, /^#z=[A-Za-z0-9_-]+$/);
  assert.deepEqual(state.fromHash(hash), long);
  assert.deepEqual((await state.readLink(hash)).state, long);
  // A short state's link is the same as toHash's.
  const short = { ...state.DEFAULTS, net: 'vgg16' };
  assert.equal(await state.toHashAsync(short), state.toHash(short));
  assert.equal(await state.toHashAsync(state.DEFAULTS), '#');
});
