// Builds the npm package paleo-estimator into build/npm/ (docs/embed.md, "From npm"): the
// single-file WebAssembly build of the core (build/wasm) as an ES module, the API entry
// (web/package/index.js), the <paleo-estimate> element as a second entry, the TypeScript typings,
// README, CHANGELOG and the original PALEO's license for the nets it bundles. The version is the
// JSON API's (core/base/version.h); the changelog must have an entry for it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const web = dirname(fileURLToPath(import.meta.url));
const root = join(web, '..');
const source = join(web, 'package');
const out = join(root, 'build', 'npm');
const single = join(root, 'build', 'wasm', 'wasm', 'paleo-single.js');

if (!existsSync(single)) {
  console.error('missing build/wasm/wasm/paleo-single.js: run scripts/build.sh wasm first');
  process.exit(1);
}
const version = /kVersion = "([^"]+)"/.exec(readFileSync(join(root, 'core', 'base', 'version.h'), 'utf8'))?.[1];
if (!version) throw new Error('core/base/version.h: no kVersion');
if (!readFileSync(join(source, 'CHANGELOG.md'), 'utf8').includes(`\n## ${version}\n`)) {
  console.error(`web/package/CHANGELOG.md has no entry "## ${version}" for the API version`);
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The Emscripten module (MODULARIZE, wasm inlined) inside one function whose parameters hide the
// host's CommonJS and AMD loaders and Node's `process` and `require`: the module then defines
// createPaleo for this file only and reads its inlined bytes the same way in Node and in browsers.
writeFileSync(join(out, 'core.js'), '// The Paleo WebAssembly core (Emscripten, the module inlined as base64).\n' +
  'const createPaleo = (function (module, exports, define, process, require) {\n' + readFileSync(single, 'utf8') +
  '\nreturn createPaleo;\n})();\nexport default createPaleo;\n');
copyFileSync(join(source, 'index.js'), join(out, 'index.js'));
// The presets/ files the module leaves out (the validation cases, build/wasm's
// presets_left_out.json), as a module index.js imports when a request needs them ('validate').
const leftOut = JSON.parse(readFileSync(join(root, 'build', 'wasm', 'generated', 'presets_left_out.json'), 'utf8')).left_out;
writeFileSync(join(out, 'presets_left_out.js'), '// presets/ files the core module leaves out; index.js hands them ' +
  'to it when a request needs them.\nexport default ' +
  JSON.stringify(Object.fromEntries(leftOut.map((path) => [path, readFileSync(join(root, 'presets', path), 'utf8')]))) + ';\n');
// The element's script, bundled with what it imports (the attribute table, the page's formatters),
// uses a global createPaleo: in this module, the import stands for it, and carries the module
// (PALEO_WASM_DEFLATED null: no module inlined beside the element, as paleo-embed.js has).
const element = await build({ entryPoints: [join(web, 'embed', 'element.js')], bundle: true, format: 'esm',
  target: 'es2020', write: false, logLevel: 'warning', define: { PALEO_WASM_DEFLATED: 'null' } });
writeFileSync(join(out, 'element.js'), readFileSync(join(source, 'element_entry.js'), 'utf8') + '\n' +
  element.outputFiles[0].text);
for (const file of ['index.d.ts', 'element.d.ts', 'README.md', 'CHANGELOG.md']) copyFileSync(join(source, file), join(out, file));
copyFileSync(join(root, 'presets', 'nets', 'LICENSE-paleo'), join(out, 'LICENSE-paleo'));

const manifest = {
  name: 'paleo-estimator',
  version,
  description: 'Paleo: an analytical performance model of deep-learning training (WebAssembly), with the <paleo-estimate> element',
  type: 'module',
  main: './index.js',
  types: './index.d.ts',
  exports: {
    '.': { types: './index.d.ts', import: './index.js', default: './index.js' },
    './element': { types: './element.d.ts', import: './element.js', default: './element.js' },
    './package.json': './package.json',
  },
  sideEffects: ['./element.js'],
  files: ['index.js', 'index.d.ts', 'core.js', 'presets_left_out.js', 'element.js', 'element.d.ts', 'README.md', 'CHANGELOG.md', 'LICENSE-paleo'],
  // As the repository: it states no license of its own; the original PALEO's nets it bundles are
  // Apache-2.0 (LICENSE-paleo).
  license: 'UNLICENSED',
  keywords: ['deep learning', 'performance model', 'training time', 'webassembly', 'paleo'],
  engines: { node: '>=18' },
};
writeFileSync(join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`paleo: build/npm built (paleo-estimator ${version})`);
