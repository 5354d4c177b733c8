// "Calibrate to your measurements": the user's measured times, fitted by the core's `calibrate`
// (docs/calibration.md) on its slow lane (a worker of its own), with the elapsed time and a Stop
// button meanwhile. The fit's profile can be applied to every estimate of the page (the state's
// `calibration`, in the link) or downloaded for the CLI's --calibration. Every number shown is the
// core's. section[data-state]: running, done, failed, stopped or applied.
import { isCancelled } from './core.js';
import { download, el, table } from './dom.js';
import { showError } from './errors.js';
import { FULL_MODULE, noFullModule } from './full_module_note.js';
import { absPercent, sig, signedPercent } from './format.js';
import { calibrateRequest, readCalibrationText, sharedRequest } from './calibration_request.js';
import { showAppliedProfile } from './calibration_applied.js';

const $ = (id) => document.getElementById(id);

export class CalibrationPanel {
  // call(request, options) -> promise; cancel(key); pageRequest() -> {request, transformer}: the
  // page's request for the scenario shown, its software era included and no profile applied (it
  // may throw: a pasted spec that is not JSON);
  // applied() -> the state's profile text ('' for none); apply(profile, kind) applies a profile
  // to the requests of `kind` ('cnn', 'transformer'; undefined: both), apply(null) removes it;
  // fullModule(request) -> {loading, loaded} (full_module_note.js): calibrate is the full module's.
  constructor({ call, cancel, pageRequest, applied, apply, fullModule = noFullModule }) {
    Object.assign(this, { call, cancel, pageRequest, applied, apply, fullModule });
    this.section = $('calibration-section');
    this.profile = null;   // the last fit's, and the kind of net it was fitted to
    this.kind = undefined;
    this.current = null;   // the run on screen: an older one that ends changes nothing
    this.ticker = null;
    $('cal-run').addEventListener('click', () => this.run());
    $('cal-stop').addEventListener('click', () => this.stop());
    $('cal-apply').addEventListener('click', () => this.apply(this.profile, this.kind));
    $('cal-remove').addEventListener('click', () => this.apply(null));
    $('cal-download').addEventListener('click', () =>
      download('paleo-profile.json', 'application/json', JSON.stringify(this.profile, null, 1) + '\n'));
    $('cal-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      $('cal-text').value = await file.text();
      e.target.value = '';
    });
    this.showApplied();
    // Its controls wait for this code (web/index.html: disabled until it has loaded).
    for (const id of ['cal-run', 'cal-remove', 'cal-file']) $(id).disabled = false;
  }

  // The applied profile, in words, with its remove button (after the state changed).
  showApplied() {
    showAppliedProfile(this.applied());
  }

  async run() {
    showError($('cal-error'), null);
    let read, page;
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
    if (read.kind === 'profile') {  // a profile to apply as it is, to every request
      this.apply(read.profile);
      $('cal-status').textContent = 'The pasted profile is applied to the estimates.';
      this.setState('applied');
      return;
    }
    try {
      page = this.pageRequest();
    } catch (e) {
      this.fail({ message: 'the page\'s net has an error (shown above): ' + e.message, layer: '', field: 'net' });
      return;
    }
    const request = calibrateRequest(read, sharedRequest(page.request, page.transformer), $('cal-holdout').checked);
    const run = { started: performance.now() };
    this.current = run;
    this.setState('running');
    for (const id of ['cal-apply', 'cal-download']) $(id).hidden = true;
    $('cal-stop').hidden = false;
    // Once a second: the status is a live region, read out as it changes.
    const full = this.fullModule(request);
    const tick = () => {
      $('cal-status').textContent = `${full.loading ? `Loading ${FULL_MODULE}, then fitting` : 'Fitting'}… ` +
        `${Math.round((performance.now() - run.started) / 1e3)} s`;
    };
    tick();
    clearInterval(this.ticker);
    this.ticker = setInterval(tick, 1000);
    let response;
    try {
      response = await this.call(request, { lane: 'slow', key: 'calibrate' });
    } catch (e) {
      if (isCancelled(e) || this.current !== run) return;
      response = { ok: false, error: { message: String(e && e.message ? e.message : e), layer: '', field: '' } };
    }
    if (this.current !== run) return;  // a newer fit, or Stop
    this.current = null;
    clearInterval(this.ticker);
    $('cal-stop').hidden = true;
    if (!response.ok) {
      this.fail(response.error);
      return;
    }
    this.profile = response.profile;
    this.kind = page.transformer ? 'transformer' : 'cnn';
    this.show(response);
    $('cal-status').textContent = `Fitted in ${((performance.now() - run.started) / 1e3).toFixed(2)} s ` +
      `(${response.search.evaluations} evaluations).`;
    this.setState('done');
  }

  stop() {
    this.cancel('calibrate');
    this.current = null;
    clearInterval(this.ticker);
    $('cal-stop').hidden = true;
    $('cal-status').textContent = 'Stopped.';
    this.setState('stopped');
  }

  fail(error) {
    showError($('cal-error'), error, 'Calibration: ');
    $('cal-status').textContent = '';
    for (const id of ['cal-summary', 'cal-parameters', 'cal-rows']) $(id).replaceChildren();
    for (const id of ['cal-parameters', 'cal-rows']) $(id).removeAttribute('tabindex');
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
    for (const id of ['cal-parameters', 'cal-rows']) $(id).tabIndex = 0;  // a table to scroll sideways by keyboard
  }

  setState(state) {
    this.section.dataset.state = state;
    this.section.setAttribute('aria-busy', String(state === 'running'));
  }
}
