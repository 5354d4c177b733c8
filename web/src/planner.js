// The planner's answer (command "plan"): its ranked layouts, each loadable into the inputs, and the
// core's reasons. The search runs on the main thread: the caller shows a busy state meanwhile.
import { el } from './dom.js';
import { bytes, count, ms } from './format.js';
import { percent } from './transformer.js';

const COLUMNS = [
  ['Rank', (c) => String(c.rank)], ['TP', (c) => String(c.tp)], ['PP', (c) => String(c.pp)], ['DP', (c) => String(c.dp)],
  ['CP', (c) => String(c.cp)], ['Micro-batch', (c) => String(c.micro_batch)],
  ['Virtual stages', (c) => String(c.virtual_stages ?? 1)], ['SP', (c) => (c.sequence_parallel ? 'yes' : 'no')],
  ['Recompute', (c) => c.recompute], ['ZeRO', (c) => String(c.zero)], ['Step ms', (c) => ms(c.step_ms)],
  ['Tokens/s', (c) => count(c.tokens_per_s)], ['MFU', (c) => percent(c.mfu)],
  ['Memory', (c) => bytes(c.memory_per_device_bytes)], ['Fits', (c) => (c.fits ? 'yes' : 'no')],
];
const TEXT_COLUMNS = new Set(['SP', 'Recompute', 'Fits']);

// nodes: {summary, table, why}; onLoad(candidate) loads a layout into the inputs.
export function renderPlan(nodes, plan, onLoad) {
  const candidates = plan.candidates ?? [];
  nodes.summary.textContent = `${plan.evaluated ?? '?'} layouts evaluated, ${plan.feasible ?? '?'} fit in memory; ` +
    (candidates.length ? `the best ${candidates.length}, fastest first. Click a row to load its layout.`
      : 'none to show.');
  const head = el('thead', {}, el('tr', {}, [...COLUMNS.map(([name]) =>
    el('th', { scope: 'col', class: TEXT_COLUMNS.has(name) ? null : 'num', text: name })),
  el('th', { scope: 'col' }, el('span', { class: 'visually-hidden', text: 'Load' }))]));
  const body = el('tbody');
  for (const c of candidates) {
    const load = el('button', { type: 'button', class: 'load', text: 'Load',
      'aria-label': `Load layout ${c.rank}: TP ${c.tp}, PP ${c.pp}, DP ${c.dp}` });
    load.addEventListener('click', (e) => {
      e.stopPropagation();
      onLoad(c);
    });
    const tr = el('tr', { class: 'pick' + (c.fits ? '' : ' nofit') }, [...COLUMNS.map(([name, text], i) =>
      el(i === 0 ? 'th' : 'td', { scope: i === 0 ? 'row' : null, class: TEXT_COLUMNS.has(name) ? null : 'num', text: text(c) })),
    el('td', {}, load)]);
    tr.addEventListener('click', () => onLoad(c));
    body.append(tr);
  }
  nodes.table.replaceChildren(el('table', { class: 'data plan' }, [head, body]));
  nodes.why.replaceChildren(...(plan.why ?? []).map((w) => el('li', { text: w })));
  nodes.why.hidden = !(plan.why ?? []).length;
  return { headers: ['rank', 'tp', 'pp', 'dp', 'cp', 'micro_batch', 'virtual_stages', 'sequence_parallel', 'recompute', 'zero',
    'step_ms', 'tokens_per_s', 'mfu', 'memory_per_device_bytes', 'fits'],
  rows: candidates.map((c) => [c.rank, c.tp, c.pp, c.dp, c.cp, c.micro_batch, c.virtual_stages, c.sequence_parallel,
    c.recompute, c.zero, c.step_ms, c.tokens_per_s, c.mfu, c.memory_per_device_bytes, c.fits]) };
}
