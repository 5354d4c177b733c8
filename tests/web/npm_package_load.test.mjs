// The npm package's entry (web/package/index.js) against a stand-in for its WebAssembly module
// whose first load fails: the rejection reaches that call and the next call loads afresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('a failed load of the module is not kept: the next call loads it again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paleo-load-'));
  try {
    copyFileSync(join(root, 'web', 'package', 'index.js'), join(dir, 'index.js'));
    writeFileSync(join(dir, 'core.js'), `let loads = 0;
export default async function createPaleo() {
  loads += 1;
  if (loads === 1) throw new Error('failed to fetch paleo.wasm');
  return { handle: (text) => JSON.stringify({ ok: true, loads, command: JSON.parse(text).command }) };
}
`);
    const paleo = await import(pathToFileURL(join(dir, 'index.js')).href);
    await assert.rejects(paleo.presets(), /failed to fetch paleo\.wasm/);
    assert.deepEqual(await paleo.presets(), { ok: true, loads: 2, command: 'presets' });
    assert.deepEqual(await paleo.estimate({ net: 'vgg16' }), { ok: true, loads: 2, command: 'estimate' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
