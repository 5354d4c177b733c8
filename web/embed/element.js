// <paleo-estimate>: a compact Paleo result inside any page. web/build.mjs bundles this (with the
// attribute table and the page's formatters it imports) and appends it to the glue of the
// estimate-only WebAssembly build (which defines createPaleo), wrapping both in one function, so
// the script adds nothing to the page's globals but the element. The module itself is inlined
// deflated (PALEO_WASM_DEFLATED, base64): three quarters of the download of the module as plain
// base64 (docs/performance.md). The module loads once for all elements on the page.
// A transformer's element is built with the page's own transformer request (embed_transformer.js).
/* global createPaleo, PALEO_WASM_DEFLATED */
import { EMBED_ATTRIBUTE_NAMES, EMBED_SECTIONS, requestOf } from '../src/embed_attributes.js';
import { TRANSFORMER_ATTRIBUTES, TRANSFORMER_EMBED_SECTIONS, TRANSFORMER_ONLY_ATTRIBUTES,
  transformerRequestOf } from '../src/embed_transformer.js';
import { SERVING_ATTRIBUTES, SERVING_EMBED_SECTIONS, SERVING_TASK, servingRequestOf } from '../src/embed_serving.js';
import { bytes, count, duration, expectedErrorText, integer, money, ms } from '../src/format.js';
import { percent } from '../src/transformer.js';

{
  let modulePromise = null;
  // Raw-deflated bytes carried as base64 or base64url text (the module, a spec-z attribute),
  // inflated by the browser's own zlib: a Response to read as bytes or text. No fetch: the script
  // works from file://.
  function inflated(base64) {
    const binary = atob(base64.replace(/-/g, '+').replace(/_/g, '/'));
    // A plain loop: Uint8Array.from with a callback per byte took 27 ms on 370 KB in V8, this 1.4.
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')));
  }

  let wasmPromise = null;
  const wasmBinary = () => (wasmPromise ??= inflated(PALEO_WASM_DEFLATED).arrayBuffer()
    .then((buffer) => new Uint8Array(buffer)));
  // null: the module is createPaleo's own (the npm package's element, web/build_package.mjs).
  const moduleOptions = () => (PALEO_WASM_DEFLATED === null ? Promise.resolve({})
    : wasmBinary().then((binary) => ({ wasmBinary: binary })));
  const load = () => (modulePromise ??= moduleOptions().then((options) => createPaleo(options)));

  // The core's response; anything the module throws (a RangeError for a request nested too deep)
  // is an error response, and the next estimate gets a fresh module: a throw can leave the
  // module's own stack half unwound.
  async function estimate(request) {
    const paleo = await load();
    try {
      return JSON.parse(paleo.handle(JSON.stringify(request)));
    } catch (e) {
      modulePromise = null;
      return { ok: false, error: { message: String((e && e.message) || e), layer: '', field: '' } };
    }
  }


  // Whether a preset net is a transformer, as the core's `summary` says (once per net key).
  const kinds = new Map();
  async function isTransformerNet(net) {
    if (!kinds.has(net)) {
      const summary = await estimate({ command: 'summary', net, sections: [] });  // its kind alone
      kinds.set(net, summary.ok && summary.kind === 'transformer');
    }
    return kinds.get(net);
  }

  // A config by URL. The script's wrapper hides `fetch` from the module's loader (web/build.mjs):
  // the page's own is window.fetch. A page opened from disk cannot fetch, and the error says so.
  async function fetchConfig(url) {
    let response;
    try {
      response = await window.fetch(new URL(url, document.baseURI));
    } catch (e) {
      throw new Error(`config-url: could not fetch ${url}` + (location.protocol === 'file:'
        ? ': a page opened from file:// cannot fetch files. Serve the page over http(s), or give the config inline ' +
          '(a config attribute, or a <script type="application/json"> inside the element)'
        : ': ' + ((e && e.message) || e)));
    }
    if (!response.ok) throw new Error(`config-url: ${url} answered ${response.status} ${response.statusText}`.trim());
    return response.text();
  }

  const STYLE = `
    :host { display: block; max-width: 34rem; margin: 1rem 0; padding: .6rem .8rem; border: 1px solid rgba(127, 127, 127, .4);
      border-radius: 8px; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    :host([hidden]) { display: none; }
    .title { font-weight: 600; margin-bottom: .15rem; }
    .sub { font-size: .8rem; opacity: .75; margin-bottom: .4rem; }
    table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: .88rem; }
    th, td { padding: .22rem .4rem; border-top: 1px solid rgba(127, 127, 127, .3); text-align: left; font-weight: 400; }
    td { text-align: right; white-space: nowrap; }
    td.scheme { text-align: left; opacity: .75; font-size: .8rem; }
    tr.step th, tr.step td:first-of-type { font-weight: 600; }
    tr.bad td { font-weight: 600; }
    .band { font-size: .8rem; opacity: .75; margin-top: .4rem; }
    .error { color: #b42318; }
    /* Colours follow the host page (currentColor); borders are a grey that reads on light and dark. */
    @media (prefers-color-scheme: dark) { .error { color: #e5534b; } }`;

  // One constructed style sheet shared by every element: no <style> element, so a page whose
  // Content-Security-Policy forbids inline styles shows the element as designed.
  let sheet = null;
  function adoptStyle(root) {
    if (!('adoptedStyleSheets' in Document.prototype) || !('replaceSync' in CSSStyleSheet.prototype)) {
      return [node('style', STYLE)];
    }
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
    }
    root.adoptedStyleSheets = [sheet];
    return [];
  }

  const fmt = (v) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));

  function node(tag, text, cls) {
    const n = document.createElement(tag);
    if (text != null) n.textContent = text;
    if (cls) n.className = cls;
    return n;
  }

  class PaleoEstimate extends HTMLElement {
    static get observedAttributes() {
      return [...new Set([...EMBED_ATTRIBUTE_NAMES, ...TRANSFORMER_ATTRIBUTES.map(([name]) => name), 'config-url', 'task',
        ...SERVING_ATTRIBUTES.map(([name]) => name)])];
    }

    constructor() {
      super();
      this.attachShadow({ mode: 'open' });
      this.result = null;
      this.pending = false;
      // A config given as a child script: editing it re-estimates.
      this.observer = new MutationObserver(() => this.schedule());
    }

    connectedCallback() {
      this.observer.observe(this, { childList: true, subtree: true, characterData: true });
      this.schedule();
    }

    disconnectedCallback() { this.observer.disconnect(); }
    attributeChangedCallback() { if (this.isConnected) this.schedule(); }

    // Several attribute changes in one task give one estimate. While the document is still being
    // parsed, the element's children (a config script) may not all be there yet: the first
    // estimate waits for the parser, so that a half-read config is never priced or reported.
    schedule() {
      if (this.pending) return;
      this.pending = true;
      const run = () => {
        this.pending = false;
        this.render();
      };
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
      else queueMicrotask(run);
    }

    // A config inside the element: <script type="application/json">{...}</script>.
    configScript() {
      return [...this.children].find((n) => n.localName === 'script' && n.type === 'application/json') ?? null;
    }

    // A transformer's element: an attribute only a transformer has, a config, a serving task, or a
    // preset net the core says is a transformer.
    async isTransformer() {
      if (TRANSFORMER_ONLY_ATTRIBUTES.some((name) => this.hasAttribute(name)) || this.configScript() ||
        this.serves()) return true;
      const net = this.getAttribute('net');
      return Boolean(net) && !this.hasAttribute('spec-z') && isTransformerNet(net);
    }

    // task="serve": the transformer served under load (an `inference` request), not trained.
    serves() { return this.getAttribute('task') === SERVING_TASK; }

    // The request document of docs/api.md for the attributes (the tables the page's snippet is
    // written from: web/src/embed_attributes.js for a CNN, web/src/embed_transformer.js for a
    // transformer).
    async request() {
      const get = (name) => this.getAttribute(name);
      if (await this.isTransformer()) {
        const script = this.configScript();
        const url = get('config-url');
        const config = script ? script.textContent : url && !get('config') ? await fetchConfig(url) : null;
        try {
          if (this.serves()) return { ...servingRequestOf(get, config), sections: SERVING_EMBED_SECTIONS };
          return { ...transformerRequestOf(get, config), sections: TRANSFORMER_EMBED_SECTIONS };
        } catch (e) {
          throw new Error('the config is not JSON: ' + ((e && e.message) || e));
        }
      }
      const r = requestOf(get, 'vgg16');
      const specZ = this.getAttribute('spec-z');
      if (specZ) {
        try {
          r.net = JSON.parse(await inflated(specZ).text());  // the page's spec-z: raw deflate, base64url
        } catch (e) {
          throw new Error('the spec-z attribute is not a compressed spec: ' + ((e && e.message) || e));
        }
      }
      return { ...r, sections: EMBED_SECTIONS };
    }

    async render() {
      let response;
      try {
        response = await estimate(await this.request());
      } catch (e) {
        response = { ok: false, error: { message: String((e && e.message) || e), layer: '', field: '' } };
      }
      this.result = response;
      const style = adoptStyle(this.shadowRoot);
      if (!response.ok) {
        this.shadowRoot.replaceChildren(...style, node('div', 'Paleo: ' + response.error.message, 'error'));
        this.dispatchEvent(new CustomEvent('paleo-error', { detail: response.error.message, bubbles: true, composed: true }));
        return;
      }
      if (response.serving) this.showServing(response, style);
      else if (response.kind === 'transformer') this.showTransformer(response, style);
      else this.showCnn(response, style);
      this.dispatchEvent(new CustomEvent('paleo-result', { detail: response, bubbles: true, composed: true }));
    }

    // A transformer's step, tokens/s, MFU and memory per GPU, in the page's formats (its cards:
    // web/src/transformer.js), every number the core's.
    showTransformer(t, style) {
      const table = node('table');
      const row = (label, value, note, cls) => {
        const tr = node('tr', null, cls);
        tr.append(node('th', label), node('td', value), node('td', note, 'scheme'));
        table.append(tr);
      };
      const p = t.parallel, c = t.cluster;
      row('Step', ms(t.step_ms) + ' ms', `${p.micro_batches} micro-batches of ${p.micro_batch}`, 'step');
      row('Tokens/s', count(t.tokens_per_s), `${integer(t.tokens_per_step)} tokens a step`);
      row('MFU', percent(t.mfu), `of ${t.peak_tflops_per_gpu.toFixed(1)} TFLOP/s peak (${t.precision.compute})`);
      row('Memory per GPU', bytes(t.memory_per_device_bytes),
        (t.fits ? 'fits in ' : 'does not fit in ') + bytes(t.memory.capacity_bytes), t.fits ? undefined : 'bad');
      if (t.train) {
        row('Time to train', duration(t.train.time_s * 1e3),
          t.train.cost_usd !== undefined ? money(t.train.cost_usd) : `${integer(t.train.device_hours)} GPU-hours`);
      }
      const layout = [`TP ${p.tp}`, `PP ${p.pp}`, `DP ${p.dp}`, `CP ${p.cp}`, p.ep > 1 ? `EP ${p.ep}` : null].filter(Boolean);
      const parts = [node('div', t.model.name, 'title'),
        node('div', `${p.devices} × ${t.device.name} (${c.nodes} × ${c.devices_per_node}), ${t.precision.name}; ` +
          `${layout.join(' · ')}${p.sequence_parallel ? ' + SP' : ''}; global batch ${integer(p.global_batch)} × ` +
          `${integer(p.seq_len)} tokens · Paleo estimate`, 'sub'), table];
      if (t.expected_error) parts.push(node('p', expectedErrorText(t.expected_error), 'band'));
      this.shadowRoot.replaceChildren(...style, ...parts);
    }

    // A served transformer's time to first token, time per output token, throughput and the
    // requests its KV cache holds, in the page's formats (its cards: web/src/serving_view.js).
    showServing(r, style) {
      const s = r.serving;
      const table = node('table');
      const row = (label, value, note, cls) => {
        const tr = node('tr', null, cls);
        tr.append(node('th', label), node('td', value), node('td', note, 'scheme'));
        table.append(tr);
      };
      const inFlight = integer(Math.round(s.concurrency * 100) / 100);
      row('Time to first token', ms(s.ttft_ms) + ' ms', `prompt of ${integer(r.prompt_len)} tokens`, 'step');
      row('Time per output token', ms(s.tpot_ms) + ' ms', `${inFlight} requests in flight`, 'step');
      row('Request latency', ms(s.e2e_latency_ms) + ' ms', `${integer(r.generate_len)} output tokens`);
      row('Output tokens/s', count(s.total_output_tokens_per_s), `${count(s.output_tokens_per_s_per_gpu)} per GPU`);
      row('Requests/s', s.total_requests_per_s.toPrecision(3), s.saturated ? 'saturated: requests queue' : 'steady state',
        s.saturated ? 'bad' : undefined);
      row('Max concurrency', integer(s.max_concurrency), `KV cache ${bytes(s.kv_cache.capacity_bytes)} per GPU`,
        s.max_concurrency ? undefined : 'bad');
      row('Memory per GPU', bytes(r.memory_per_device_bytes),
        (r.fits ? 'fits in ' : 'does not fit in ') + bytes(r.capacity_bytes), r.fits ? undefined : 'bad');
      const devices = s.replicas * s.devices_per_replica;
      const parts = [node('div', r.model.name, 'title'),
        node('div', `served on ${devices} × ${r.device.name}: ${s.replicas} replica${s.replicas > 1 ? 's' : ''} of ` +
          `${s.devices_per_replica} GPU${s.devices_per_replica > 1 ? 's' : ''} (TP ${r.tp}), ${r.precision.name}; ` +
          `continuous batching${s.cuda_graphs ? ', CUDA graphs' : ''} · Paleo estimate`, 'sub'), table];
      if (r.expected_error) parts.push(node('p', expectedErrorText(r.expected_error), 'band'));
      this.shadowRoot.replaceChildren(...style, ...parts);
    }

    showCnn(response, style) {
      const t = response.totals;
      const table = node('table');
      const row = (label, value, scheme, cls) => {
        const tr = node('tr', null, cls);
        tr.append(node('th', label), node('td', value));
        if (scheme !== undefined) tr.append(node('td', scheme, 'scheme'));
        table.append(tr);
      };
      const sim = response.simulation;
      const withScheme = Boolean(sim && sim.parallel === 'data');
      const blank = withScheme ? '' : undefined;
      row('Forward', fmt(t.forward_ms) + ' ms', blank);
      row('Backward', fmt(t.backward_ms) + ' ms', blank);
      row('Update', fmt(t.update_ms) + ' ms', blank);
      row('Step, one device', fmt(t.step_ms) + ' ms', blank, response.cluster ? undefined : 'step');
      const samplesPerS = (v) => Math.round(v).toLocaleString('en-US') + ' samples/s';
      const c = response.cluster;
      row(c ? 'Throughput, one device' : 'Throughput', samplesPerS(t.throughput_samples_per_s), blank);
      if (c) {
        const devices = `${c.cluster.devices} devices`;
        row(`Step, ${devices} (${c.cluster.nodes} × ${c.cluster.devices_per_node})`, fmt(c.step_ms) + ' ms',
          withScheme ? c.chosen.algorithm : undefined, 'step');
        row(`Throughput, ${devices}`, samplesPerS(c.throughput_samples_per_s), blank);
      }
      const train = response.train;
      if (train) {
        // The page's own duration and money formats (web/src/format.js), so both show the same text.
        const head = train.setups[train.headline_index];
        row(`Time to train, ${train.epochs} epochs`, duration(head.time_s * 1e3) +
          (head.cost_usd === undefined ? '' : ', ' + money(head.cost_usd)), withScheme ? '' : undefined);
      }
      if (withScheme) {
        // Time per iteration with the fastest of the original's communication schemes (the core's).
        for (const r of sim.scaling[0].rows) {
          const best = r.fastest_scheme;
          row(`${r.workers} ${r.workers === 1 ? 'worker' : 'workers'}, ${sim.scaling[0].scaling}, PALEO 2017`,
            fmt(r.step_ms[best]) + ' ms', r.workers === 1 ? '' : best);
        }
      } else if (sim && sim.parallel === 'model') {
        row('Model parallel, forward', `${fmt(sim.forward.lower_ms)} – ${fmt(sim.forward.upper_ms)} ms`);
        row('Model parallel, backward', `${fmt(sim.backward.lower_ms)} – ${fmt(sim.backward.upper_ms)} ms`);
      } else if (sim && sim.parallel === 'hybrid') {
        row('Hybrid iteration', fmt(sim.iteration_ms) + ' ms');
      }
      this.shadowRoot.replaceChildren(...style,
        node('div', response.net.name, 'title'),
        node('div', `batch ${response.net.batch_size} on ${response.device.name}` +
          (response.cluster ? `, ${response.cluster.cluster.name}` : `, ${response.interconnect.name}`) +
          (response.software_era ? `, ${response.software_era.name}` : `, PPP ${response.ppp_comp} / ${response.ppp_comm}`) +
          ' · Paleo estimate' + (response.expected_error
            ? `, typically ±${(response.expected_error.median_abs_error * 100).toFixed(1)} %` : ''), 'sub'),
        table);
    }
  }

  if (!customElements.get('paleo-estimate')) customElements.define('paleo-estimate', PaleoEstimate);
}
