// The page's way to the core: two WebAssembly modules (core_module.js), each run in Web Workers.
// The estimate-only module (paleo-estimate.wasm, a third the size) starts with the page and
// answers the estimate path; the full module (paleo.wasm) loads when a request first needs a
// command or an importer the small one lacks (core_route.js): the validation suite, calibration,
// the layer-wise search, the planner, an imported net. Both run the same core code, so a request
// has one answer whichever module gives it. Each module has two lanes: "fast" answers estimates
// and "slow" runs searches, plans, sweeps and the validation suite, so a long search never delays
// an estimate. A call with a key supersedes the older calls with the same key: those still queued
// are dropped, and on a slow lane the one running is stopped by replacing its worker (the core
// has no way to stop a request half way). Responses are cached by request text, so asking again
// (an input changed that the request does not depend on) costs nothing.
import { ModuleCore } from './core_module.js';
import { needsFullModule } from './core_route.js';

export { Cancelled } from './core_lane.js';

const CACHE_ENTRIES = 48;

export class CoreClient {
  // urls: {estimate, full}, each {module, classic} (the worker's two builds) and wasm (the module).
  constructor(urls) {
    // Jobs posted to a worker, and running jobs stopped (their worker replaced): for the tests.
    this.stats = { posted: 0, stopped: 0 };
    this.small = new ModuleCore(urls.estimate, { presetFiles: null, stats: this.stats });
    this.small.load().then(() => performance.mark('paleo-wasm-compiled'), () => {});
    this.small.lane('fast');
    // presets/ files the full module leaves out, once the page has loaded them (preset_data.js).
    this.full = new ModuleCore(urls.full, { presetFiles: {}, stats: this.stats });
    this.cache = new Map();
  }

  // Whether `request` needs the full module, and whether that is compiled: a section says it is
  // loading meanwhile (full_module_note.js).
  needsFull(request) {
    return needsFullModule(request);
  }

  get fullLoaded() {
    return this.full.loaded;
  }

  // Starts loading the full module; resolves once it is compiled.
  loadFull() {
    return this.full.load();
  }

  // A batch (a sweep) runs on the full module once that is compiled: it is compiled for speed and
  // remembers the largest batch that fits across a sweep's requests (docs/performance.md), where
  // the estimate-only one, compiled for size, searches afresh each time. Both give one answer.
  laneFor(requests, lane) {
    const full = requests.some(needsFullModule) || (requests.length > 1 && this.full.loaded);
    return (full ? this.full : this.small).lane(lane);
  }

  // Queues a job on `lane`; a key drops the jobs with that key on every other lane first.
  push(lane, job) {
    if (job.key != null) {
      for (const core of [this.small, this.full]) {
        for (const other of Object.values(core.lanes)) if (other && other !== lane) other.supersede(job.key);
      }
    }
    lane.push(job);
  }

  // The response object for a request (docs/api.md). Options: lane ('fast' or 'slow'), key (a
  // newer call with the same key cancels this one: it rejects with Cancelled), cache (default on).
  call(request, { lane = 'fast', key = null, cache = true } = {}) {
    const json = JSON.stringify(request);
    const hit = cache && this.cache.get(json);
    if (hit) {
      this.cache.delete(json);
      this.cache.set(json, hit);
      if (key != null) this.cancel(key);
      return Promise.resolve(hit);
    }
    return new Promise((resolve, reject) => {
      this.push(this.laneFor([request], lane), { key, reject, resolve: (data) => {
        const response = JSON.parse(data.json);
        if (cache) this.remember(json, response);
        resolve(response);
      }, message: (id) => ({ type: 'call', id, json }) });
    });
  }

  // Several requests in one job (a sweep), with onProgress({done, total}) after each. The
  // responses are parsed a few at a time, yielding to the browser in between: a sweep's answers
  // can be megabytes.
  async batch(requests, { lane = 'slow', key = null, onProgress = null } = {}) {
    const jsons = requests.map((r) => JSON.stringify(r));
    const data = await new Promise((resolve, reject) => {
      this.push(this.laneFor(requests, lane), { key, reject, onProgress, resolve,
        message: (id) => ({ type: 'batch', id, jsons }) });
    });
    const responses = [];
    let since = performance.now();
    for (const json of data.jsons) {
      if (performance.now() - since > 8) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        since = performance.now();
      }
      responses.push(JSON.parse(json));
    }
    return responses;
  }

  // Hands presets/ files ({path: text}) to the full module's cores (the estimate-only module
  // takes none: the validation cases are the full module's): the workers running now, and later
  // ones. A message posted before a job's reaches the worker first, so every job after this sees
  // them.
  addPresetFiles(files) {
    this.full.addPresetFiles(files);
  }

  // Stops the calls with this key, queued or running (on a slow lane).
  cancel(key) {
    this.small.cancel(key);
    this.full.cancel(key);
  }

  remember(json, response) {
    this.cache.set(json, response);
    while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value);
  }
}
