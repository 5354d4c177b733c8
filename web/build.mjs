// Builds web/dist/: the page (bundled with esbuild), the WebAssembly module from build/wasm, and
// paleo-embed.js (the single-file module plus the <paleo-estimate> element).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = dirname(fileURLToPath(import.meta.url));
const root = join(web, '..');
const wasm = join(root, 'build', 'wasm', 'wasm');
const dist = join(web, 'dist');

for (const file of ['paleo.js', 'paleo.wasm', 'paleo-single.js']) {
  if (!existsSync(join(wasm, file))) {
    console.error(`missing ${join('build/wasm/wasm', file)}: run scripts/build.sh wasm first`);
    process.exit(1);
  }
}
mkdirSync(dist, { recursive: true });
copyFileSync(join(wasm, 'paleo.js'), join(dist, 'paleo.js'));
copyFileSync(join(wasm, 'paleo.wasm'), join(dist, 'paleo.wasm'));
copyFileSync(join(web, 'index.html'), join(dist, 'index.html'));
copyFileSync(join(web, 'styles.css'), join(dist, 'styles.css'));
copyFileSync(join(root, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), join(dist, 'uPlot.min.css'));

await build({
  entryPoints: [join(web, 'src', 'main.js')],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  outfile: join(dist, 'app.js'),
  external: ['../paleo.js'],
  logLevel: 'warning',
});
// The bundle imports the module next to it.
const app = readFileSync(join(dist, 'app.js'), 'utf8').replaceAll('"../paleo.js"', '"./paleo.js"');
writeFileSync(join(dist, 'app.js'), app);

// One function around both: createPaleo stays private to the script, and the module's own export
// code sees no CommonJS or AMD loader of the host page.
writeFileSync(join(dist, 'paleo-embed.js'), '/* paleo-embed.js: the Paleo WebAssembly module and the <paleo-estimate> ' +
  'element (docs/embed.md). */\n(function (module, exports, define) {\n' + readFileSync(join(wasm, 'paleo-single.js'), 'utf8') + '\n' +
  readFileSync(join(web, 'embed', 'element.js'), 'utf8') + '\n})();\n');
console.log('paleo: web/dist built');
