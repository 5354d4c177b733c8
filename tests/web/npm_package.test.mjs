// The npm package paleo-estimator (web/build_package.mjs, build/npm/): packed with `npm pack`,
// installed from the tarball into a scratch project offline, then used as its users would: a Node
// script that imports { estimate, search, presets }, and a documentation page in headless Chromium
// that imports { estimate } from 'paleo-estimator' (an import map to node_modules) and shows a
// number, and the <paleo-estimate> element from 'paleo-estimator/element'. The numbers are the
// native CLI's for the same requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, root, cliApi, newPage } from './helpers.mjs';
import { EMBED_SECTIONS } from '../../web/src/embed_attributes.js';

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

let scratch, server, browser, tarball, manifest;

before(async () => {
  execFileSync(process.execPath, [join(root, 'web', 'build_package.mjs')], { stdio: 'ignore' });
  scratch = mkdtempSync(join(tmpdir(), 'paleo-npm-'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', scratch], join(root, 'build', 'npm')));
  tarball = join(scratch, packed[0].filename);
  manifest = packed[0];
  const project = join(scratch, 'docs-site');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docs-site', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-package-lock', tarball], project);
  server = await serve(project);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the tarball: name, the API version, the license, both entries and the typings', () => {
  const version = cliApi({ command: 'version' }).version;
  assert.equal(manifest.name, 'paleo-estimator');
  assert.equal(manifest.version, version);
  const files = manifest.files.map((f) => f.path).sort();
  assert.deepEqual(files, ['CHANGELOG.md', 'LICENSE-paleo', 'README.md', 'core.js', 'element.d.ts', 'element.js',
    'index.d.ts', 'index.js', 'package.json', 'presets_left_out.js']);
  const installed = JSON.parse(readFileSync(join(scratch, 'docs-site', 'node_modules', 'paleo-estimator', 'package.json'), 'utf8'));
  assert.equal(installed.license, 'UNLICENSED');  // as the repository: no license of its own
  assert.equal(installed.exports['.'].types, './index.d.ts');
  assert.equal(installed.exports['./element'].import, './element.js');
  assert.match(readFileSync(join(scratch, 'docs-site', 'node_modules', 'paleo-estimator', 'CHANGELOG.md'), 'utf8'),
    new RegExp(`\\n## ${version.replace(/\./g, '\\.')}\\n`));
  const typings = readFileSync(join(scratch, 'docs-site', 'node_modules', 'paleo-estimator', 'index.d.ts'), 'utf8');
  for (const name of ['export function estimate(', 'export function search(', 'export function presets(',
    'export interface EstimateResponse', 'export interface Request'])
    assert.ok(typings.includes(name), name);
});

// tsc on a user's TypeScript file against the installed package's typings; its diagnostics.
function typecheck(name, source) {
  const project = join(scratch, 'docs-site');
  writeFileSync(join(project, name), source);
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict',
      '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', name],
    { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return '';
  } catch (e) {
    return e.stdout + e.stderr;
  }
}

test('TypeScript: the typings check a correct use and reject a wrong one', () => {
  assert.equal(typecheck('good.ts', `import { estimate, search, presets, type EstimateResponse } from 'paleo-estimator';
import 'paleo-estimator/element';
const r = await estimate({ net: 'vgg16', device: 'TITAN_X', batch_size: 64, workers: [1, 2], scaling: ['weak'],
  dataset_samples: 1281167, epochs: 90, price_per_gpu_hour: 2 });
const step: number = r.ok ? r.totals.step_ms : 0;
const days: number = r.ok && r.train ? r.train.setups[r.train.headline].time_days : 0;
const layers: EstimateResponse['layers'] = r.ok ? r.layers : [];
const s = await search({ net: 'alex_v2', devices: 16, devices_per_node: 4 });
const speedup: number = s.ok ? s.speedup_over_data_parallel : 1;
const keys: string[] = ((await presets()) as { nets?: { key: string }[] }).nets?.map((n) => n.key) ?? [];
const element = document.querySelector('paleo-estimate');
const last = element?.result;
console.log(step, days, layers.length, speedup, keys, last);
`), '');
  const wrong = typecheck('bad.ts', `import { estimate } from 'paleo-estimator';
const r = await estimate({ net: 'vgg16', batch_size: '64', conv_algorithm: 'fastest' });
const flops: string = r.ok ? r.totals.forward_flops : '';
`);
  assert.match(wrong, /bad\.ts\(2,/);   // batch_size and conv_algorithm
  assert.match(wrong, /bad\.ts\(3,/);   // forward_flops is a number
});

test('TypeScript: the 0.3.0 fields training_scheme, scheme_comparison and work_depth and their sections', () => {
  assert.equal(typecheck('scheme_good.ts', `import { estimate } from 'paleo-estimator';
const r = await estimate({ net: 'resnet50_v1_5', device: 'V100_SXM2_16GB', batch_size: 32, cluster: 'dgx1_v100_ib',
  training_scheme: { consistency: 'ssp', staleness: 4, jitter: 'lognormal:0.2', compression: 'topk:0.01',
    exchange: 'parameter_server', server_layout: 'sharded', servers: 4, averaging: 'none', batch_norm: 'global' },
  scheme_comparison: true, work_depth: true });
const step: number = r.ok && r.training_scheme ? r.training_scheme.step_ms : 0;
const ratio: number | null = r.ok && r.training_scheme ? r.training_scheme.compression_ratio : null;
const pushed: number = r.ok ? r.training_scheme?.parameter_server?.pushed_bytes ?? 0 : 0;
const sweep: number = r.ok ? r.training_scheme?.comparison?.[0].points[0].wire_bytes_per_step ?? 0 : 0;
const small: boolean = r.ok && r.work_depth ? !r.work_depth.layers[0].fills_device : false;
console.log(step, ratio, pushed, sweep, small);
`), '');
  const wrong = typecheck('scheme_bad.ts', `import { estimate } from 'paleo-estimator';
const a = await estimate({ net: 'vgg16', training_scheme: { consistency: 'eventual' } });
const b = await estimate({ net: 'vgg16', training_scheme: { compression: 'topk' } });
const c = await estimate({ net: 'vgg16', work_depth: 'yes' });
const d: string = a.ok && a.training_scheme ? a.training_scheme.step_ms : '';
const e: string = b.ok && b.work_depth ? b.work_depth.device_lanes : '';
console.log(c, d, e);
`);
  for (const line of [2, 3, 4, 5, 6]) assert.match(wrong, new RegExp(`scheme_bad\\.ts\\(${line},`), wrong);
});

test('a Node script: estimate, search, presets and validate equal the CLI', () => {
  const script = join(scratch, 'docs-site', 'run.mjs');
  writeFileSync(script, `import { estimate, search, presets, request, version } from 'paleo-estimator';
const out = {
  estimate: await estimate({ net: 'vgg16', device: 'TITAN_X', batch_size: 32 }),
  search: await search({ net: 'alex_v2', devices: 4, devices_per_node: 4, batch_size: 32 }),
  presets: await presets(),
  version: await version(),
  bad: await estimate({ net: 'no_such_net' }),
  // The validation cases are not in the module: the package hands them over for 'validate'.
  validate: await request({ command: 'validate', family: 'collectives' }),
};
process.stdout.write(JSON.stringify(out));
`);
  const out = JSON.parse(execFileSync(process.execPath, [script], { cwd: join(scratch, 'docs-site'), maxBuffer: 1 << 28 }));
  const cliEstimate = cliApi({ command: 'estimate', net: 'vgg16', device: 'TITAN_X', batch_size: 32 });
  assert.equal(out.estimate.ok, true);
  assert.equal(out.estimate.totals.step_ms, cliEstimate.totals.step_ms);
  assert.equal(out.estimate.layers.length, cliEstimate.layers.length);
  const cliSearch = cliApi({ command: 'search', net: 'alex_v2', devices: 4, devices_per_node: 4, batch_size: 32 });
  assert.equal(out.search.ok, true);
  assert.equal(out.search.step_ms, cliSearch.step_ms);
  assert.deepEqual(out.presets.nets, cliApi({ command: 'presets' }).nets);
  assert.equal(out.version, cliApi({ command: 'version' }).version);
  assert.equal(out.bad.ok, false);
  assert.equal(out.bad.error.field, 'net');
  const cliValidate = cliApi({ command: 'validate', family: 'collectives' });
  assert.equal(out.validate.ok, true);
  assert.ok(cliValidate.cases.length > 0);
  assert.deepEqual(out.validate.cases.map((c) => [c.id, c.predicted]), cliValidate.cases.map((c) => [c.id, c.predicted]));
});

test('a documentation page imports { estimate } from the package and shows a number; the element entry', async () => {
  writeFileSync(join(scratch, 'docs-site', 'index.html'), `<!doctype html>
<meta charset="utf-8">
<title>Training time of ResNet-50</title>
<script type="importmap">
{"imports": {"paleo-estimator": "./node_modules/paleo-estimator/index.js",
             "paleo-estimator/element": "./node_modules/paleo-estimator/element.js"}}
</script>
<p>One training step of ResNet-50 on a V100 takes <span id="step">…</span>.</p>
<paleo-estimate net="vgg16" device="TITAN_X" batch="64"></paleo-estimate>
<script type="module">
  import { estimate } from 'paleo-estimator';
  import 'paleo-estimator/element';
  const r = await estimate({ net: 'resnet50_v1_5', device: 'V100_SXM2_16GB', batch_size: 64 });
  document.getElementById('step').textContent = r.ok ? r.totals.step_ms.toFixed(2) + ' ms' : r.error.message;
</script>
`);
  const page = await newPage(browser);
  await page.goto(server.url + '/index.html');
  await page.waitForFunction(() => document.getElementById('step').textContent !== '…');
  const cli = cliApi({ command: 'estimate', net: 'resnet50_v1_5', device: 'V100_SXM2_16GB', batch_size: 64 });
  assert.equal(await page.locator('#step').textContent(), cli.totals.step_ms.toFixed(2) + ' ms');
  await page.waitForFunction(() => document.querySelector('paleo-estimate').result !== undefined);
  const element = await page.evaluate(async () => {
    const e = document.querySelector('paleo-estimate');
    return { request: await e.request(), step_ms: e.result.totals.step_ms, shown: e.shadowRoot.textContent };
  });
  assert.deepEqual(element.request, { command: 'estimate', net: 'vgg16', device: 'TITAN_X', batch_size: 64,
    sections: EMBED_SECTIONS });
  assert.equal(element.step_ms, cliApi(element.request).totals.step_ms);
  assert.ok(element.shown.includes('VGG'), element.shown);
  assert.deepEqual(page.errors, []);
  // The package brings no dependencies.
  assert.deepEqual(readdirSync(join(scratch, 'docs-site', 'node_modules')).filter((f) => !f.startsWith('.')), ['paleo-estimator']);
  await page.close();
});
