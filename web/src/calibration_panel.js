// "Calibrate to your measurements": the user's measured times, fitted by the core's `calibrate`
// (docs/calibration.md) on its slow lane (a worker of its own), with the elapsed time and a Stop
// button meanwhile. The fit's profile can be applied to every estimate of the page (the state's
// `calibration`, in the link) or downloaded for the CLI's --calibration. Every number shown is the
// core's. section[data-state]: running, done, failed, stopped or applied.
import { isCancelled } from './core.js';
import { download, el, table } from './dom.js';
import { showError } from './errors.js';
import { absPercent, sig, signedPercent } from './format.js';
import { calibrateRequest, readCalibrationText, sharedRequest } from './calibration_request.js';

const $ = (id) => document.getElementById(id);

export class CalibrationPanel {
  // call(request, options) -> promise; cancel(key); pageRequest() -> {request, transformer}: the
  // page's request for the scenario shown; applied() -> the profile applied ('' for none);
  // apply(profileText) sets it ('' removes it).
  constructor({ call, cancel, pageRequest, applied, apply }) {
    Object.assign(this, { call, cancel, pageRequest, applied, apply });
    this.section = $('calibration-section');
    this.profile = null;
    this.ticker = null;
    $('cal-run').addEventListener('click', () => this.run());
    $('cal-stop').addEventListener('click', () => this.stop());
    $('cal-apply').addEventListener('click', () => this.apply(JSON.stringify(this.profile)));
    $('cal-remove').addEventListener('click', () => this.apply(''));
    $('cal-download').addEventListener('click', () =>
      download('paleo-profile.json', 'application/json', JSON.stringify(this.profile, null, 1) + '\n'));
    $('cal-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      $('cal-text').value = await file.text();
      e.target.value = '';
    });
    this.showApplied();
  }

  // The applied profile, in words, with its remove button (after the state changed).
  showApplied() {
    const text = this.applied();
    $('cal-applied').hidden = !text;
    $('cal-remove').hidden = !text;
    $('cal-applied').textContent = text ? `Applied to every estimate on this page: ${text}` : '';
  }

  async run() {
    showError($('cal-error'), null);
    let read;
    try {
      read = readCalibrationText($('cal-text').value);
    } catch (e) {
      this.fail({ message: 'the text is not JSON: ' + e.message, layer: '', field: 'measurements' });
      return;
    }
    if (read.kind === 'empty') {
      this.fail({ message: 'paste measured times first (CSV or JSON), or a profile', layer: '', field: 'measurements' });
      return;
    }
    if (read.kind === 'profile') {  // a profile to apply as it is
      this.profile = read.profile;
      this.apply(JSON.stringify(read.profile));
      $('cal-status').textContent = 'The pasted profile is applied to the estimates.';
      this.setState('applied');
      return;
    }
    const { request: page, transformer } = this.pageRequest();
    const request = calibrateRequest(read, sharedRequest(page, transformer), $('cal-holdout').checked);
    const started = performance.now();
    this.setState('running');
    for (const id of ['cal-apply', 'cal-download']) $(id).hidden = true;
    $('cal-stop').hidden = false;
    const tick = () => {
      $('cal-status').textContent = `Fitting… ${((performance.now() - started) / 1e3).toFixed(1)} s`;
    };
    tick();
    clearInterval(this.ticker);
    this.ticker = setInterval(tick, 200);
    let response;
    try {
      response = await this.call(request, { lane: 'slow', key: 'calibrate' });
    } catch (e) {
      if (isCancelled(e)) return;
      response = { ok: false, error: { message: String(e && e.message ? e.message : e), layer: '', field: '' } };
    } finally {
      clearInterval(this.ticker);
      $('cal-stop').hidden = true;
    }
    if (!response.ok) {
      this.fail(response.error);
      return;
    }
    this.profile = response.profile;
    this.show(response);
    $('cal-status').textContent = `Fitted in ${((performance.now() - started) / 1e3).toFixed(2)} s ` +
      `(${response.search.evaluations} evaluations).`;
    this.setState('done');
  }

  stop() {
    this.cancel('calibrate');
    clearInterval(this.ticker);
    $('cal-stop').hidden = true;
    $('cal-status').textContent = 'Stopped.';
    this.setState('stopped');
  }

  fail(error) {
    showError($('cal-error'), error, 'Calibration: ');
    $('cal-status').textContent = '';
    for (const id of ['cal-summary', 'cal-parameters', 'cal-rows']) $(id).replaceChildren();
    $('cal-warnings').hidden = true;
    this.setState('failed');
  }

  show(r) {
    const line = (what, b, a) => b ? `${what}: median |error| ${absPercent(b.median_abs_error)} → ` +
      `${absPercent(a.median_abs_error)}, max ${absPercent(b.max_abs_error)} → ${absPercent(a.max_abs_error)}` : null;
    const lines = [
      `${r.measurements.fitted} measurements fitted` + (r.measurements.held_out ? `, ${r.measurements.held_out} held out` : '') +
        ` (${r.measurements.requests} distinct requests); parameters ${r.parameters.join(', ')}.`,
      line('Fitted', r.before, r.after),
      r.holdout ? line('Held out (not fitted)', r.holdout.before, r.holdout.after) : null,
    ].filter(Boolean);
    $('cal-summary').replaceChildren(...lines.map((t) => el('p', { text: t })));
    $('cal-warnings').hidden = !r.warnings.length;
    $('cal-warnings').replaceChildren(...r.warnings.map((w) => el('li', { text: w })));
    $('cal-parameters').replaceChildren(table(['parameter', 'start', 'fitted', 'range', 'at a bound'],
      Object.entries(r.fitted).map(([name, f]) => [name, sig(f.start), sig(f.fitted), `${sig(f.low)} – ${sig(f.high)}`,
        f.at_bound ? 'yes' : 'no']), { numeric: [1, 2] }));
    const rows = [];
    const add = (before, after, kind) => before.rows.forEach((b, i) => {
      const a = after.rows[i];
      rows.push([b.label, kind, sig(b.measured), sig(b.predicted), sig(a.predicted), signedPercent(b.error), signedPercent(a.error)]);
    });
    add(r.before, r.after, 'fitted');
    if (r.holdout) add(r.holdout.before, r.holdout.after, 'held out');
    $('cal-rows').replaceChildren(table(['measurement', 'set', 'measured', 'before', 'after', 'error before', 'error after'],
      rows, { numeric: [2, 3, 4, 5, 6] }));
    for (const id of ['cal-apply', 'cal-download']) $(id).hidden = false;
  }

  setState(state) {
    this.section.dataset.state = state;
    this.section.setAttribute('aria-busy', String(state === 'running'));
  }
}
