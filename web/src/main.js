// The estimator page: inputs -> state (kept in the URL hash) -> request documents -> the
// WebAssembly core -> rendering. Everything runs here; nothing is sent anywhere.
import createPaleo from '../paleo.js';
import { DEFAULTS, fromHash, isNumberKey, parseWorkers, requests, toHash } from './state.js';
import { csv, download, el } from './dom.js';
import { resizeCharts } from './charts.js';
import * as render from './render.js';

const $ = (id) => document.getElementById(id);
let paleo = null;
let presets = null;
let state = fromHash(location.hash);
let last = null;                      // {requests, estimate, compare, search}
const exports = {};                   // table name -> {headers, rows} for CSV
let sort = { column: null, descending: false };
let updates = 0;

function call(request) {
  return JSON.parse(paleo.handle(JSON.stringify(request)));
}

function fill(select, entries) {
  const keep = [...select.options].filter((o) => o.dataset.keep !== undefined || o.value === '');
  const options = keep.map((o) => o.cloneNode(true));
  for (const [value, label] of entries) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    options.push(o);
  }
  select.replaceChildren(...options);
}

function populate() {
  presets = call({ command: 'presets' });
  const devices = presets.devices.map((d) => [d.key, d.name]);
  const networks = presets.networks.map((n) => [n.key, `${n.name} (${n.bandwidth_gbit_per_s} Gb/s)`]);
  const software = presets.software.map((s) => [s.key, `${s.name} (${s.ppp_comp} / ${s.ppp_comm})`]);
  fill($('net'), presets.nets.map((n) => [n.key, `${n.key} — ${n.name}`]));
  fill($('device'), devices);
  fill($('b_device'), devices);
  fill($('network'), networks);
  fill($('b_network'), networks);
  fill($('software'), software);
  fill($('b_software'), software);
  fill($('profile'), presets.profiles.map((p) => [p, p]));
  fill($('conv_algorithm'), presets.conv_algorithms.map((a) => [a, a]));
  fill($('cluster'), presets.clusters.map((c) => [c.key, c.name]));
  fill($('collective'), ['auto', 'ring', 'recursive_doubling', 'rabenseifner', 'binomial_tree', 'double_binary_tree',
    'parameter_server', 'sharded_parameter_server', 'hierarchical'].map((a) => [a, a]));
  $('price_preset').replaceChildren();
  fill($('price_preset'), [['', 'by hand'], ...presets.prices.map((p) =>
    [p.key, `${p.name}: $${p.usd_per_device_hour} (${p.date})`])]);
  $('version').textContent = 'Version ' + paleo.version() + '.';
}

const softwarePreset = (key) => presets.software.find((s) => s.key === key);

function writeForm() {
  for (const [key, value] of Object.entries(state)) {
    const input = $(key);
    if (!input) continue;
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else if (isNumberKey(key) && value === 0 && DEFAULTS[key] === 0) input.value = '';
    else input.value = String(value);
  }
  // A software preset names its PPP pair: show it.
  const sw = state.software && softwarePreset(state.software);
  if (sw) {
    $('ppp_comp').value = String(sw.ppp_comp);
    $('ppp_comm').value = String(sw.ppp_comm);
  }
  showOptional();
}

function readForm() {
  const next = { ...state };
  for (const key of Object.keys(DEFAULTS)) {
    const input = $(key);
    if (!input) continue;
    if (input.type === 'checkbox') next[key] = input.checked;
    else if (isNumberKey(key)) next[key] = input.value === '' ? (DEFAULTS[key] === 0 ? 0 : DEFAULTS[key]) : Number(input.value);
    else next[key] = input.value;
  }
  return next;
}

function showOptional() {
  for (const box of document.querySelectorAll('fieldset.optional')) {
    box.classList.toggle('on', box.querySelector('legend input').checked);
  }
  $('hybrid-box').hidden = state.parallel !== 'hybrid';
  const price = presets && presets.prices.find((p) => p.key === state.price_preset);
  $('price-source').textContent = price ? 'Source: ' + price.sources.usd_per_device_hour : '';
}

// A core error: its layer and field first (the core's message starts with them too), then what
// is wrong. Text only: layer names come from the user.
function showError(node, error, lead = '') {
  node.hidden = !error;
  if (!error) {
    node.replaceChildren();
    return;
  }
  const where = [error.layer && `Layer “${error.layer}”`, error.field && `field “${error.field}”`].filter(Boolean).join(', ');
  let detail = error.message;
  for (const prefix of [`layer '${error.layer}': `, `field '${error.field}': `]) {
    if (detail.startsWith(prefix)) detail = detail.slice(prefix.length);
  }
  node.replaceChildren(lead, ...(where ? [el('strong', { text: where }), ': '] : []), detail);
}

const SPEC_FIELDS = new Set(['net', 'spec', 'layers', 'parents', 'type', 'tensor', 'filter', 'strides', 'padding', 'ksize']);

function markInvalid(field) {
  for (const node of document.querySelectorAll('#inputs [aria-invalid]')) node.removeAttribute('aria-invalid');
  if (field && $(field)) $(field).setAttribute('aria-invalid', 'true');
  if (parseWorkers(state.workers) === null) $('workers').setAttribute('aria-invalid', 'true');
}

function failed(error, fromSpec) {
  showError($('spec-error'), fromSpec ? error : null);
  showError($('error'), fromSpec ? null : error);
  if (fromSpec) {
    $('error').hidden = false;
    $('error').textContent = 'The pasted spec has an error (shown next to it); the results below are out of date.';
  }
  markInvalid(fromSpec ? 'spec' : error.field);
  $('results').classList.add('stale');
}

// Timed for bench/browser_timing.mjs: one re-estimate, core calls and rendering.
function update() {
  const t0 = performance.now();
  estimateAndRender();
  window.paleoLastUpdateMs = performance.now() - t0;
  document.body.dataset.updates = String(++updates);
}

function estimateAndRender() {
  let reqs;
  try {
    reqs = requests(state);
  } catch (e) {
    failed({ message: 'malformed JSON: ' + e.message, layer: '', field: 'spec' }, true);
    return;
  }
  const estimate = call(reqs.estimate);
  if (!estimate.ok) {
    const e = estimate.error;
    failed(e, Boolean(state.spec.trim()) && (Boolean(e.layer) || SPEC_FIELDS.has(e.field) || !$(e.field)));
    return;
  }
  const compare = reqs.compare ? call(reqs.compare) : null;
  const search = reqs.search ? call(reqs.search) : null;
  last = { requests: reqs, estimate, compare, search };
  window.paleoResult = last;
  showError($('spec-error'), null);
  // Errors of configuration B and of the search name their own inputs.
  const B_FIELDS = { batch_size: 'b_batch', device: 'b_device', network: 'b_network', software: 'b_software' };
  let secondary = null, invalid = null;
  if (compare && !compare.ok) {
    secondary = [compare.error, 'Configuration B: '];
    invalid = B_FIELDS[compare.error.field] ?? null;
  } else if (search && !search.ok) {
    secondary = [search.error, 'Layer-wise search: '];
    invalid = { devices: 'search_devices', devices_per_node: 'search_per_node' }[search.error.field] ?? null;
  }
  showError($('error'), ...(secondary ?? [null]));
  markInvalid(invalid);
  $('results').classList.remove('stale');

  $('net-info').textContent = `${state.spec.trim() ? 'Pasted spec' : 'Preset'} “${estimate.net.name}”: ` +
    `${estimate.net.layer_count} layers, batch ${estimate.net.batch_size}.`;
  $('context').textContent = render.describe(estimate) + ', ' + state.conv_algorithm + '.';
  render.cards($('cards'), estimate, state);
  const one = render.trainPlan(estimate, state)[0];
  $('summary-bar').textContent = `Step ${$('cards').querySelector('.value').textContent} · ` +
    `${render.duration(one.time_ms)} · ${render.money(one.cost)} on one ${estimate.device.name}`;
  exports.training = render.training({ summary: $('train-summary'), table: $('train-table') }, estimate, state);
  $('compare').hidden = !(compare && compare.ok);
  if (compare && compare.ok) {
    exports.compare = render.compare({ table: $('compare-table'), summary: $('compare-summary') }, estimate, compare, state);
  }
  $('cluster-section').hidden = !estimate.cluster;
  if (estimate.cluster) {
    render.cluster({ summary: $('cluster-summary'), bars: $('cluster-bars'), memory: $('memory-bar'), chart: $('node-chart') },
      estimate.cluster);
  }
  $('search-section').hidden = !(search && search.ok);
  if (search && search.ok) {
    exports.search = render.search({ summary: $('search-summary'), chart: $('search-chart'), table: $('search-table') }, search);
  }
  exports.scaling = render.scaling(estimate.simulation ?? null,
    { time: $('time-chart'), speedup: $('speedup-chart'), table: $('scaling-table') });
  renderLayers();
  document.body.dataset.ready = 'true';
}

function renderLayers() {
  exports.layers = render.layerTable($('layers'), last.estimate, sort, (column) => {
    sort = { column, descending: sort.column === column ? !sort.descending : true };
    renderLayers();
    $('layers').querySelectorAll('th button.sort')[column].focus();
  });
  $('layer-count').textContent = `(${last.estimate.layers.length})`;
}

let timer = null;
function onInput(event) {
  const id = event.target.id;
  if (id === 'spec-file') return;
  state = readForm();
  if (id === 'software' && state.software) {
    const sw = softwarePreset(state.software);
    state.ppp_comp = sw.ppp_comp;
    state.ppp_comm = sw.ppp_comm;
  } else if (id === 'ppp_comp' || id === 'ppp_comm') {
    state.software = '';
  } else if (id === 'price_preset' && state.price_preset) {
    state.price = presets.prices.find((p) => p.key === state.price_preset).usd_per_device_hour;
  } else if (id === 'price') {
    state.price_preset = '';
  } else if (id === 'net') {
    state.spec = '';
  }
  if (['software', 'ppp_comp', 'ppp_comm', 'price_preset', 'price', 'net'].includes(id) ||
      event.target.type === 'checkbox' || id === 'parallel') writeForm();
  history.replaceState(null, '', toHash(state));
  clearTimeout(timer);
  timer = setTimeout(update, 60);
}

function status(text) {
  $('action-status').textContent = text;
  clearTimeout(status.timer);
  status.timer = setTimeout(() => { $('action-status').textContent = ''; }, 2500);
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    status(what + ' copied');
  } catch {
    window.prompt(`Copy the ${what.toLowerCase()}:`, text);
  }
}

function embedSnippet() {
  const sw = state.software && softwarePreset(state.software);
  const attrs = [['net', state.net], ['device', state.device], ['network', state.network],
    ['batch', state.batch_size || ''], ['workers', (parseWorkers(state.workers) ?? []).join(',')], ['scaling', state.scaling],
    ['ppp-comp', sw ? sw.ppp_comp : state.ppp_comp], ['ppp-comm', sw ? sw.ppp_comm : state.ppp_comm],
    ['parallel', state.parallel], ['profile', state.profile === DEFAULTS.profile ? '' : state.profile]]
    .filter(([, v]) => v !== '' && v != null);
  const script = new URL('paleo-embed.js', location.href).href;
  return `<script src="${script}"></script>\n<paleo-estimate ` + attrs.map(([k, v]) => `${k}="${v}"`).join(' ') +
    '></paleo-estimate>';
}

async function start() {
  performance.mark('paleo-start');
  paleo = await createPaleo();
  performance.mark('paleo-module-ready');
  populate();
  performance.mark('paleo-presets-ready');
  writeForm();
  $('inputs').addEventListener('input', onInput);
  $('inputs').addEventListener('change', onInput);
  $('inputs').addEventListener('submit', (e) => e.preventDefault());
  $('spec-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('spec').value = await file.text();
    e.target.value = '';
    onInput({ target: $('spec') });
  });
  $('spec-clear').addEventListener('click', () => {
    $('spec').value = '';
    onInput({ target: $('spec') });
  });
  $('copy-url').addEventListener('click', () => copy(location.href, 'Link'));
  $('export-json').addEventListener('click', () => last && download('paleo-result.json', 'application/json',
    JSON.stringify({ requests: last.requests, estimate: last.estimate, compare: last.compare, search: last.search }, null, 2) + '\n'));
  $('copy-embed').addEventListener('click', () => copy(embedSnippet(), 'Embed snippet'));
  for (const button of document.querySelectorAll('button.csv')) {
    button.addEventListener('click', () => {
      const data = exports[button.dataset.table];
      if (data) download(`paleo-${button.dataset.table}.csv`, 'text/csv', csv(data.headers, data.rows));
      else status('Nothing to export');
    });
  }
  window.addEventListener('hashchange', () => {
    const next = fromHash(location.hash);
    if (toHash(next) === toHash(state)) return;
    state = next;
    writeForm();
    update();
  });
  let resizeTimer = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(resizeCharts, 100);
  });
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const scheme = () => { document.documentElement.dataset.scheme = dark.matches ? 'dark' : 'light'; };
  scheme();
  dark.addEventListener('change', () => { scheme(); update(); });
  update();
  performance.mark('paleo-first-result');
  // The frame after the first result: when it is on screen (bench/browser_timing.mjs).
  requestAnimationFrame(() => setTimeout(() => performance.mark('paleo-first-result-painted'), 0));
}

start().catch((e) => {
  const node = $('error');
  node.hidden = false;
  node.textContent = 'Paleo could not start: ' + (e && e.message ? e.message : String(e));
});
