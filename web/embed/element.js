// <paleo-estimate>: a compact Paleo result inside any page. Appended to the single-file
// WebAssembly build, which defines createPaleo; the module loads once for all elements.
(function () {
  'use strict';
  let modulePromise = null;
  const load = () => (modulePromise ??= createPaleo());  // eslint-disable-line no-undef

  const STYLE = `:host{display:block;font:14px/1.4 system-ui,sans-serif;border:1px solid #d8dee4;border-radius:8px;
    padding:.5rem .75rem;max-width:36rem}table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
    td,th{padding:.2rem .4rem;border-bottom:1px solid #d8dee4;text-align:left}td.n{text-align:right}
    .e{color:#b42318}.t{font-weight:600;margin-bottom:.3rem}
    @media (prefers-color-scheme:dark){:host{border-color:#30363d}td,th{border-color:#30363d}.e{color:#f87171}}`;

  const fmt = (v) => (Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));

  class PaleoEstimate extends HTMLElement {
    static get observedAttributes() {
      return ['net', 'device', 'network', 'batch', 'workers', 'scaling', 'ppp-comp', 'ppp-comm', 'parallel', 'profile'];
    }

    constructor() {
      super();
      this.attachShadow({ mode: 'open' });
      this.result = null;
    }

    connectedCallback() { this.render(); }
    attributeChangedCallback() { if (this.isConnected) this.render(); }

    request() {
      const a = (name) => this.getAttribute(name);
      const r = { command: 'estimate', net: a('net') || 'vgg16' };
      if (a('device')) r.device = a('device');
      if (a('network')) r.network = a('network');
      if (a('profile')) r.profile = a('profile');
      if (a('batch')) r.batch_size = Number(a('batch'));
      if (a('ppp-comp')) r.ppp_comp = Number(a('ppp-comp'));
      if (a('ppp-comm')) r.ppp_comm = Number(a('ppp-comm'));
      if (a('workers')) {
        r.workers = a('workers').split(',').map(Number);
        r.scaling = [a('scaling') || 'weak'];
        r.parallel = a('parallel') || 'data';
      }
      return r;
    }

    async render() {
      const root = this.shadowRoot;
      const el = (tag, text, cls) => {
        const n = document.createElement(tag);
        if (text != null) n.textContent = text;
        if (cls) n.className = cls;
        return n;
      };
      let response;
      try {
        const paleo = await load();
        response = JSON.parse(paleo.handle(JSON.stringify(this.request())));
      } catch (e) {
        response = { ok: false, error: { message: String(e && e.message || e) } };
      }
      const style = el('style', STYLE);
      if (!response.ok) {
        this.result = response;
        root.replaceChildren(style, el('div', 'Paleo: ' + response.error.message, 'e'));
        this.dispatchEvent(new CustomEvent('paleo-error', { detail: response.error.message, bubbles: true }));
        return;
      }
      this.result = response;
      const t = response.totals;
      const rows = [['Forward', t.forward_ms], ['Backward', t.backward_ms], ['Update', t.update_ms], ['Step', t.step_ms]];
      const table = el('table');
      for (const [name, value] of rows) {
        const tr = el('tr');
        tr.append(el('th', name), el('td', fmt(value) + ' ms', 'n'));
        table.append(tr);
      }
      const sim = response.simulation;
      if (sim && sim.parallel === 'data') {
        for (const row of sim.scaling[0].rows) {
          const tr = el('tr');
          tr.append(el('th', `${row.workers} workers (Tree)`),
            el('td', fmt(row.time_comp_ms + row.comm_ms.TreeAllReduce) + ' ms', 'n'));
          table.append(tr);
        }
      }
      const title = el('div', `${response.net.name} on ${response.device.name}, batch ${response.net.batch_size}`, 't');
      root.replaceChildren(style, title, table);
      this.dispatchEvent(new CustomEvent('paleo-result', { detail: response, bubbles: true }));
    }
  }

  if (!customElements.get('paleo-estimate')) customElements.define('paleo-estimate', PaleoEstimate);
})();
