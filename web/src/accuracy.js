// "How accurate is it?": the validation suite of the core (docs/validation.md) on the page. Opening
// the section sends {"command": "validate"} once (the answer is kept); it shows predicted against
// measured per case (log-log, one colour per family, with the line predicted = measured and the
// ±10 % and ±35 % bands), the summary per family and the cases with their sources. Every number
// is the core's. Its code loads when the section first opens (main.js); the band an estimate
// carries beside its headline is expected_error.js's.
import { loadUPlot } from './charts.js';
import { el, table } from './dom.js';
import { FULL_MODULE, noFullModule } from './full_module_note.js';
import { absPercent, compareUnit, scatterValue, sig, signedPercent, splitSource } from './format.js';

const BANDS = [0.35, 0.1];  // shaded: |predicted / measured - 1| within each

// A true/false statement case (its measured is a boolean) has no error to draw.
const scored = (c) => c.ok && c.expressible && typeof c.measured === 'number';
const shown = (v) => (typeof v === 'boolean' ? String(v) : sig(v));

// An http(s) link built with DOM APIs (nothing else becomes a link), then the source's note.
function sourceLink(text, id) {
  const { url, note } = splitSource(text);
  let parsed = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return el('span', { text: text || '–' });
  const a = document.createElement('a');
  a.href = parsed.href;
  a.rel = 'noopener';
  a.target = '_blank';
  a.className = 'source';
  const shown = parsed.host + (parsed.pathname === '/' ? '' : parsed.pathname);
  a.textContent = shown.length > 40 ? shown.slice(0, 39) + '…' : shown;  // the whole URL in the title
  a.title = parsed.href;
  // The name starts with the text shown (a speech user says what they see), then the whole URL.
  a.setAttribute('aria-label', `${a.textContent} (source of ${id}: ${parsed.href})`);
  return note ? el('span', {}, [a, el('span', { class: 'muted', text: ' ' + note })]) : a;
}

function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { fg: v('--fg'), grid: v('--grid'), series: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => v(`--series-${i}`)) };
}

const tick = (v) => (v == null ? '' : v >= 1 ? String(+v.toPrecision(3)) : String(+v.toPrecision(2)));

// Predicted against measured, log-log (with the uPlot class); returns the plot.
function scatter(uPlot, container, validation, families, old) {
  if (old) old.destroy();
  container.replaceChildren();
  const points = validation.cases.filter(scored)
    .map((c) => ({ x: scatterValue(c.measured, c.compare), y: scatterValue(c.predicted, c.compare), family: c.family }))
    .sort((a, b) => a.x - b.x);
  const xs = points.map((p) => p.x);
  const series = families.map((f) => points.map((p) => (p.family === f ? p.y : null)));
  const all = points.flatMap((p) => [p.x, p.y]);
  const lo = Math.min(...all) / 2, hi = Math.max(...all) * 2;
  const c = palette();
  const axis = (label) => ({ label, stroke: c.fg, labelFont: '12px system-ui, sans-serif', font: '11px system-ui, sans-serif',
    grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 }, values: (u, vals) => vals.map(tick), size: 56 });
  // The bands and the line y = x are straight on log-log axes: drawn under the points.
  const guides = (u) => {
    const ctx = u.ctx;
    const at = (x, k) => [u.valToPos(x, 'x', true), u.valToPos(x * k, 'y', true)];
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    for (const b of BANDS) {
      ctx.beginPath();
      ctx.moveTo(...at(lo, 1 - b));
      ctx.lineTo(...at(hi, 1 - b));
      ctx.lineTo(...at(hi, 1 + b));
      ctx.lineTo(...at(lo, 1 + b));
      ctx.closePath();
      ctx.globalAlpha = 0.1;
      ctx.fillStyle = c.fg;
      ctx.fill();
    }
    ctx.globalAlpha = 0.6;
    ctx.strokeStyle = c.fg;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(...at(lo, 1));
    ctx.lineTo(...at(hi, 1));
    ctx.stroke();
    ctx.restore();
  };
  const width = Math.max(260, Math.min(container.clientWidth || 460, 460));
  const log = { distr: 3, log: 10, range: () => [lo, hi] };
  const plot = new uPlot({
    title: 'Predicted against measured (log-log)', width, height: Math.min(width, 440),
    scales: { x: { time: false, ...log }, y: log },
    axes: [axis('measured (ms, TFLOP/s or GB)'), axis('predicted')],
    series: [{ label: 'measured', value: (u, v) => tick(v) },
      ...families.map((f, i) => ({ label: f, stroke: c.series[i % c.series.length], width: 0, paths: () => null,
        value: (u, v) => tick(v),
        points: { show: true, size: 8, width: 1, fill: c.series[i % c.series.length], stroke: c.series[i % c.series.length] } }))],
    legend: { live: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    hooks: { drawClear: [guides] },
  }, [xs, ...series], container);
  const drawn = series.reduce((n, s) => n + s.filter((v) => v != null).length, 0);
  container.dataset.points = String(drawn);
  return plot;
}

export class AccuracySection {
  // call(request, options) -> promise of the response; exports: CSV tables by name.
  // needsCases() resolves once the validation cases are in the core (preset_data.js);
  // fullModule(request) -> {loading, loaded} (full_module_note.js): validate is the full module's.
  constructor({ call, exports, needsCases = () => Promise.resolve(), fullModule = noFullModule }) {
    Object.assign(this, { call, exports, needsCases, fullModule });
    this.validation = null;
    this.plot = null;
    this.details = document.getElementById('accuracy');
    this.details.addEventListener('toggle', () => { if (this.details.open) this.show(); });
  }

  // Runs the suite on first opening (in the core's slow lane, a worker), then draws.
  async show() {
    const node = (id) => document.getElementById(id);
    if (!this.validation) {
      if (this.running) return;
      this.running = true;
      const request = { command: 'validate' };
      const full = this.fullModule(request);
      node('accuracy-status').textContent = full.loading ? `Loading ${FULL_MODULE} and the validation cases…`
        : 'Loading the validation cases…';
      node('accuracy-error').hidden = true;
      this.details.setAttribute('aria-busy', 'true');
      try {
        let response;
        let t0 = performance.now();
        try {
          [this.uPlot] = await Promise.all([loadUPlot(), this.needsCases(), full.loaded]);
          this.details.dataset.casesLoadMs = String(Math.round(performance.now() - t0));
          node('accuracy-status').textContent = 'Running the validation cases…';
          t0 = performance.now();
          response = await this.call(request, { lane: 'slow', key: 'validate' });
        } catch (e) {
          response = { ok: false, error: { message: String(e && e.message ? e.message : e) } };
        }
        this.seconds = (performance.now() - t0) / 1e3;
        if (!response.ok) {
          node('accuracy-status').textContent = '';
          node('accuracy-error').hidden = false;
          node('accuracy-error').textContent = response.error.message;
          return;
        }
        this.validation = response;
        this.details.dataset.runs = String(Number(this.details.dataset.runs || 0) + 1);  // once: the answer is kept
      } finally {
        this.running = false;
        this.details.setAttribute('aria-busy', 'false');
      }
    }
    if (!this.rendered) this.render();
  }

  render() {
    const v = this.validation;
    const node = (id) => document.getElementById(id);
    const families = v.families.map((f) => f.family);
    const o = v.overall;
    node('accuracy-status').textContent = `${o.cases} measured cases (published, and Paleo's own on Hopper), ` +
      `${o.scored} scored, run in ${this.seconds.toFixed(2)} s.`;
    this.plot = scatter(this.uPlot, node('accuracy-chart'), v, families, this.plot);
    this.rendered = true;
    node('accuracy-families').replaceChildren(table(['Family', 'Cases', 'Scored', 'Not expressible', 'Median |error|',
      'Max |error|'], [...v.families.map((f, i) => [
      el('span', {}, [el('span', { class: `key family-${(i % 8) + 1}` }), ' ' + f.family]),
      f.cases, f.scored, f.not_expressible, absPercent(f.median_abs_error), absPercent(f.max_abs_error)]),
    ['overall', o.cases, o.scored, o.not_expressible, absPercent(o.median_abs_error), absPercent(o.max_abs_error)]],
    { numeric: [1, 2, 3, 4, 5] }));
    // Hundreds of rows: laid out when their disclosure first opens, not in the task that draws the scatter.
    const box = node('accuracy-cases-box');
    const cases = () => node('accuracy-cases').replaceChildren(table(['Case', 'Family', 'Compared', 'Predicted',
      'Measured', 'Error', 'Expressible', 'Source'], v.cases.map((c) => [c.id, c.family, compareUnit(c.compare),
      c.ok ? shown(c.predicted) : 'FAILED', shown(c.measured), c.ok ? (typeof c.agrees === 'boolean' ? (c.agrees ? 'agrees' : 'disagrees') : signedPercent(c.error)) : c.message,
      c.expressible ? 'yes' : 'no: ' + c.why, sourceLink(c.source_url, c.id)]), { numeric: [3, 4, 5] }));
    if (this.pendingCases) box.removeEventListener('toggle', this.pendingCases);
    this.pendingCases = null;
    if (box.open) {
      cases();
    } else {
      this.pendingCases = cases;
      box.addEventListener('toggle', cases, { once: true });
    }
    this.exports.validation = { headers: ['id', 'family', 'compare', 'ok', 'predicted', 'measured', 'error', 'expressible',
      'why', 'source_url'], rows: v.cases.map((c) => [c.id, c.family, [].concat(c.compare).join('+'), c.ok, c.predicted,
      c.measured, c.error, c.expressible, c.why ?? '', c.source_url]) };
  }

  // The colours follow the light or dark scheme.
  redraw() {
    if (this.rendered) this.render();
  }
}
