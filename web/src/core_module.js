// One WebAssembly module of the page's core (core_client.js): compiled once, streaming, when
// first needed, and its workers (web/src/worker.js built with the module's glue), each with its
// own instance: a "fast" lane for estimates and a "slow" one, started with its first job, for
// searches, plans, sweeps and the validation suite.
import { Lane, spawnWorker } from './core_lane.js';

function compile(wasmUrl) {
  const bytes = () => fetch(wasmUrl).then((r) => {
    if (!r.ok) throw new Error(`${wasmUrl}: HTTP ${r.status}`);
    return r.arrayBuffer();
  }).then((b) => WebAssembly.compile(b));
  // A server that does not send application/wasm breaks streaming: compile from the bytes then.
  if (!WebAssembly.compileStreaming) return bytes();
  return WebAssembly.compileStreaming(fetch(wasmUrl)).catch(bytes);
}

export class ModuleCore {
  // urls: {module, classic} (the worker's two builds) and wasm (the module); presetFiles: the
  // presets/ files the module leaves out that the page has loaded (handed to every worker), or
  // null for a module that takes none; stats: counters shared with the client, for the tests.
  constructor(urls, { presetFiles, stats }) {
    Object.assign(this, { urls, presetFiles, stats });
    this.compiled = null;  // the promise of the WebAssembly.Module, once asked for
    this.ready = null;     // the WebAssembly.Module, once compiled
    this.lanes = { fast: null, slow: null };
  }

  // Starts the download and compile (once); the promise of the compiled module.
  load() {
    if (!this.compiled) {
      this.compiled = compile(this.urls.wasm);
      this.compiled.then((module) => { this.ready = module; }, () => {});
    }
    return this.compiled;
  }

  get loaded() {
    return Boolean(this.ready);
  }

  // The lane, its worker started (and the module loaded) with its first job.
  lane(name) {
    if (!this.lanes[name]) {
      const start = (onFail) => {
        const worker = spawnWorker(this.urls);
        // The files travel with the module: a lane posts its first job before this runs, and that
        // job must find them.
        this.load().then((module) => worker.postMessage({ type: 'init', module, files: this.presetFiles ?? {} }),
          (e) => onFail('the core could not load: ' + e.message));
        return worker;
      };
      this.lanes[name] = new Lane(start, { stoppable: name === 'slow', stats: this.stats });
      this.lanes[name].spawn();
    }
    return this.lanes[name];
  }

  // Hands presets/ files to the workers running now (later ones get them with the module).
  addPresetFiles(files) {
    Object.assign(this.presetFiles, files);
    for (const lane of Object.values(this.lanes)) lane?.worker?.postMessage({ type: 'presets', files });
  }

  // Stops the jobs with this key, queued or (on the slow lane) running.
  cancel(key) {
    for (const lane of Object.values(this.lanes)) lane?.supersede(key);
  }
}
