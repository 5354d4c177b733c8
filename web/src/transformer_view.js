// The transformer part of the page: one estimate per input change (cards, warnings, step and
// memory bars, time and cost), its errors next to the input they name, and the planner panel.
import { expectedError } from './expected_error.js';
import { isCancelled } from './core.js';
import { memoryBar, stepBar } from './bars.js';
import { clearFieldError, showError, showFieldError } from './errors.js';
import { renderPlan } from './planner.js';
import * as tf from './transformer.js';
import { FIELD_INPUTS, layoutOf, planKey, planRequest, transformerRequest } from './transformer_request.js';
import { sharedFieldInput } from './error_inputs.js';
import { FULL_MODULE, noFullModule } from './full_module_note.js';
import { SERVING_FIELD_INPUTS, inferenceRequest, sweepRequests } from './serving_request.js';
import { servingCards, servingChart, servingDescription } from './serving_view.js';

const $ = (id) => document.getElementById(id);
const malformed = (e) => ({ message: 'malformed JSON: ' + e.message, layer: '', field: 'net' });
const isNetField = (field) => field === 'net' || field.startsWith('net.');

export class TransformerView {
  // call(request, options) -> promise of the response; batch(requests, options) -> promise of
  // the responses (a sweep, on the slow lane); cancel(key); status(text); exports: CSV tables;
  // getState(); setLayout(partial state); fullModule(request) -> {loading, loaded}
  // (full_module_note.js): the planner is the full module's.
  constructor({ call, batch, cancel, status, exports, getState, setLayout, fullModule = noFullModule }) {
    Object.assign(this, { call, batch, cancel, status, exports, getState, setLayout, fullModule });
    this.planned = null;  // {key, request, response}
    this.planning = null; // the plan running: {key}
    $('plan-run').addEventListener('click', () => this.runPlan());
  }

  // The request `build(state)` makes, answered by the core, with the net's line written; null
  // (the error shown) when it cannot be built or fails, or when a newer update took over.
  async answer(build, state, current) {
    let request;
    try {
      request = build(state);
    } catch (e) {
      this.failed(malformed(e), state);
      return null;
    }
    const response = await this.call(request, { key: 'estimate' });
    if (!current()) return null;
    if (!response.ok) {
      this.failed(response.error, state);
      return null;
    }
    this.clearErrors();
    $('results').classList.remove('stale');
    $('net-info').textContent = tf.netInfo(response, Boolean(state.config.trim()));
    return { request, response };
  }

  // Returns {requests, transformer} to show, or null after showing an error; shows nothing when
  // current() turns false meanwhile (a newer update took over).
  async update(state, current = () => true) {
    if (state.t_task === 'serve') return this.serve(state, current);
    this.cancel('serving-sweep');
    const answered = await this.answer(transformerRequest, state, current);
    if (!answered) return null;
    const { request, response: t } = answered;
    $('context').textContent = tf.describe(t);
    tf.cards($('t-cards'), t);
    expectedError($('t-expected-error'), t);
    tf.warnings($('t-warnings'), t);
    tf.train($('t-train'), t);
    this.exports.step = stepBar($('t-step'), t);
    memoryBar($('t-memory'), t);
    const p = t.parallel;
    $('t-dp').textContent = `DP (data parallel) follows: ${p.devices} GPUs / (TP ${p.tp} × PP ${p.pp} × CP ${p.cp}) = ${p.dp}.`;
    $('summary-bar').textContent = tf.summary(t);
    this.markStale(state);
    return { requests: { estimate: request }, transformer: t };
  }

  // The serving estimate (an `inference` request): cards, warnings, then the sweep against the
  // load on the slow lane (a newer update cancels it).
  async serve(state, current) {
    const answered = await this.answer(inferenceRequest, state, current);
    if (!answered) return null;
    const { request, response: r } = answered;
    $('context').textContent = servingDescription(r);
    servingCards($('s-cards'), r);
    expectedError($('t-expected-error'), r);
    tf.warnings($('t-warnings'), r);
    $('summary-bar').textContent = `TTFT ${r.serving.ttft_ms.toFixed(0)} ms · TPOT ${r.serving.tpot_ms.toFixed(1)} ms · ` +
      `${Math.round(r.serving.total_output_tokens_per_s).toLocaleString('en-US')} tokens/s`;
    this.sweep(request, r);
    return { requests: { inference: request }, transformer: r };
  }

  async sweep(request, r) {
    const requests = sweepRequests(request, r.serving.max_concurrency);
    $('s-sweep-status').textContent = `Estimating ${requests.length} loads…`;
    try {
      const responses = await this.batch(requests, { lane: 'slow', key: 'serving-sweep' });
      servingChart($('s-sweep'), responses);
      $('s-sweep-status').textContent = '';
    } catch (e) {
      if (!isCancelled(e)) $('s-sweep-status').textContent = String(e && e.message ? e.message : e);
    }
  }

  // Back to a CNN: nothing of the transformer's errors stays on screen.
  clear() {
    clearFieldError();
    showError($('config-error'), null);
    $('config').removeAttribute('aria-invalid');
  }

  clearErrors() {
    this.clear();
    showError($('spec-error'), null);
    showError($('error'), null);
    for (const node of document.querySelectorAll('#inputs [aria-invalid]')) node.removeAttribute('aria-invalid');
  }

  // The error goes next to its input: the pasted config for the net's fields, else the input
  // that sets the field; the box above the results when no input shows it.
  failed(error, state) {
    this.clearErrors();
    const field = error.field || '';
    let shown;
    if (isNetField(field) && state.config.trim()) {
      showError($('config-error'), error);
      $('config').setAttribute('aria-invalid', 'true');
      shown = true;
    } else {
      shown = showFieldError($(sharedFieldInput(field, error.message, state) ?? FIELD_INPUTS[field] ??
        SERVING_FIELD_INPUTS[field] ?? field), error);
    }
    if (shown) {
      $('error').hidden = false;
      $('error').textContent = 'An input has an error (shown next to it, in red); the results below are out of date.';
    } else {
      showError($('error'), error);
    }
    $('results').classList.add('stale');
  }

  plan() {
    return this.planned ? { request: this.planned.request, response: this.planned.response } : null;
  }

  // The plan runs in the core's slow lane (a worker): busy state meanwhile; an input change that
  // alters the plan's request cancels it (markStale).
  async runPlan() {
    let request;
    try {
      request = planRequest(this.getState());
    } catch (e) {
      showError($('plan-error'), malformed(e));
      return;
    }
    const planning = { key: planKey(request) };
    this.planning = planning;
    const full = this.fullModule(request);
    this.busy(true, full.loading);
    full.loaded.then(() => { if (this.planning === planning) this.planStatus(true, false); });
    try {
      const t0 = performance.now();
      let response;
      try {
        response = await this.call(request, { lane: 'slow', key: 'plan' });
      } catch (e) {
        if (isCancelled(e)) {
          if (this.planning === planning) $('plan-status').textContent = 'Cancelled: the inputs changed.';
          return;
        }
        response = { ok: false, error: { message: String(e && e.message ? e.message : e), layer: '', field: '' } };
      }
      const seconds = (performance.now() - t0) / 1e3;
      if (!response.ok) {
        this.planned = null;
        showError($('plan-error'), response.error);
        for (const id of ['plan-table', 'plan-why', 'plan-summary']) $(id).replaceChildren();
        $('plan-why').hidden = true;
        return;
      }
      showError($('plan-error'), null);
      this.planned = { key: planKey(request), request, response };
      this.exports.plan = renderPlan({ summary: $('plan-summary'), table: $('plan-table'), why: $('plan-why') }, response,
        (candidate) => {
          this.setLayout(layoutOf(candidate));
          this.status(`Layout ${candidate.rank} loaded`);
        });
      $('plan-summary').append(` Searched in ${seconds.toFixed(2)} s.`);
      this.markStale(this.getState());
    } finally {
      if (this.planning === planning) {
        this.planning = null;
        this.busy(false);
      }
    }
  }

  // loading: the full module, which the planner needs, is still loading.
  busy(on, loading = false) {
    $('plan-run').disabled = on;
    $('planner').setAttribute('aria-busy', String(on));
    $('planner').classList.toggle('busy', on);
    this.planStatus(on, loading);
  }

  planStatus(on, loading) {
    $('plan-status').textContent = !on ? '' : loading ? `Loading ${FULL_MODULE}, then searching layouts…`
      : 'Searching layouts…';
  }

  markStale(state) {
    if (this.planning) {
      let key = null;
      try {
        key = planKey(planRequest(state));
      } catch {
        key = null;
      }
      if (key !== this.planning.key) {
        this.cancel('plan');
        this.planning = null;
        this.busy(false);
        $('plan-status').textContent = 'Cancelled: the inputs changed.';
      }
    }
    let stale = false;
    if (this.planned) {
      try {
        stale = planKey(planRequest(state)) !== this.planned.key;
      } catch {
        stale = true;
      }
    }
    $('planner').classList.toggle('stale', stale);
    $('plan-stale').hidden = !stale;
  }
}
