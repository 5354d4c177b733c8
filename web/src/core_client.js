// The page's way to the core: Web Workers (web/src/worker.js; module workers where the browser has
// them, classic ones elsewhere), each with its own instance of the WebAssembly module, which is
// compiled once here, streaming, while the page loads. Two lanes: "fast" answers estimates and
// "slow" runs searches, plans, sweeps and the validation suite, so a long search never delays an
// estimate. A call with a key supersedes the older calls with the same key: those still queued
// are dropped, and on the slow lane the one running is stopped by replacing its worker (the core
// has no way to stop a request half way). Responses are cached by request text, so asking again
// (an input changed that the request does not depend on) costs nothing.

export class Cancelled extends Error {
  constructor() {
    super('cancelled by a newer request');
    this.name = 'Cancelled';
  }
}

const CACHE_ENTRIES = 48;

// A module worker when the browser reads the `type` option, else the classic build of the worker.
function spawnWorker(urls) {
  let moduleWorkers = false;
  const options = { get type() { moduleWorkers = true; return 'module'; } };
  const worker = new Worker(urls.module, options);
  if (moduleWorkers) return worker;
  worker.terminate();
  return new Worker(urls.classic);
}

function compile(wasmUrl) {
  const bytes = () => fetch(wasmUrl).then((r) => {
    if (!r.ok) throw new Error(`${wasmUrl}: HTTP ${r.status}`);
    return r.arrayBuffer();
  }).then((b) => WebAssembly.compile(b));
  // A server that does not send application/wasm breaks streaming: compile from the bytes then.
  if (!WebAssembly.compileStreaming) return bytes();
  return WebAssembly.compileStreaming(fetch(wasmUrl)).catch(bytes);
}

// One worker and its queue; jobs run one at a time, in order.
class Lane {
  // start(onFail) makes a worker that will be given the module.
  constructor(start, { stoppable, stats }) {
    Object.assign(this, { start, stoppable, stats });
    this.queue = [];
    this.running = null;
    this.ids = 0;
    this.worker = null;
    this.broken = null;   // why the worker could not start: every job fails with it
  }

  spawn() {
    this.worker?.terminate();
    let started = false;
    const onFail = (message) => this.fail(new Error(message), started);
    const worker = this.start(onFail);
    this.worker = worker;
    worker.onmessage = ({ data }) => {
      if (worker !== this.worker) return;
      if (data.type === 'ready') {
        started = true;
        performance.mark('paleo-worker-ready');
      }
      else if (data.type === 'failed') onFail('the core could not start: ' + data.message);
      else this.receive(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker === this.worker) onFail('the core stopped: ' + (event.message || 'worker error'));
    };
  }

  // The worker died. Once it had started: the job running fails, the others go to a fresh
  // worker. Before: it cannot start at all, and every job fails.
  fail(error, started) {
    const job = this.running;
    this.running = null;
    job?.reject(error);
    if (started) {
      this.spawn();
      this.next();
      return;
    }
    this.broken = error;
    this.worker?.terminate();
    for (const queued of this.queue.splice(0)) queued.reject(error);
  }

  push(job) {
    if (this.broken) {
      job.reject(this.broken);
      return;
    }
    if (job.key != null) this.supersede(job.key);
    this.queue.push(job);
    this.next();
  }

  supersede(key) {
    this.queue = this.queue.filter((job) => {
      if (job.key !== key) return true;
      job.reject(new Cancelled());
      return false;
    });
    if (this.running && this.running.key === key && this.stoppable) {
      const job = this.running;
      this.running = null;
      ++this.stats.stopped;
      this.spawn();
      job.reject(new Cancelled());
      this.next();
    }
  }

  next() {
    if (this.running || !this.queue.length) return;
    const job = this.queue.shift();
    job.id = ++this.ids;
    this.running = job;
    ++this.stats.posted;
    this.worker.postMessage(job.message(job.id));
  }

  receive(data) {
    const job = this.running;
    if (!job || data.id !== job.id) return;  // from a job already given up
    if (data.type === 'progress') {
      job.onProgress?.(data);
      return;
    }
    this.running = null;
    job.resolve(data);
    this.next();
  }
}

export class CoreClient {
  // urls: {module, classic} (the worker's two builds) and wasm (the module).
  constructor(urls) {
    const compiled = compile(urls.wasm);
    compiled.then(() => performance.mark('paleo-wasm-compiled'), () => {});
    // presets/ files the module leaves out, once the page has loaded them (preset_data.js):
    // every worker's core gets them, those started later too.
    this.presetFiles = {};
    this.start = (onFail) => {
      const worker = spawnWorker(urls);
      // The files travel with the module: a lane posts its first job before this runs, and that
      // job must find them.
      compiled.then((module) => worker.postMessage({ type: 'init', module, files: this.presetFiles }),
        (e) => onFail('the core could not load: ' + e.message));
      return worker;
    };
    // Jobs posted to a worker, and running jobs stopped (their worker replaced): for the tests.
    this.stats = { posted: 0, stopped: 0 };
    this.lanes = { fast: new Lane(this.start, { stoppable: false, stats: this.stats }), slow: null };
    this.lanes.fast.spawn();
    this.cache = new Map();
  }

  // The slow lane starts with its first job.
  lane(name) {
    if (name === 'slow' && !this.lanes.slow) {
      this.lanes.slow = new Lane(this.start, { stoppable: true, stats: this.stats });
      this.lanes.slow.spawn();
    }
    return this.lanes[name];
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
      this.lane(lane).push({ key, reject, resolve: (data) => {
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
      this.lane(lane).push({ key, reject, onProgress, resolve, message: (id) => ({ type: 'batch', id, jsons }) });
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

  // Hands presets/ files ({path: text}) to the cores: the workers running now, and later ones.
  // A message posted before a job's reaches the worker first, so every job after this sees them.
  addPresetFiles(files) {
    Object.assign(this.presetFiles, files);
    for (const lane of Object.values(this.lanes)) lane?.worker?.postMessage({ type: 'presets', files });
  }

  // Stops the calls with this key, queued or running (on the slow lane).
  cancel(key) {
    for (const lane of Object.values(this.lanes)) lane?.supersede(key);
  }

  remember(json, response) {
    this.cache.set(json, response);
    while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value);
  }
}
