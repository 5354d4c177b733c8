// The page's two scripts share their modules: boot.js (a classic script, run first: it starts the
// core and reads the link) bundles state.js and what it imports, and app.js takes those modules
// from it instead of carrying a second copy (about 13 KB of code, 5 KB gzipped, before the first
// result). boot.js registers them under window.paleoBoot.modules; in app.js each import of one
// becomes a CommonJS shim that reads it there (boot.js always runs before app.js: a classic
// script in the head, before the module script's tag).
import { build } from 'esbuild';
import { join, relative, resolve } from 'node:path';

// The web/src files boot.js bundles (boot.js itself left out), as paths from web/src.
export async function bootModules(options, src) {
  const { metafile } = await build({ ...options, write: false, metafile: true, absWorkingDir: src });
  const own = (p) => !p.startsWith('..') && !p.includes('node_modules') && p !== 'boot.js';
  return Object.keys(metafile.inputs).filter(own).map((p) => p.replace(/^\.\//, ''));
}

// boot.js's entry: boot.js, then its modules registered by path.
export function bootEntry(modules, src) {
  const lines = ["import './boot.js';", ...modules.map((p, i) => `import * as m${i} from './${p}';`),
    `window.paleoBoot.modules = { ${modules.map((p, i) => `${JSON.stringify(p)}: m${i}`).join(', ')} };`];
  return { contents: lines.join('\n'), resolveDir: src, sourcefile: 'boot-entry.js' };
}

// The esbuild plugin for app.js: an import of one of boot.js's modules reads boot's.
export function fromBoot(modules, src) {
  const shared = new Set(modules.map((p) => join(src, p)));
  return { name: 'from-boot', setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      return shared.has(path) ? { path, namespace: 'from-boot' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'from-boot' }, (args) => ({ loader: 'js',
      contents: `module.exports = window.paleoBoot.modules[${JSON.stringify(relative(src, args.path))}];` }));
  } };
}
