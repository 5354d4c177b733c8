// <paleo-estimate>: a compact Paleo result inside any page. web/build.mjs appends this to the
// single-file WebAssembly build (which defines createPaleo) and wraps both in one function, so
// the script adds nothing to the page's globals but the element. The module loads once for all
// elements on the page.
/* global createPaleo */
(function () {
  'use strict';
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

  const ATTRIBUTES = ['net', 'device', 'interconnect', 'network', 'batch', 'workers', 'scaling', 'ppp-comp', 'ppp-comm',
    'parallel', 'profile', 'cluster', 'nodes', 'collective', 'overlap', 'dataset', 'epochs', 'price', 'spec-z'];

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
    static get observedAttributes() { return ATTRIBUTES; }

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

    // The request document of docs/api.md for the attributes.
    async request() {
      const a = (name) => this.getAttribute(name);
      const r = { command: 'estimate', net: a('net') || 'vgg16' };
      if (a('spec-z')) {
        try {
          r.net = JSON.parse(await inflate(a('spec-z')));
        } catch (e) {
          throw new Error('the spec-z attribute is not a compressed spec: ' + ((e && e.message) || e));
        }
      }
      if (a('device')) r.device = a('device');
      if (a('interconnect') || a('network')) r.interconnect = a('interconnect') || a('network');  // 'network': its old name
      if (a('profile')) r.profile = a('profile');
      if (a('batch')) r.batch_size = Number(a('batch'));
      if (a('ppp-comp')) r.ppp_comp = Number(a('ppp-comp'));
      if (a('ppp-comm')) r.ppp_comm = Number(a('ppp-comm'));
      if (a('workers')) {
        r.workers = a('workers').split(/[\s,]+/).filter(Boolean).map(Number);
        r.scaling = [a('scaling') || 'weak'];
        r.parallel = a('parallel') || 'data';
      }
      if (a('cluster')) {
        r.cluster = a('cluster');
        if (a('nodes')) r.nodes = Number(a('nodes'));
        if (a('collective')) r.collective = a('collective');
        if (a('overlap')) r.overlap = a('overlap') !== 'false';
      }
      if (a('dataset')) {
        r.dataset_samples = Number(a('dataset'));
        if (a('epochs')) r.epochs = Number(a('epochs'));
      }
      if (a('price')) r.price_per_gpu_hour = Number.isFinite(Number(a('price'))) ? Number(a('price')) : a('price');
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
      row('Throughput', Math.round(t.throughput_samples_per_s).toLocaleString('en-US') + ' samples/s', blank);
      const c = response.cluster;
      if (c) {
        row(`Step, ${c.cluster.devices} devices (${c.cluster.nodes} × ${c.cluster.devices_per_node})`, fmt(c.step_ms) + ' ms',
          withScheme ? c.chosen.algorithm : undefined, 'step');
      }
      const train = response.train;
      if (train) {
        const head = train.setups[train.headline];
        const days = head.time_s / 86400;
        row(`Time to train, ${train.epochs} epochs`, (days >= 2 ? days.toFixed(1) + ' days' : (head.time_s / 3600).toFixed(1) + ' h') +
          (head.cost_usd === undefined ? '' : `, $${head.cost_usd.toFixed(2)}`), withScheme ? '' : undefined);
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
})();
