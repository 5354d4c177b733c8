// The estimator page: inputs -> state -> requests to the WebAssembly core -> rendering.
import createPaleo from '../paleo.js';
import { DEFAULTS, fromHash, parseWorkers, requests, toHash } from './state.js';
import { download } from './dom.js';
import * as render from './render.js';

const $ = (id) => document.getElementById(id);
let paleo = null;
let state = fromHash(location.hash);
let presets = null;
let last = null;  // {estimate, simulate}
let sort = { column: null, descending: false };

function call(request) {
  return JSON.parse(paleo.handle(JSON.stringify(request)));
}

function fill(select, entries, { keep = [] } = {}) {
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
  fill($('net'), presets.nets.map((n) => [n.key, `${n.key} — ${n.name}`]));
  fill($('device'), presets.devices.map((d) => [d.key, d.name]));
  fill($('compare_device'), presets.devices.map((d) => [d.key, d.name]), { keep: [...$('compare_device').options].slice(0, 1) });
  fill($('network'), presets.networks.map((n) => [n.key, `${n.name} (${n.bandwidth_gbit_per_s} Gb/s)`]));
  fill($('software'), presets.software.map((s) => [s.key, `${s.name} (${s.ppp_comp} / ${s.ppp_comm})`]),
    { keep: [...$('software').options].slice(0, 1) });
  fill($('profile'), presets.profiles.map((p) => [p, p]));
  fill($('conv_algorithm'), presets.conv_algorithms.map((a) => [a, a]));
  fill($('cluster'), presets.clusters.map((c) => [c.key, c.name]));
  fill($('collective'), ['auto', 'ring', 'recursive_doubling', 'rabenseifner', 'binomial_tree', 'double_binary_tree',
    'parameter_server', 'sharded_parameter_server', 'hierarchical'].map((a) => [a, a]));
  fill($('price_preset'), [['', 'by hand'], ...presets.prices.map((p, i) =>
    [String(i), `${p.name} — $${p.usd_per_device_hour} (${p.date})`])]);
}

function writeForm() {
  for (const [key, value] of Object.entries(state)) {
    const input = $(key);
    if (!input) continue;
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else if (key === 'spec') input.value = value;
    else input.value = key === 'batch_size' && !value ? '' : String(value);
  }
}

function readForm() {
  const next = { ...state };
  for (const key of Object.keys(DEFAULTS)) {
    const input = $(key);
    if (!input) continue;
    if (input.type === 'checkbox') next[key] = input.checked;
    else if (input.type === 'number') next[key] = input.value === '' ? (key === 'batch_size' ? 0 : DEFAULTS[key]) : Number(input.value);
    else next[key] = input.value;
  }
  return next;
}

// The core's message starts with "layer 'x': field 'y': "; the page names them its own way.
function showError(node, error) {
  node.hidden = !error;
  if (!error) {
    node.textContent = '';
    return;
  }
  const detail = error.message.replace(/^layer '.*?': /, '').replace(/^field '.*?': /, '');
  node.textContent = (error.layer ? `Layer “${error.layer}”` : '') + (error.field ? ` field “${error.field}”` : '') +
    (error.layer || error.field ? ': ' : '') + detail;
}

// Timed for bench/browser_timing.mjs: one re-estimate, core calls and rendering.
function update() {
  const t0 = performance.now();
  estimateAndRender();
  window.paleoLastUpdateMs = performance.now() - t0;
}

function estimateAndRender() {
  let reqs;
  try {
    reqs = requests(state);
  } catch (e) {
    showError($('spec-error'), { message: 'malformed JSON: ' + e.message, layer: '', field: 'spec' });
    return;
  }
  const estimate = call(reqs.estimate);
  const specError = state.spec.trim() && !estimate.ok && estimate.error.field !== 'batch_size';
  showError($('spec-error'), specError ? estimate.error : null);
  showError($('error'), !estimate.ok && !specError ? estimate.error : null);
  if (!estimate.ok) return;
  $('net-info').textContent = `${estimate.net.name}: ${estimate.net.layer_count} layers, batch ${estimate.net.batch_size}`;
  const workersOk = parseWorkers(state.workers) !== null;
  $('workers').setAttribute('aria-invalid', String(!workersOk));
  const simulate = workersOk ? call(reqs.simulate) : null;
  last = { estimate, simulate };
  render.cards($('cards'), estimate, state);
  render.layerTable($('layers'), estimate, sort, (column) => {
    sort = { column, descending: sort.column === column ? !sort.descending : true };
    update();
  });
  $('layer-count').textContent = `(${estimate.layers.length})`;
  if (simulate && simulate.ok) {
    render.scaling(simulate, { time: $('time-chart'), speedup: $('speedup-chart'), table: $('scaling-table') });
  } else if (simulate) {
    showError($('error'), simulate.error);
  }
  render.cost($('cost'), estimate, state);
  $('cluster-section').hidden = !estimate.cluster;
  if (estimate.cluster) {
    render.cluster({ summary: $('cluster-summary'), bars: $('cluster-bars'), memory: $('memory-bar'), chart: $('node-chart') },
      estimate.cluster);
  }
  $('search-section').hidden = !state.search_on;
  if (state.search_on) {
    const found = call(reqs.search);
    if (found.ok) {
      render.search({ summary: $('search-summary'), chart: $('search-chart'), table: $('search-table') }, found);
    } else {
      showError($('error'), found.error);
    }
    last.search = found;
  }
  $('compare').hidden = !state.compare_device;
  if (state.compare_device) {
    const other = call(requests(state, state.compare_device).estimate);
    if (other.ok) render.compare($('compare-table'), estimate, other);
  }
  document.body.dataset.ready = 'true';
}

let timer = null;
function onInput(event) {
  const id = event.target.id;
  state = readForm();
  if (id === 'software' && state.software) {
    const sw = presets.software.find((s) => s.key === state.software);
    state.ppp_comp = sw.ppp_comp;
    state.ppp_comm = sw.ppp_comm;
    writeForm();
  } else if (id === 'ppp_comp' || id === 'ppp_comm') {
    state.software = '';
    $('software').value = '';
  } else if (id === 'price_preset' && state.price_preset !== '') {
    state.price = presets.prices[Number(state.price_preset)].usd_per_device_hour;
    writeForm();
  } else if (id === 'net') {
    state.spec = '';
    $('spec').value = '';
  }
  history.replaceState(null, '', toHash(state));
  clearTimeout(timer);
  timer = setTimeout(update, 60);
}

function status(text) {
  $('action-status').textContent = text;
  setTimeout(() => { $('action-status').textContent = ''; }, 2500);
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    status(what + ' copied');
  } catch {
    window.prompt('Copy:', text);
  }
}

function layersCsv() {
  const rows = [['name', 'type', 'output', 'params', 'forward_flops', 'forward_ms', 'backward_data_ms', 'backward_filter_ms',
    'backward_ms']];
  for (const l of last.estimate.layers) {
    rows.push([l.name, l.type, l.output.join('x'), l.params, l.forward.flops, l.forward.total_ms, l.backward_data.total_ms,
      l.backward_filter.total_ms, l.backward.total_ms]);
  }
  const quote = (v) => (/[",\n]/.test(String(v)) ? '"' + String(v).replaceAll('"', '""') + '"' : String(v));
  return rows.map((r) => r.map(quote).join(',')).join('\n') + '\n';
}

function embedSnippet() {
  const attrs = [['net', state.net], ['device', state.device], ['network', state.network], ['batch', state.batch_size || ''],
    ['workers', state.workers], ['scaling', state.scaling], ['ppp-comp', state.ppp_comp], ['ppp-comm', state.ppp_comm],
    ['parallel', state.parallel]].filter(([, v]) => v !== '' && v != null);
  return '<script src="paleo-embed.js"></script>\n<paleo-estimate ' + attrs.map(([k, v]) => `${k}="${v}"`).join(' ') +
    '></paleo-estimate>';
}

async function start() {
  paleo = await createPaleo();
  populate();
  writeForm();
  $('inputs').addEventListener('input', onInput);
  $('inputs').addEventListener('change', onInput);
  $('spec-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('spec').value = await file.text();
    onInput({ target: $('spec') });
  });
  $('copy-url').addEventListener('click', () => copy(location.href, 'Link'));
  $('export-csv').addEventListener('click', () => last && download('paleo-layers.csv', 'text/csv', layersCsv()));
  $('export-json').addEventListener('click', () => last && download('paleo-result.json', 'application/json',
    JSON.stringify(last, null, 2)));
  $('copy-embed').addEventListener('click', () => copy(embedSnippet(), 'Embed snippet'));
  window.addEventListener('hashchange', () => {
    state = fromHash(location.hash);
    writeForm();
    update();
  });
  update();
}

start();
