// Shared by the browser tests: a static server on 127.0.0.1, headless Chromium, the native CLI.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = join(root, 'web', 'dist');
export const cli = join(root, 'build', 'native', 'paleo');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json' };

// Serves `directory`; extra maps a path to a body (for test pages).
export async function serve(directory, extra = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    try {
      if (extra[path]) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(extra[path]);
        return;
      }
      const file = normalize(join(directory, path === '/' ? 'index.html' : path));
      if (!file.startsWith(directory)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

export async function launch() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // Playwright starts every browser with a fresh temporary profile.
  });
}

// The native CLI's answer to a request (docs/api.md).
export function cliApi(request) {
  return JSON.parse(execFileSync(cli, ['api'], { input: JSON.stringify(request), maxBuffer: 1 << 28 }).toString());
}

// Equal structure, and numbers equal to `relative` (relative difference).
export function assertClose(actual, expected, relative, path = '$') {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') throw new Error(`${path}: expected a number, got ${JSON.stringify(actual)}`);
    const scale = Math.max(Math.abs(expected), Math.abs(actual));
    if (scale > 0 && Math.abs(actual - expected) > relative * scale)
      throw new Error(`${path}: ${actual} != ${expected}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) throw new Error(`${path}: array length differs`);
    expected.forEach((v, i) => assertClose(actual[i], v, relative, `${path}[${i}]`));
    return;
  }
  if (expected && typeof expected === 'object') {
    const a = Object.keys(actual ?? {}).sort().join(','), e = Object.keys(expected).sort().join(',');
    if (a !== e) throw new Error(`${path}: keys differ: ${a} vs ${e}`);
    for (const k of Object.keys(expected)) assertClose(actual[k], expected[k], relative, `${path}.${k}`);
    return;
  }
  if (actual !== expected) throw new Error(`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
}
