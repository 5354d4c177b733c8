// Builds web/dist/: the page (bundled with esbuild), its workers (a WebAssembly module's glue
// included), its two modules (paleo-estimate.wasm, the estimate-only module of build/wasm-estimate
// it starts on, and paleo.wasm, the full one of build/wasm, loaded when a section needs it),
// paleo-embed.js (the estimate-only module plus the <paleo-estimate> element) and an example page
// that embeds it.
import { build, transform } from 'esbuild';
import { promisify } from 'node:util';
import zopfli from '@gfx/zopfli';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bootEntry, bootModules, fromBoot } from './boot_modules.mjs';

const web = dirname(fileURLToPath(import.meta.url));
const root = join(web, '..');
const wasm = join(root, 'build', 'wasm', 'wasm');
const dist = join(web, 'dist');

for (const file of ['wasm/paleo.js', 'wasm/paleo.wasm', 'wasm/paleo-single.js', 'generated/presets_left_out.json']) {
  if (!existsSync(join(wasm, '..', file))) {
    console.error(`missing ${join('build/wasm', file)}: run scripts/build.sh wasm first`);
    process.exit(1);
  }
}
// The embed's module: the estimate-only build (PALEO_ESTIMATE_ONLY, docs/embed.md), single-file.
const estimateModule = join(root, 'build', 'wasm-estimate', 'wasm', 'paleo-estimate.js');
if (!existsSync(estimateModule)) {
  console.error('missing build/wasm-estimate/wasm/paleo-estimate.js: run scripts/build.sh wasm first');
  process.exit(1);
}
mkdirSync(dist, { recursive: true });
rmSync(join(dist, 'paleo.js'), { force: true });  // bundled into the workers since they run the core
copyFileSync(join(wasm, 'paleo.wasm'), join(dist, 'paleo.wasm'));
// The page's first module: the estimate-only build's, taken out of its single-file glue (the same
// bytes as the embed's), served beside the page so that it compiles while it downloads.
// Emscripten's single-file glue carries its module as a base64 data URL.
const inlined = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;
const estimateGlue = readFileSync(estimateModule, 'utf8');
const [, wasmBase64] = estimateGlue.match(inlined);
writeFileSync(join(dist, 'paleo-estimate.wasm'), Buffer.from(wasmBase64, 'base64'));
// What the page says while the full module loads: its size as a server sends it (gzip).
const fullModuleKb = Math.round(gzipSync(readFileSync(join(wasm, 'paleo.wasm'))).length / 1024 / 10) * 10;
copyFileSync(join(web, 'embed', 'example.html'), join(dist, 'embed-example.html'));
// The style sheet minified (its comments and spacing: 0.9 KB of the 5 KB gzipped it loads before
// the first result).
writeFileSync(join(dist, 'styles.css'), (await transform(readFileSync(join(web, 'styles.css'), 'utf8'),
  { loader: 'css', minify: true })).code);
copyFileSync(join(root, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), join(dist, 'uPlot.min.css'));

// The sources import the Emscripten glue as '../paleo.js': the full module's (build/wasm), or for
// the page's estimate-only worker the single-file glue of build/wasm-estimate, its inlined module
// left out (the page compiles paleo-estimate.wasm and hands it over: instantiateWasm, worker.js).
const glueOf = (path) => ({ name: 'paleo-glue', setup(b) {
  b.onResolve({ filter: /^\.\.\/paleo\.js$/ }, () => ({ path }));
  b.onLoad({ filter: /paleo-estimate\.js$/ }, () => ({ loader: 'js',
    contents: readFileSync(path, 'utf8').replace(inlined, 'data:application/octet-stream;base64,') }));
} });
const glue = glueOf(join(wasm, 'paleo.js'));
const common = { bundle: true, minify: true, target: 'es2020', logLevel: 'warning', plugins: [glue] };
// The page: boot.js (a classic script: starts the core; runs first) and app.js (the page's
// modules and uPlot).
for (const old of readdirSync(dist)) if (old.startsWith('chunk-')) rmSync(join(dist, old));
const bootOptions = { ...common, format: 'iife', define: { 'import.meta.url': 'document.currentScript.src' } };
const bootShared = await bootModules({ ...bootOptions, entryPoints: [join(web, 'src', 'boot.js')] }, join(web, 'src'));
await build({ ...bootOptions, stdin: bootEntry(bootShared, join(web, 'src')), outfile: join(dist, 'boot.js') });
// The presets/ files the module leaves out (CMake's PALEO_PRESETS_LEFT_OUT: the validation cases),
// one classic script per folder, data/<folder>.js, which the page loads when a section needs it
// (web/src/preset_data.js): a script, not a fetch, so that it needs no connect-src and loads from
// file:// too.
const leftOut = JSON.parse(readFileSync(join(root, 'build', 'wasm', 'generated', 'presets_left_out.json'), 'utf8')).left_out;
const folders = {};
for (const path of leftOut) (folders[path.split('/')[0]] ??= {})[path] = readFileSync(join(root, 'presets', path), 'utf8');
rmSync(join(dist, 'data'), { recursive: true, force: true });
if (leftOut.length) mkdirSync(join(dist, 'data'));
for (const [folder, files] of Object.entries(folders)) {
  writeFileSync(join(dist, 'data', `${folder}.js`), `/* Paleo presets/${folder}/: loaded by the page when a section ` +
    'needs them (docs/web.md). */\n(self.paleoPresetData = self.paleoPresetData || {})[' + JSON.stringify(folder) + '] = ' +
    JSON.stringify(files) + ';\n');
}
// The page's script, split: what it loads when needed (uPlot, with the first chart:
// web/src/charts.js) is a chunk of its own.
// The modules boot.js bundles come from it (web/boot_modules.mjs).
const app = await build({ ...common, plugins: [glue, fromBoot(bootShared, join(web, 'src'))],
  entryPoints: { app: join(web, 'src', 'main.js') }, format: 'esm', splitting: true, outdir: dist,
  chunkNames: 'chunk-[hash]', metafile: true,
  define: { PALEO_LEFT_OUT_FOLDERS: JSON.stringify(Object.keys(folders).join(',')),
    PALEO_FULL_MODULE_KB: String(fullModuleKb) } });
// The chunks app.js imports statically, named in the page's head (modulepreload): fetched with
// boot.js, not once app.js has been read (a round trip later, after the first layout).
const appOutput = Object.entries(app.metafile.outputs).find(([, o]) => o.entryPoint?.endsWith('main.js'))[1];
const preloads = appOutput.imports.filter((i) => i.kind === 'import-statement')
  .map((i) => `<link rel="modulepreload" href="${i.path.split('/').pop()}">`).join('\n');
const page = readFileSync(join(web, 'index.html'), 'utf8');
if (!page.includes('<!-- chunks -->')) throw new Error('web/index.html: no <!-- chunks --> line for the modulepreload links');
// The built page leaves out the source's comments and indentation (0.7 KB gzipped of what loads
// before the first result; no <pre>, and the text areas start empty).
writeFileSync(join(dist, 'index.html'), page.replace('<!-- chunks -->', preloads).replace(/<!--[\s\S]*?-->\n?/g, '')
  .replace(/^[ ]+/gm, ''));
// The ONNX decoder (tools/onnx_graph_decoder.mjs and onnx-proto): loaded by the page only when an
// .onnx file is dropped or picked (web/src/import_drop.js).
await build({ ...common, entryPoints: [join(root, 'tools', 'onnx_graph_decoder.mjs')], format: 'esm',
  outfile: join(dist, 'onnx-decoder.js') });
// The worker that runs the core (with the Emscripten module's glue): a module worker, and a
// classic one for browsers without module workers.
// Built twice: worker.js with the full module's glue, worker-estimate.js with the estimate-only
// module's (the page starts on that one: web/src/core_client.js).
for (const [name, plugin] of [['worker', glue], ['worker-estimate', glueOf(estimateModule)]]) {
  await build({ ...common, plugins: [plugin], entryPoints: [join(web, 'src', 'worker.js')], format: 'esm',
    outfile: join(dist, `${name}.js`) });
  await build({ ...common, plugins: [plugin], entryPoints: [join(web, 'src', 'worker.js')], format: 'iife',
    outfile: join(dist, `${name}-classic.js`), define: { 'import.meta.url': 'self.location.href' } });
}

// One function around both: createPaleo stays private to the script, and the module's own export
// code sees no CommonJS or AMD loader of the host page, nor `fetch`: the module is inlined, and the
// loader would try to fetch it first, which a page's connect-src policy blocks.
// The module's bytes leave the glue's data: URL (left empty) for PALEO_WASM_DEFLATED: raw deflate,
// base64, which the element inflates and hands to createPaleo (web/embed/element.js). Base64 of the
// plain module gzips to 1.4 times the module's own gzip; base64 of deflated bytes to about its size.
// The element is bundled with what it imports (the attribute table, the page's formatters).
const zopfliDeflate = promisify(zopfli.deflate);
// Zopfli's deflate (npm @gfx/zopfli: the same raw-deflate format the browser inflates) packs the
// module 5.5 % smaller than zlib's level 9 (277 against 293 KB): what keeps the served-LLM element
// inside the embed's 300 KB. Five iterations: more took longer and saved under 0.1 KB.
const wasmDeflated = Buffer.from(await zopfliDeflate(Buffer.from(wasmBase64, 'base64'), { numiterations: 5 }))
  .toString('base64');
const element = await build({ ...common, entryPoints: [join(web, 'embed', 'element.js')], format: 'iife', write: false,
  define: { PALEO_WASM_DEFLATED: JSON.stringify(wasmDeflated) } });
// The glue minified as the page's scripts are (Emscripten's own minifier leaves a third more).
const glueMinified = (await transform(estimateGlue.replace(inlined, 'data:application/octet-stream;base64,'),
  { minify: true, target: 'es2020' })).code;
writeFileSync(join(dist, 'paleo-embed.js'), '/* paleo-embed.js: the Paleo WebAssembly module and the <paleo-estimate> ' +
  'element (docs/embed.md). */\n(function (module, exports, define, fetch) {\n' + glueMinified + '\n' +
  element.outputFiles[0].text + '\n})();\n');
// The service worker that keeps the page working offline after a visit (web/src/offline_worker.js):
// it caches, when it installs, every file the first view loads (the page, its scripts and chunks,
// the style sheets, the estimate-only module and its workers), and the others as the page fetches
// them, under a name that changes with any file of the build: a copy is never of two builds.
const firstFiles = ['index.html', 'boot.js', 'app.js', 'styles.css', 'uPlot.min.css', 'paleo-estimate.wasm',
  'worker-estimate.js', 'worker-estimate-classic.js', ...readdirSync(dist).filter((f) => f.startsWith('chunk-')).sort()];
const buildHash = createHash('sha256');
const filesUnder = (dir) => readdirSync(join(dist, dir), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
for (const file of filesUnder('').filter((f) => f !== 'sw.js').sort()) buildHash.update(file).update(readFileSync(join(dist, file)));
await build({ ...common, plugins: [], entryPoints: [join(web, 'src', 'offline_worker.js')], format: 'iife',
  outfile: join(dist, 'sw.js'), define: { PALEO_CACHE: JSON.stringify('paleo-' + buildHash.digest('hex').slice(0, 16)),
    PALEO_FIRST_FILES: JSON.stringify(['./', ...firstFiles]) } });
console.log('paleo: web/dist built');
