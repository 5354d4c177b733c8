// <paleo-estimate>: a compact Paleo result inside any page. web/build.mjs bundles this (with the
// attribute table and the page's formatters it imports) and appends it to the single-file
// WebAssembly build (which defines createPaleo), wrapping both in one function, so the script adds
// nothing to the page's globals but the element. The module loads once for all elements on the page.
/* global createPaleo */
import { EMBED_ATTRIBUTE_NAMES, requestOf } from '../src/embed_attributes.js';
import { duration, money } from '../src/format.js';

{
  let modulePromise = null;
  const load = () => (modulePromise ??= createPaleo());

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

  // A spec carried compressed (the page's "spec-z": raw deflate, base64url) back to its text.
  async function inflate(text) {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    return new Response(stream).text();
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
    static get observedAttributes() { return EMBED_ATTRIBUTE_NAMES; }

    constructor() {
      super();
      this.attachShadow({ mode: 'open' });
      this.result = null;
      this.pending = false;
    }

    connectedCallback() { this.schedule(); }
    attributeChangedCallback() { if (this.isConnected) this.schedule(); }

    // Several attribute changes in one task give one estimate.
    schedule() {
      if (this.pending) return;
      this.pending = true;
      queueMicrotask(() => {
        this.pending = false;
        this.render();
      });
    }

    // The request document of docs/api.md for the attributes (the table the page's snippet is
    // written from: web/src/embed_attributes.js).
    async request() {
      const r = requestOf((name) => this.getAttribute(name), 'vgg16');
      const specZ = this.getAttribute('spec-z');
      if (specZ) {
        try {
          r.net = JSON.parse(await inflate(specZ));
        } catch (e) {
          throw new Error('the spec-z attribute is not a compressed spec: ' + ((e && e.message) || e));
        }
      }
      return r;
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
      this.dispatchEvent(new CustomEvent('paleo-result', { detail: response, bubbles: true, composed: true }));
    }
  }

  if (!customElements.get('paleo-estimate')) customElements.define('paleo-estimate', PaleoEstimate);
}
