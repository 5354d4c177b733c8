// A transformer's step and memory as stacked bars with a legend and a table: where the step's
// time goes, and what fills each GPU's memory against its capacity (overflow marked).
import { el, table } from './dom.js';
import { bytes, ms } from './format.js';

// The parts of the step, in the order they add up to it (the core's breakdown: compute includes
// the recomputation, and of the data-parallel reduction only the exposed part counts).
const STEP_PARTS = [
  ['compute', 'Compute', (b) => b.compute_ms - b.recompute_ms, 'forward and backward kernels of the slowest stage'],
  ['recompute', 'Recompute', (b) => b.recompute_ms, 'forward kernels run again in backward'],
  ['tp', 'TP comm', (b) => b.tp_comm_ms, 'tensor-parallel collectives, exposed'],
  ['cp', 'CP comm', (b) => b.cp_comm_ms, 'context-parallel transfers, exposed'],
  ['ep', 'EP comm', (b) => b.ep_comm_ms, 'expert-parallel all-to-all'],
  ['pp', 'PP comm', (b) => b.pp_comm_ms, 'pipeline sends on the critical path'],
  ['bubble', 'Bubble', (b) => b.bubble_ms, 'pipeline fill and drain'],
  ['dp', 'DP exposed', (b) => b.dp_exposed_ms, 'data-parallel gradient reduction not hidden behind backward'],
  ['zero3', 'ZeRO-3 exposed', (b) => b.zero3_exposed_ms, 'parameter gathers and gradient scatters not hidden'],
  ['optimizer', 'Optimizer', (b) => b.optimizer_ms, 'the optimizer step'],
];

const MEMORY_PARTS = [
  ['params', 'Parameters', (m) => m.params_bytes], ['gradients', 'Gradients', (m) => m.gradients_bytes],
  ['optimizer', 'Optimizer state', (m) => m.optimizer_bytes], ['activations', 'Activations', (m) => m.activations_bytes],
  ['fp8', 'FP8 state', (m) => m.fp8_state_bytes], ['workspace', 'Workspace', (m) => m.workspace_bytes],
  ['runtime', 'CUDA context', (m) => m.runtime_bytes],
];

const pct = (v, whole) => (Math.max(0, v) / whole * 100).toFixed(3) + '%';

function legend(parts) {
  return el('p', { class: 'legend' }, parts.flatMap(([cls, name, text]) =>
    [el('span', { class: `key part-${cls}` }), ` ${name} ${text}  `]));
}

export function stepBar(container, t) {
  const b = t.breakdown;
  const parts = STEP_PARTS.map(([cls, name, get, help]) => [cls, name, get(b), help]);
  const whole = Math.max(t.step_ms, parts.reduce((s, p) => s + Math.max(0, p[2]), 0)) || 1;
  const bar = el('div', { class: 'hbar', role: 'img', 'aria-label': 'Step time: ' +
    parts.filter((p) => p[2] > 0).map(([, name, v]) => `${name} ${ms(v)} ms`).join(', ') });
  for (const [cls, name, v] of parts) {
    if (!(v > 0)) continue;
    const span = el('span', { class: `part-${cls}`, title: `${name}: ${ms(v)} ms` });
    span.style.width = pct(v, whole);
    bar.append(span);
  }
  const shown = parts.filter((p) => p[2] > 0);
  const none = parts.filter((p) => !(p[2] > 0)).map((p) => p[1]);
  const rows = shown.map(([cls, name, v, help]) => [el('span', {}, [el('span', { class: `key part-${cls}` }), ' ' + name]),
    ms(v), (v / t.step_ms * 100).toFixed(1) + '%', help]);
  rows.push(['Step', ms(t.step_ms), '100%', `${t.parallel.micro_batches} micro-batches of ${t.parallel.micro_batch}` +
    (t.bubble_fraction > 0 ? `; bubble ${(t.bubble_fraction * 100).toFixed(1)}% of the pipeline` : '')]);
  container.replaceChildren(bar, legend(shown.map(([cls, name, v]) => [cls, name, ms(v) + ' ms'])),
    el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Step parts table, scrolls sideways' }, table(['Part', 'ms', 'Share', 'What'], rows, { numeric: [1, 2] })),
    el('p', { class: 'muted small', text: (none.length ? `No time in: ${none.join(', ')}. ` : '') +
      `Data-parallel reduction in all: ${ms(b.dp_comm_ms)} ms, of which ${ms(b.dp_exposed_ms)} ms exposed.` }));
  return { headers: ['part', 'ms'], rows: [...STEP_PARTS.map(([cls, , get]) => [cls, get(b)]), ['dp_comm_total', b.dp_comm_ms],
    ['step', t.step_ms]] };
}

export function memoryBar(container, t) {
  const m = t.memory;
  const parts = MEMORY_PARTS.map(([cls, name, get]) => [cls, name, get(m)]);
  const capacity = m.capacity_bytes;
  const whole = Math.max(capacity || 0, m.total_bytes) || 1;
  const bar = el('div', { class: 'hbar memory' + (m.fits ? '' : ' over'), role: 'img',
    'aria-label': `Memory per GPU: ${bytes(m.total_bytes)} of ${bytes(capacity)}` + (m.fits ? '' : ', does not fit') });
  for (const [cls, name, v] of parts) {
    if (!(v > 0)) continue;
    const span = el('span', { class: `part-m${cls}`, title: `${name}: ${bytes(v)}` });
    span.style.width = pct(v, whole);
    bar.append(span);
  }
  if (capacity > 0) {
    const mark = el('span', { class: 'capacity', title: `capacity ${bytes(capacity)}` });
    mark.style.left = pct(capacity, whole);
    bar.append(mark);
  }
  if (!m.fits && capacity > 0) {
    const over = el('span', { class: 'overflow', text: `over by ${bytes(m.total_bytes - capacity)}` });
    over.style.left = pct(capacity, whole);
    over.style.width = pct(m.total_bytes - capacity, whole);
    bar.append(over);
  }
  const scale = el('div', { class: 'hbar-scale', 'aria-hidden': 'true' }, el('span', { text: '0' }));
  if (capacity > 0) {
    const label = el('span', { class: 'cap-label', text: `capacity ${bytes(capacity)} ▲` });
    label.style.left = pct(capacity, whole);
    scale.append(label);
  }
  const stage = m.stage > 0 || t.parallel.pp > 1 ? ` (pipeline stage ${m.stage}, the fullest)` : '';
  const verdict = m.fits
    ? el('p', { class: 'muted', text: `${bytes(m.total_bytes)} of ${bytes(capacity)} per GPU${stage}: fits, ` +
      `${bytes(capacity - m.total_bytes)} free. Largest micro-batch that fits: ${t.max_micro_batch}.` })
    : el('p', { class: 'error', text: `Does not fit: ${bytes(m.total_bytes)} per GPU${stage}, ` +
      `${bytes(m.total_bytes - capacity)} more than the ${bytes(capacity)} of the ${t.device.name}.` +
      (t.max_micro_batch > 0 ? ` Largest micro-batch that fits: ${t.max_micro_batch}.` : ' No micro-batch fits this layout.') +
      ' More GPUs, more TP or PP, ZeRO-3 or full recomputation take less per GPU; the planner below tries them.' });
  container.replaceChildren(bar, scale, legend(parts.filter((p) => p[2] > 0).map(([cls, name, v]) => ['m' + cls, name, bytes(v)])),
    verdict);
}
