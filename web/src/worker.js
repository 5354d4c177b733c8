// The core in a Web Worker, off the page's main thread. The page compiles the WebAssembly module
// once, while it loads, and sends it here ({type: 'init', module, files}: files, the presets/ files
// the module leaves out that the page has loaded); this worker instantiates it and answers each
// {type: 'call', id, json} with the core's response text, in order. A 'batch' runs several
// requests and reports progress after each. Anything the module throws (a JavaScript RangeError
// for a request nested too deep) becomes an error response, and the instance is replaced by a
// fresh one: a throw can leave the module's own stack half unwound.
// web/build.mjs builds this file twice: with the full module's glue (worker.js) and with the
// estimate-only module's (worker-estimate.js; its module binds no addPresetFile and is sent none).
import createPaleo from '../paleo.js';

let compiled = null;     // the WebAssembly.Module the page sent
let markReady = null;
let instance = new Promise((resolve) => { markReady = resolve; });  // the module's exports, once there

const errorText = (message) => JSON.stringify({ ok: false, error: { message, layer: '', field: '' } });

// presets/ files the module leaves out, as the page hands them over ({type: 'presets', files}):
// every instance gets them, a fresh one after a throw too.
const presetFiles = {};
function addPresetFiles(paleo, files) {
  for (const [path, text] of Object.entries(files)) {
    const answer = JSON.parse(paleo.addPresetFile(path, text));
    if (!answer.ok) console.warn(`paleo: ${path}: ${answer.error.message}`);
  }
  return paleo;
}

function instantiate() {
  return createPaleo({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(compiled, imports).then((made) => receive(made, compiled),
        (e) => self.postMessage({ type: 'failed', message: String(e && e.message ? e.message : e) }));
      return {};
    },
  }).then((paleo) => addPresetFiles(paleo, presetFiles));
}

async function handle(json) {
  const paleo = await instance;
  try {
    return paleo.handle(json);
  } catch (e) {
    instance = instantiate();
    const why = e instanceof RangeError ? 'the request is too deeply nested or too large to process'
      : 'the core stopped on this request';
    return errorText(`${why} (${e && e.message ? e.message : String(e)})`);
  }
}

self.onmessage = async ({ data }) => {
  if (data.type === 'init') {
    compiled = data.module;
    Object.assign(presetFiles, data.files);
    const first = instantiate();
    markReady(first);
    self.postMessage({ type: 'ready', version: (await first).version() });
  } else if (data.type === 'presets') {
    // Before the next job: it awaits the instance, which now adds the files first.
    Object.assign(presetFiles, data.files);
    instance = instance.then((paleo) => addPresetFiles(paleo, data.files));
  } else if (data.type === 'call') {
    self.postMessage({ type: 'result', id: data.id, json: await handle(data.json) });
  } else if (data.type === 'batch') {
    const out = [];
    for (const json of data.jsons) {
      out.push(await handle(json));
      self.postMessage({ type: 'progress', id: data.id, done: out.length, total: data.jsons.length });
    }
    self.postMessage({ type: 'result', id: data.id, jsons: out });
  }
};
