// The estimator page: inputs -> state (kept in the URL hash) -> request documents -> the
// WebAssembly core, in Web Workers (core_client.js) -> rendering. Everything runs in the browser;
// nothing is sent anywhere. A CNN net goes through render.js; a transformer (preset or pasted
// config) through transformer_view.js.
import { core, firstEstimate, firstPresets, firstSchema, isCancelled, linked } from './core.js';
import { expectedError, wireAccuracyLinks } from './expected_error.js';
import { presetData } from './preset_data.js';
import { DEFAULTS, isNumberKey, parseWorkers, readLink, requests, toParams } from './state.js';
import { csv, download, el } from './dom.js';
import { showLinkNote, wireImport } from './import_drop.js';
import { netKind, netFromText } from './net_text.js';
import { resizeCharts } from './charts.js';
import { clearFieldError, detail, showError } from './errors.js';
import { SearchPanel } from './search_panel.js';
import { cnnLayers, transformerOps } from './layers.js';
import { limitRows } from './row_limit.js';
import * as render from './render.js';
import { startingLayout } from './transformer_defaults.js';
import { TransformerView } from './transformer_view.js';
import { renderScheme, showSchemeError } from './training_scheme.js';
import { CUSTOM_DEVICE, customFromPreset, isCustomDeviceKey } from './custom_device.js';
import { sharedFieldInput } from './error_inputs.js';
import { SpecBox } from './spec_box.js';
import { showAppliedProfile } from './calibration_applied.js';
import { lazyChunk } from './lazy_chunk.js';
import { keepOffline } from './offline.js';
import { appliedProfile } from './calibration_request.js';
import { transformerRequest } from './transformer_request.js';
import { fillSchemaSelects } from './schema_selects.js';
import { FULL_MODULE, fullModuleFor } from './full_module_note.js';

const $ = (id) => document.getElementById(id);
let presets = null;
// Why the link's parameters were not read (one that inflates past the request limit), shown
// beside the "Copy link" button.
const linkProblems = [];
let state = { ...DEFAULTS };          // the link's, once boot.js has read it (start)
let specBox = null;                   // the spec box's text (spec_box.js)
let last = null;                      // {requests, estimate, compare, search}
let lastState = null;                 // the state of a CNN's `last`: its whole requests (withLayers)
const exports = {};                   // table name -> {headers, rows} for CSV
let sort = { column: null, descending: false };
let updates = 0;
let transformerKeys = new Set();
let view = null;                      // the transformer part of the page
let accuracy = null;                  // "How accurate is it?" (the validation suite), once opened
let search = null;                    // the layer-wise search, run on the slow lane
let calibration = null;               // "Calibrate to your measurements", run on the slow lane (loadCalibration)
let generation = 0;                   // counts updates: an answer for an older one is not shown

// A pasted config makes a transformer; a pasted CNN spec a CNN; else the preset decides.
const isTransformer = (s) => (s.config.trim() ? true : s.spec.trim() ? false : transformerKeys.has(s.net));

// The core's response to a request (a promise); options: core_client.js.
const call = (request, options) => core.call(request, options);
// Whether a request waits for the full module to load, and when it may run (full_module_note.js).
const fullModule = (request) => fullModuleFor(core, request);

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

function populate(version) {
  const devices = presets.devices.map((d) => [d.key, d.name]);
  const networks = presets.interconnects.map((n) => [n.key, `${n.name} (${n.bandwidth_gbit_per_s} Gb/s)`]);
  const software = presets.software.map((s) => [s.key, `${s.name} (${s.ppp_comp} / ${s.ppp_comm})`]);
  fillNets();
  const clusters = presets.clusters.map((c) => [c.key, c.label ?? c.name]);
  fill($('t_cluster'), clusters);
  fill($('device'), [...devices, [CUSTOM_DEVICE, 'Custom device…']]);
  fill($('b_device'), devices);
  const generations = [...new Set(presets.devices.map((d) => d.generation).filter(Boolean))];
  fill($('cd_generation'), generations.map((g) => [g, g]));
  fill($('network'), networks);
  fill($('b_network'), networks);
  fill($('software'), software);
  fill($('b_software'), software);
  // The eras a request may name, each for its kind of net; the ones a generation defaults to say so.
  const eras = (kind) => presets.software_eras.filter((e) => e.applies_to.includes(kind)).map((e) =>
    [e.key, e.generations.length ? `${e.name} (default: ${e.generations.join(', ')})` : e.name]);
  fill($('software_era'), eras('cnn'));
  fill($('t_software_era'), eras('transformer'));
  fill($('profile'), presets.profiles.map((p) => [p, p]));
  fill($('conv_algorithm'), [['', 'default (the era\'s choice)'], ...presets.conv_algorithms.map((a) => [a, a])]);
  fill($('cluster'), clusters);
  fill($('collective'), presets.collectives.map((a) => [a, a]));
  $('price_preset').replaceChildren();
  fill($('price_preset'), [['', 'by hand'], ...presets.prices.map((p) =>
    [p.key, `${p.name}: $${p.usd_per_device_hour} (${p.date})`])]);
  $('version').textContent = 'Version ' + version + '.';
}

// CNN presets, then the transformers in their own group by year and size, with their names.
function fillNets() {
  const transformers = (presets.transformers ?? []).slice().sort((a, b) => (a.year ?? 0) - (b.year ?? 0) ||
    (a.published_params ?? 0) - (b.published_params ?? 0) || a.name.localeCompare(b.name));
  transformerKeys = new Set(transformers.map((t) => t.key));
  const group = (label, entries) => el('optgroup', { label }, entries.map(([value, text]) => el('option', { value, text })));
  $('net').replaceChildren(group('CNNs', presets.nets.map((n) => [n.key, n.label ?? n.name])),
    group('Transformers and LLMs', transformers.map((t) => [t.key, t.name])));
}

const softwarePreset = (key) => presets.software.find((s) => s.key === key);

function writeForm() {
  for (const [key, value] of Object.entries(state)) {
    const input = $(key);
    if (!input) continue;
    if (key === 'spec') specBox.set(value);
    else if (input.type === 'checkbox') input.checked = Boolean(value);
    // Empty shows the placeholder's default (the spec's batch); a 0 that means "off" shows as 0.
    else if (isNumberKey(key) && value === 0 && DEFAULTS[key] === 0 && input.placeholder) input.value = '';
    else input.value = String(value);
  }
  // A software preset names its PPP pair: show it.
  const sw = state.software && softwarePreset(state.software);
  if (sw) {
    $('ppp_comp').value = String(sw.ppp_comp);
    $('ppp_comm').value = String(sw.ppp_comm);
  }
  if (state.config.trim()) $('config-box').open = true;
  showOptional();
}

function readForm() {
  const next = { ...state };
  for (const key of Object.keys(DEFAULTS)) {
    const input = $(key);
    if (!input) continue;
    if (key === 'spec') next[key] = specBox.text;
    else if (input.type === 'checkbox') next[key] = input.checked;
    else if (isNumberKey(key) && input.value === '') next[key] = DEFAULTS[key] === 0 || isCustomDeviceKey(key) ? 0 : DEFAULTS[key];
    else if (isNumberKey(key)) next[key] = Number(input.value);
    else next[key] = input.value;
  }
  return next;
}

function showOptional() {
  for (const box of document.querySelectorAll('fieldset.optional')) {
    box.classList.toggle('on', box.querySelector('legend input').checked);
  }
  $('hybrid-box').hidden = state.parallel !== 'hybrid';
  $('custom-device').hidden = state.device !== CUSTOM_DEVICE;
  // The PPP pair applies only to a software preset or PPP by hand; the era of the device has none.
  $('ppp-pair').hidden = !state.software;
  $('era-box').hidden = Boolean(state.software);  // a PPP pair replaces the era
  const price = presets && presets.prices.find((p) => p.key === state.price_preset);
  $('price-source').textContent = price ? 'Source: ' + price.sources.usd_per_device_hour : '';
}

const SPEC_FIELDS = new Set(['net', 'spec', 'layers', 'parents', 'type', 'tensor', 'filter', 'strides', 'padding', 'ksize']);
// The input of a request field whose name differs from the input's id.
const FIELD_INPUTS = { dataset_samples: 'dataset', price_per_gpu_hour: 'price', interconnect: 'network',
  bucket_bytes: 'bucket_mib' };
// A CNN's precision has its own select; the transformer's is `precision`.
const inputOf = (field, message = '') => {
  if (!field) return null;
  if (field === 'precision' && !isTransformer(state)) return $('cnn_precision');
  return $(sharedFieldInput(field, message, state) ?? FIELD_INPUTS[field] ?? field);
};

// An input in error: marked invalid, with the message as text right after it (not only a red
// border), named by aria-describedby.
function markField(input, message) {
  input.setAttribute('aria-invalid', 'true');
  const note = el('span', { class: 'field-error', id: input.id + '-field-error', text: message });
  input.after(note);
  input.setAttribute('aria-describedby', note.id);
}

function markInvalid(field, message = 'Not a valid value.') {
  for (const node of document.querySelectorAll('#inputs [aria-invalid]')) node.removeAttribute('aria-invalid');
  for (const node of document.querySelectorAll('#inputs .field-error')) {
    const input = node.previousElementSibling;
    if (input && input.getAttribute('aria-describedby') === node.id) input.removeAttribute('aria-describedby');
    node.remove();
  }
  const input = inputOf(field, message);
  if (input && input.id !== 'spec') markField(input, message);
  else if (input) input.setAttribute('aria-invalid', 'true');
  if (parseWorkers(state.workers) === null && input?.id !== 'workers') {
    markField($('workers'), 'Worker counts are whole numbers from 1 to 1,000,000, separated by commas.');
  }
}

function failed(error, fromSpec) {
  showError($('spec-error'), fromSpec ? error : null);
  showError($('error'), fromSpec ? null : error);
  if (fromSpec) {
    $('error').hidden = false;
    $('error').textContent = 'The pasted spec has an error (shown next to it); the results below are out of date.';
  }
  markInvalid(fromSpec ? 'spec' : error.field, detail(error));
  if (!fromSpec) showSchemeError(error);  // a training-scheme error also next to its input
  $('results').classList.add('stale');
}

// Timed for bench/browser_timing.mjs: one re-estimate, from the request to the result on
// screen (worker round trip, core and rendering). An update overtaken by a newer one shows nothing.
async function update() {
  const mine = ++generation;
  const current = () => mine === generation;
  const t0 = performance.now();
  const shown = state;
  document.body.dataset.inputs = isTransformer(shown) ? 'transformer' : 'cnn';  // laid out while the core works
  document.body.dataset.task = shown.t_task;
  try {
    if (!await estimateAndRender(shown, current)) return;
  } catch (e) {
    if (isCancelled(e) || !current()) return;
    unexpected(e, shown);
  }
  window.paleoLastUpdateMs = performance.now() - t0;
  document.body.dataset.updates = String(++updates);
}

// Anything else that goes wrong (the core stopped, a spec too deep to serialise) shows as an
// error next to the pasted spec or config, or above the results: the page stays alive.
function unexpected(e, s) {
  const error = { message: String(e && e.message ? e.message : e), layer: '', field: '' };
  if (isTransformer(s)) view.failed({ ...error, field: s.config.trim() ? 'net' : '' }, s);
  else failed(error, Boolean(s.spec.trim()));
}

// Renders the estimate of state `s`; false when a newer update overtook it (nothing shown).
async function estimateAndRender(s, current) {
  const mode = isTransformer(s) ? 'transformer' : 'cnn';
  if (mode === 'transformer') {
    search.stop();
    const result = await view.update(s, current);
    if (!current()) return false;
    setMode(mode);
    if (result) {
      last = result;
      window.paleoResult = last;
      renderLayers();
      document.body.dataset.ready = 'true';
      if (!performance.getEntriesByName('paleo-first-result').length) {
        performance.mark('paleo-first-result');
        afterPaint().then(() => performance.mark('paleo-first-result-painted'));
      }
    }
    return true;
  }
  let reqs;
  try {
    reqs = requests(s, { layers: $('layers-box').open, paleo2017: paleo2017Open() });
  } catch (e) {
    setMode(mode);
    view.clear();
    failed({ message: 'malformed JSON: ' + e.message, layer: '', field: 'spec' }, true);
    return true;
  }
  // An imported net is read by the full module only: the net's line says so while it loads.
  if (fullModule(reqs.estimate).loading) {
    $('net-info').textContent = `Loading ${FULL_MODULE} to read the imported net…`;
  }
  const [estimate, compare] = await Promise.all([call(reqs.estimate, { key: 'estimate' }),
    reqs.compare ? call(reqs.compare, { key: 'compare' }) : null]);
  if (!current()) return false;
  const switched = document.body.dataset.mode !== mode;
  const slice = timeSlice({ framePerPart: switched });
  setMode(mode);
  view.clear();
  if (switched && !await slice()) return false;  // the inputs of a CNN, restyled and laid out in a frame of their own
  if (!estimate.ok) {
    const e = estimate.error;
    search.stop();
    failed(e, Boolean(s.spec.trim()) && (Boolean(e.layer) || SPEC_FIELDS.has(e.field) || !inputOf(e.field)));
    return true;
  }
  last = { requests: reqs, estimate, compare, search: null };
  lastState = s;
  window.paleoResult = last;
  showError($('spec-error'), null);
  // Errors of configuration B name their own inputs (the search's: search_panel.js).
  const B_FIELDS = { batch_size: 'b_batch', device: 'b_device', network: 'b_network', software: 'b_software' };
  const compareError = compare && !compare.ok ? compare.error : null;
  showError($('error'), compareError, 'Configuration B: ');
  markInvalid(compareError ? B_FIELDS[compareError.field] ?? null : null, compareError?.message);
  $('results').classList.remove('stale');

  $('net-info').textContent = `${s.spec.trim() ? netKind(s.spec) : 'Preset'} “${estimate.net.name}”: ` +
    `${estimate.net.layer_count} layers, batch ${estimate.net.batch_size}.`;
  $('context').textContent = render.describe(estimate) + ', ' + (s.conv_algorithm || 'default algorithms') + '.';
  render.headline($('headline'), estimate);
  render.cards($('cards'), estimate, s);
  expectedError($('expected-error'), estimate);
  showWarnings($('warnings'), estimate.warnings);
  const head = estimate.train ? estimate.train.setups[estimate.train.headline_index] : null;
  $('summary-bar').textContent = `Step ${$('cards').querySelector('.value').textContent} · ` +
    (head ? `${render.duration(head.time_s * 1e3)} to train` + (head.cost_usd === undefined ? '' : ` · ${render.money(head.cost_usd)}`) +
      ` on ${head.setup === 'one device' ? 'one ' + estimate.device.name : head.setup}` : estimate.device.name) + ' (estimate)';
  exports.training = render.training({ summary: $('train-summary'), table: $('train-table'),
    original: $('paleo2017-train') }, estimate);
  // The headline is on screen; the rest follows, yielding to the browser between parts when the
  // task grows long (no main-thread task over 50 ms). The first time, the headline is painted
  // before the rest is built (bench/browser_timing.mjs times both).
  if (!performance.getEntriesByName('paleo-first-result').length) {
    performance.mark('paleo-first-result');
    await afterPaint();
    performance.mark('paleo-first-result-painted');
  }
  if (!await slice()) return false;
  // A section whose response is the one on screen (the cache returns the same object) stays.
  $('compare').hidden = !(compare && compare.ok);
  if (compare && compare.ok && changed('compare', estimate, compare)) {
    exports.compare = render.compare({ table: $('compare-table'), summary: $('compare-summary') }, estimate, compare);
  }
  $('cluster-section').hidden = !estimate.cluster;
  if (estimate.cluster && changed('cluster', estimate, document.documentElement.dataset.scheme)) {
    render.cluster({ summary: $('cluster-summary'), bars: $('cluster-bars'), memory: $('memory-bar'), chart: $('node-chart') },
      estimate.cluster);
  }
  if (changed('scheme', estimate, document.documentElement.dataset.scheme)) {
    clearFieldError();
    renderScheme({ section: $('scheme-section'), summary: $('scheme-summary'), table: $('scheme-table'),
      stepChart: $('scheme-step-chart'), bytesChart: $('scheme-bytes-chart') }, estimate.training_scheme ?? null);
  }
  if (!await slice()) return false;
  renderScaling(estimate);
  if (!await slice()) return false;
  if (changed('layers', estimate, sort)) renderLayers();
  // The search runs on its own (slow) lane; its result joins `last` when it comes.
  search.show(reqs.search, (response) => {
    last.search = response;
  });
  document.body.dataset.ready = 'true';
  return true;
}

// The PALEO 2017 scaling charts and table, drawn only while their section is open (it opens
// closed): a re-estimate does not redraw two charts no one sees. Opening it draws them.
function renderScaling(estimate) {
  if (!$('paleo2017').open || !changed('scaling', estimate, document.documentElement.dataset.scheme)) return;
  exports.scaling = render.scaling(estimate.simulation ?? null,
    { time: $('time-chart'), speedup: $('speedup-chart'), table: $('scaling-table') }, presets.original_schemes);
}

// Whether the PALEO 2017 simulation is on screen: its results or its inputs open.
const paleo2017Open = () => $('paleo2017').open || $('paleo2017-inputs').open;

// Whether a section's inputs differ from those it was last rendered with (compared by identity).
const renderedWith = new Map();
function changed(section, ...inputs) {
  const before = renderedWith.get(section);
  if (before && before.length === inputs.length && before.every((v, i) => v === inputs[i])) return false;
  renderedWith.set(section, inputs);
  return true;
}

// The calibration panel, its code loaded once.
const loadCalibration = lazyChunk(() => import('./calibration_panel.js').then(({ CalibrationPanel }) => {
  calibration = new CalibrationPanel({ call, cancel: (key) => core.cancel(key), fullModule,
    // The scenario as the user set it, the software era chosen included, without an applied profile.
    pageRequest: () => {
      const own = { ...state, calibration: '' };
      return isTransformer(own) ? { request: transformerRequest(own), transformer: true }
        : { request: requests(own).estimate, transformer: false };
    },
    applied: () => state.calibration,
    apply: (profile, kind) => {
      state = { ...state, calibration: profile ? appliedProfile(profile, kind) : '' };
      writeLink();
      showAppliedProfile(state.calibration);
      schedule(0);
    } });
}));

// Resolves in the task after the next frame: what was rendered before is then on screen.
const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

// The same, at once in a tab not shown (it paints no frame until it is).
const afterPaintIfShown = () => (document.visibilityState === 'visible' ? afterPaint() : Promise.resolve());

// Puts the page's inputs and result sections (index.html's template "page-main") in place, once:
// after the first headline, so that the main thread is free while the core's worker starts.
function showPageBody() {
  const body = $('page-main');
  body?.replaceWith(body.content);
}

// Yields to the browser once the current task has run for `budget_ms` (a new task), or at every
// call when `framePerPart` (after a frame: what the parts before built is then laid out and painted
// in a task of its own; a switch of mode builds every section anew, and laying them all out in one
// frame takes over 50 ms on a slow machine). Resolves false when a newer update started meanwhile.
function timeSlice({ budget_ms = 8, framePerPart = false } = {}) {
  let since = performance.now();
  const mine = generation;
  return async () => {
    if (framePerPart || performance.now() - since > budget_ms) {
      await (framePerPart ? afterPaint() : new Promise((resolve) => setTimeout(resolve, 0)));
      since = performance.now();
    }
    return mine === generation;
  };
}

function setMode(mode) {
  if (document.body.dataset.mode === mode) return;
  document.body.dataset.mode = mode;
  sort = { column: null, descending: false };
  renderedWith.clear();  // the layer table showed the other mode's rows
  // A CNN's sections shown by an update (marked data-per-update) come back one part of the update at
  // a time, each with its own layout, not all at once with the previous net's rows (over a thousand
  // elements in one frame).
  for (const section of document.querySelectorAll('section[data-per-update]')) section.hidden = true;
  search.show(null);
}

// The core's warnings (a choice it did not follow, a sweep point it left out), as text.
function showWarnings(list, warnings = []) {
  list.hidden = !warnings.length;
  list.replaceChildren(...warnings.map((w) => el('li', { text: w })));
}

// The per-layer table is built only while it is open; a CNN's estimate then carries its rows
// (requests' `layers`), and opening the table asks for them. Its heading counts the rows either
// way. data-state (closed, loading, shown) says whether the rows on screen are the result's.
function renderLayers() {
  const onSort = (column) => {
    sort = { column, descending: sort.column === column ? !sort.descending : true };
    renderLayers();
  };
  const shown = last.transformer ?? last.estimate;
  const section = $('layers-section');
  // A serving answer has no per-operator rows.
  section.hidden = Boolean(last.transformer) && !shown.layers;
  if (section.hidden) return;
  $('layers-title').textContent = last.transformer ? 'Operators' : 'Layers';
  $('layer-count').textContent = `(${shown.layers ? shown.layers.length : shown.net.layer_count})`;
  if (!$('layers-box').open || !shown.layers) {
    section.dataset.state = $('layers-box').open ? 'loading' : 'closed';
    return;
  }
  exports.layers = last.transformer ? transformerOps($('layers'), shown, sort, onSort) : cnnLayers($('layers'), shown, sort, onSort);
  limitRows($('layers-wrap'), last.transformer ? 'operators' : 'layers');
  section.dataset.state = 'shown';
}

// Opening the table shows the rows of the result on screen, or asks the core for them.
function onLayersToggle() {
  if (!last || !$('layers-box').open) return;
  renderLayers();  // the rows, or "loading" until an update brings them
  if (!(last.transformer ?? last.estimate).layers) schedule(0);
}

let timer = null;
let inputs = 0;  // counts input events: a starting layout computed for an older one is dropped
async function onInput(event) {
  const id = event.target.id;
  if (id === 'spec-file' || id === 'config-file') return;
  const mine = ++inputs;
  const wasTransformer = isTransformer(state);
  const before = state;
  state = readForm();
  if (id === 'software' && state.software && state.software !== 'hand') {
    const sw = softwarePreset(state.software);
    state.ppp_comp = sw.ppp_comp;
    state.ppp_comm = sw.ppp_comm;
  } else if (id === 'ppp_comp' || id === 'ppp_comm') {
    state.software = 'hand';
  } else if (id === 'price_preset' && state.price_preset) {
    state.price = presets.prices.find((p) => p.key === state.price_preset).usd_per_device_hour;
  } else if (id === 'price') {
    state.price_preset = '';
  } else if (id === 'device' && state.device === CUSTOM_DEVICE) {
    // "Custom device…" starts from the device chosen before it.
    const preset = presets.devices.find((d) => d.key === before.device);
    if (preset) Object.assign(state, customFromPreset(preset, presets.clusters));
  } else if (id === 'profile' && state.profile === 'paleo2017' && state.cnn_precision === DEFAULTS.cnn_precision) {
    state.cnn_precision = '';  // PALEO 2017 prices fp32 only: the default precision follows it
  } else if (id === 'net') {
    state.spec = '';
    state.config = '';
  } else if ((id === 'cluster' || (id === 'cluster_on' && state.cluster_on)) && state.cluster) {
    // A cluster preset is built of one GPU: the Device select follows it (a different device
    // chosen afterwards is priced, and the core's warning says so).
    const c = presets.clusters.find((k) => k.key === state.cluster);
    if (c?.device) state.device = c.device;
  } else if (id === 't_cluster' && state.t_cluster) {
    // A cluster preset names its GPU and how many a node holds.
    const c = presets.clusters.find((k) => k.key === state.t_cluster);
    if (c?.device) state.device = c.device;
    if (c?.devices_per_node) state.t_per_node = c.devices_per_node;
  } else if (id === 'spec' && state.spec.trim() && state.config) {
    state.config = '';
    $('config').value = '';
  } else if (id === 'config' && state.config.trim() && state.spec) {
    state.spec = '';
    specBox.set('');
  }
  // Picking a transformer preset, or pasting a config after a CNN, starts from a layout that fits.
  const starts = isTransformer(state) && (id === 'net' || (id === 'config' && !wasTransformer));
  if (starts) {
    const next = await startingLayout(call, state, { hardware: !wasTransformer, prices: presets.prices });
    if (mine !== inputs) return;
    state = next;
  }
  if (['software', 'ppp_comp', 'ppp_comm', 'price_preset', 'price', 'net', 't_cluster', 'cluster', 'device', 'profile'].includes(id) || starts ||
      event.target.type === 'checkbox' || id === 'parallel') writeForm();
  await writeLink();
  if (mine !== inputs) return;  // a newer input writes the link and updates
  schedule(event.type === 'input' && /^(text|number|textarea)/.test(event.target.type) ? 60 : 0);
}

// The spec box's net as JSON (a pasted prototxt wrapped as {"prototxt": ...}); the text itself
// when it is neither (the estimate shows why).
function specAsJson(text) {
  try {
    return JSON.stringify(netFromText(text));
  } catch {
    return text;
  }
}

// An imported net can make the link too long to share: say so, and offer the net as a file.
function showLinkProblems() {
  $('link-error').hidden = linkProblems.length === 0;
  $('link-error').textContent = linkProblems.join(' ');
}

// The state into the URL (the newest state's hash wins), then the note on the link's length.
let linkWrites = 0;
async function writeLink() {
  const mine = ++linkWrites;
  let writer;
  try {
    writer = await loadLinkCompress();
  } catch {
    return;  // its chunk did not load: the link stays as it was, the estimates go on
  }
  const hash = await writer.toHashAsync(state);
  if (mine !== linkWrites) return;
  history.replaceState(null, '', hash);
  linkNote();
}

function linkNote() {
  showLinkNote($('link-note'), $('link-note-download'), location.href.length, () => specAsJson(state.spec) + '\n');
}

// The code that writes links (link_compress.js: fflate's deflater), a chunk of its own fetched
// once the first view is built; a failed load is tried again by the next link written.
const loadLinkCompress = lazyChunk(() => import('./link_compress.js'));

// Typing waits for a pause (60 ms); a pick or a click updates at once. What is on screen for
// older inputs stays, greyed out by nothing: the next result replaces it.
function schedule(delay) {
  ++generation;  // an answer for the inputs before this one is not shown
  clearTimeout(timer);
  timer = setTimeout(update, delay);
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

async function start() {
  performance.mark('paleo-start');
  await paintFirstHeadline();
  showPageBody();
  // The schema: the core's request fields, their values and its version.
  // The link, read once by boot.js while the core started.
  const [presetsResponse, schema, link] = await Promise.all([firstPresets, firstSchema, linked]);
  state = link.state;
  linkProblems.push(...link.problems);
  specBox = new SpecBox($('spec-box'), $('spec'));
  if (!presetsResponse.ok) throw new Error(presetsResponse.error.message);
  if (!schema.ok) throw new Error(schema.error.message);
  presets = presetsResponse;
  performance.mark('paleo-module-ready');
  fillSchemaSelects(schema, $);
  populate(schema.version);
  performance.mark('paleo-presets-ready');
  // "How accurate is it?" needs the full module and its cases: its code loads with them, when the
  // section first opens (a chunk of its own, not before the first result).
  const accuracyDetails = $('accuracy');
  wireAccuracyLinks(accuracyDetails);
  const loadAccuracy = lazyChunk(() => import('./accuracy.js').then(({ AccuracySection }) => {
    accuracy = new AccuracySection({ call, exports, needsCases: () => presetData(core, 'validation'), fullModule });
    if (accuracyDetails.open) accuracy.show();
  }));
  accuracyDetails.addEventListener('toggle', () => {
    if (accuracyDetails.open) loadAccuracy().catch(() => {});  // a failed load: tried again by the next opening
  });
  search = new SearchPanel({ call, cancel: (key) => core.cancel(key), exports, fullModule,
    markInvalid: (id) => id && $(id)?.setAttribute('aria-invalid', 'true') });
  showAppliedProfile(state.calibration);
  // "Calibrate to your measurements" loads its code (a chunk of its own) when the page is idle
  // after its first result, or when the section opens first; its controls wait for it.
  $('calibration-box').addEventListener('toggle', () => {
    if ($('calibration-box').open) loadCalibration().catch(() => {});
  });
  view = new TransformerView({ call, batch: (list, options) => core.batch(list, options), fullModule,
    cancel: (key) => core.cancel(key), status, exports, getState: () => state,
    setLayout: (layout) => {
      state = { ...state, ...layout };
      writeForm();
      writeLink();
      schedule(0);
    } });
  // A hand-written link naming only a transformer gets the layout its pick would give.
  const given = link.params;
  if (isTransformer(state) && !given.has('device') && !given.has('tp')) {
    state = await startingLayout(call, state, { hardware: true, prices: presets.prices });
    await writeLink();
  }
  writeForm();
  linkNote();
  showLinkProblems();
  // Every control fires `input` (selects and checkboxes too); `change` would repeat it.
  $('inputs').addEventListener('input', onInput);
  $('inputs').addEventListener('submit', (e) => e.preventDefault());
  // A model file dropped on the page or picked: its text (an ONNX graph decoded) in the spec box.
  wireImport({ target: document.body, fileInput: $('spec-file'),
    use: (text) => {
      specBox.set(text);
      $('spec-box').open = true;
      onInput({ target: $('spec') });
    },
    fail: (message) => failed({ message, layer: '', field: 'spec' }, true) });
  $('spec-clear').addEventListener('click', () => {
    specBox.set('');
    onInput({ target: $('spec') });
  });
  $('config-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('config').value = await file.text();
    e.target.value = '';
    onInput({ target: $('config') });
  });
  $('config-clear').addEventListener('click', () => {
    $('config').value = '';
    onInput({ target: $('config') });
  });
  // The skip link moves the focus to the results; the URL keeps the state (no "#results").
  document.querySelector('a.skip').addEventListener('click', (e) => {
    e.preventDefault();
    $('results').focus();
  });
  $('layers-box').addEventListener('toggle', onLayersToggle);
  // The PALEO 2017 section draws its scaling once opened (renderScaling). While it and the
  // section of its inputs are closed the estimates leave its simulation out (state.js requests):
  // opening either asks the core for it, which also checks those inputs.
  const onPaleo2017Toggle = () => {
    if (last?.estimate && !last.transformer) {
      if (paleo2017Open() && !last.estimate.simulation && parseWorkers(lastState.workers)) schedule(0);
      else renderScaling(last.estimate);
    }
    resizeCharts();
  };
  $('paleo2017').addEventListener('toggle', onPaleo2017Toggle);
  $('paleo2017-inputs').addEventListener('toggle', onPaleo2017Toggle);
  $('copy-url').addEventListener('click', () => copy(location.href, 'Link'));
  $('export-json').addEventListener('click', async () => {
    if (!last) return;
    const result = last.transformer ? { ...last, plan: view.plan() } : await withLayers(last);
    download('paleo-result.json', 'application/json', JSON.stringify(result, null, 2) + '\n');
  });
  $('copy-embed').addEventListener('click', async () => {
    // In the click's own task once loaded: some browsers write the clipboard only there.
    const { embedSnippetFor } = embedCopy ?? await loadEmbedCopy();
    const snippet = embedSnippetFor(state, { transformer: isTransformer(state), specJson: specAsJson, status });
    if (snippet) copy(snippet, 'Embed snippet');
  });
  for (const button of document.querySelectorAll('button.csv')) {
    button.addEventListener('click', () => {
      const data = exports[button.dataset.table];
      if (data) download(`paleo-${button.dataset.table}.csv`, 'text/csv', csv(data.headers, data.rows));
      else status('Nothing to export');
    });
  }
  window.addEventListener('hashchange', async () => {
    const hash = location.hash;
    const read = await readLink(hash);
    if (hash !== location.hash) return;  // a newer link came while this one was read
    linkProblems.splice(0, linkProblems.length, ...read.problems);
    const next = read.state;
    showLinkProblems();
    if (toParams(next) === toParams(state)) return;
    state = next;
    writeForm();
    showAppliedProfile(state.calibration);
    schedule(0);
  });
  let resizeTimer = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizeCharts();
      accuracy?.redraw();
    }, 100);
  });
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const scheme = () => { document.documentElement.dataset.scheme = dark.matches ? 'dark' : 'light'; };
  scheme();
  dark.addEventListener('change', () => {
    scheme();
    schedule(0);
    accuracy?.redraw();
  });
  ++generation;
  await update();
  performance.mark('paleo-first-view');  // every section of the first result built
  loadEmbedCopy().catch(() => {});
  loadLinkCompress().catch(() => {});
  loadCalibration().catch(() => {});
  keepOffline();
}

// A CNN result as exported: the estimates whole, with their per-layer tables and the PALEO 2017
// simulation, and the requests that give them (those on screen leave out what a closed section
// shows). A request the same as the one on screen is answered from the client's cache.
async function withLayers({ requests: shown, search: searched }) {
  const whole = requests(lastState);
  const [full, fullCompare] = await Promise.all([call(whole.estimate), whole.compare ? call(whole.compare) : null]);
  return { requests: { ...shown, estimate: whole.estimate, compare: whole.compare }, estimate: full, compare: fullCompare,
    search: searched };
}

// The first result on screen: the headline of the link's estimate, which boot.js asked for before
// the presets, painted once the core answers it. The inputs and the other sections follow when the
// presets and the schema are in (start); the first update finds the same answer in the core
// client's cache and leaves the headline as it is (render.headline).
async function paintFirstHeadline() {
  const estimate = await firstEstimate;
  // A transformer's answer (its `kind`) has its own cards; an error shows with the inputs.
  if (!estimate?.ok || estimate.kind || !estimate.totals || performance.getEntriesByName('paleo-first-result').length) return;
  render.headline($('headline'), estimate);
  performance.mark('paleo-first-result');
  await afterPaintIfShown();
  performance.mark('paleo-first-result-painted');
}

// The embed snippet's code (embed_copy.js, the element's attribute tables): a chunk of its own,
// fetched once the first view is built, not before the first result. A failed load is tried again
// by the next click.
let embedCopy = null;  // the module, once loaded
const loadEmbedCopy = lazyChunk(() => import('./embed_copy.js').then((module) => (embedCopy = module)));

// The script may run before the document is parsed (it loads async, to start the core early).
const started = document.readyState === 'loading'
  ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true })).then(start) : start();
started.catch((e) => {
  showPageBody();
  const node = $('error');
  node.hidden = false;
  node.textContent = 'Paleo could not start: ' + (e && e.message ? e.message : String(e));
});
