// The layer-wise search section: the search runs on the core's slow lane (a worker of its own),
// with a progress line and a Stop button meanwhile; the next input change that alters the search
// request cancels it, and one that does not (a chart option, the price, another section) keeps
// what is running or shown. section[data-state]: running, done, failed or stopped.
import { isCancelled } from './core.js';
import { showError } from './errors.js';
import { FULL_MODULE, noFullModule } from './full_module_note.js';
import * as render from './render.js';
import { limitRows } from './row_limit.js';

const $ = (id) => document.getElementById(id);
const FIELDS = { devices: 'search_devices', devices_per_node: 'search_per_node' };

export class SearchPanel {
  // call(request, options) -> promise of the response; cancel(key); exports: CSV tables;
  // markInvalid(id) marks one input invalid; fullModule(request) -> {loading, loaded}
  // (full_module_note.js): the search is the full module's.
  constructor({ call, cancel, exports, markInvalid, fullModule = noFullModule }) {
    Object.assign(this, { call, cancel, exports, markInvalid, fullModule });
    this.run = null;       // {json, response}
    this.ticker = null;
    this.section = $('search-section');
    $('search-stop').addEventListener('click', () => this.stop('Stopped; change an input to search again.'));
  }

  // Shows the search for `request` (null: none), running it unless it is the one already shown or
  // running; onResult(response) when it comes.
  show(request, onResult) {
    if (!request) {
      this.stop();
      this.run = null;
      this.section.hidden = true;
      return;
    }
    const json = JSON.stringify(request);
    if (this.run && this.run.json === json) {
      if (this.run.response) this.finish(this.run, this.run.response, onResult);
      else this.run.onResult = onResult;
      return;
    }
    const run = { json, response: null, onResult, started: performance.now() };
    this.run = run;
    this.section.hidden = false;
    this.section.classList.add('running');
    this.setState('running');
    showError($('search-error'), null);
    $('search-stop').hidden = false;
    $('search-progress').hidden = false;
    const full = this.fullModule(request);
    const tick = () => {
      const seconds = (performance.now() - run.started) / 1e3;
      $('search-status').textContent = (full.loading ? `Loading ${FULL_MODULE}, then searching` : 'Searching') +
        ` the per-layer strategies on ${request.devices} devices… ${seconds.toFixed(1)} s`;
    };
    tick();
    clearInterval(this.ticker);
    this.ticker = setInterval(tick, 200);
    this.call(request, { lane: 'slow', key: 'search' }).then((response) => {
      if (this.run !== run) return;
      run.response = response;
      this.finish(run, response, run.onResult);
    }, (e) => {
      if (isCancelled(e) || this.run !== run) return;
      run.response = { ok: false, error: { message: String(e && e.message ? e.message : e), layer: '', field: '' } };
      this.finish(run, run.response, run.onResult);
    });
  }

  async finish(run, response, onResult) {
    if (run.rendered) {  // already on screen: the estimate's update cleared only the inputs' marks
      if (!response.ok) this.markInvalid(FIELDS[response.error.field] ?? null);
      else onResult?.(response);
      return;
    }
    run.rendered = true;
    this.idle();
    if (!response.ok) {
      this.setState('failed');
      showError($('search-error'), response.error, 'Layer-wise search: ');
      this.markInvalid(FIELDS[response.error.field] ?? null);
      for (const id of ['search-summary', 'search-chart', 'search-table']) $(id).replaceChildren();
      limitRows($('search-table-wrap'), 'layers');
      $('search-status').textContent = '';
      return;
    }
    showError($('search-error'), null);
    // The summary and chart now, the table (a row per layer) in a task of its own.
    const table = document.createElement('div');
    this.exports.search = render.search({ summary: $('search-summary'), chart: $('search-chart'), table }, response);
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (this.run !== run) return;
    $('search-table').replaceChildren(...table.childNodes);
    limitRows($('search-table-wrap'), 'layers');
    const elapsed = performance.now() - run.started;  // request to table on screen (bench/browser_timing.mjs)
    this.section.dataset.ms = elapsed.toFixed(1);
    $('search-status').textContent = `Searched in ${(elapsed / 1e3).toFixed(2)} s.`;
    this.setState('done');
    onResult?.(response);
  }

  // Cancels a search that is running (its result would be out of date); `why` is shown.
  stop(why = '') {
    if (!this.run || this.run.response) return;
    this.cancel('search');
    this.run = null;
    this.idle();
    $('search-status').textContent = why;
    this.setState('stopped');
  }

  idle() {
    clearInterval(this.ticker);
    this.section.classList.remove('running');
    $('search-stop').hidden = true;
    $('search-progress').hidden = true;
  }

  setState(state) {
    this.section.dataset.state = state;
    this.section.setAttribute('aria-busy', String(state === 'running'));
  }
}
