// A transformer estimate on the page: the configuration in words, the headline cards, the core's
// warnings, and the time and cost to train. Every number comes from the core's response.
import { el } from './dom.js';
import { bytes, count, duration, integer, money, ms } from './format.js';

export const percent = (v) => (Number.isFinite(v) ? (v * 100).toFixed(1) + '%' : '–');
export const tflops = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
// Parameter counts as LLM papers write them (8.03 B).
const params = (v) => (v >= 1e9 ? (v / 1e9).toFixed(2) + ' B' : v >= 1e6 ? (v / 1e6).toFixed(1) + ' M' : count(v));

export function netInfo(t, pasted) {
  const c = t.model.config;
  const total = t.model.active_params !== t.model.params
    ? `${params(t.model.params)} parameters (${params(t.model.active_params)} active)` : `${params(t.model.params)} parameters`;
  const source = pasted ? (t.model.source === 'huggingface' ? 'Pasted Hugging Face config' : 'Pasted config') : 'Preset';
  return `${source} “${t.model.name}”: ${c.layers} layers, hidden ${c.hidden}, ${c.heads} heads` +
    (c.kv_heads !== c.heads ? ` (${c.kv_heads} KV)` : '') + `, ${total}.`;
}

export function describe(t) {
  const p = t.parallel, c = t.cluster;
  const layout = [`TP ${p.tp}`, `PP ${p.pp}`, `DP ${p.dp}`, `CP ${p.cp}`, p.ep > 1 ? `EP ${p.ep}` : null,
    p.ep > 1 && p.expert_tp !== p.tp ? `expert TP ${p.expert_tp}` : null].filter(Boolean);
  return `${t.model.name} on ${p.devices} × ${t.device.name} (${c.nodes} × ${c.devices_per_node}, ${c.name}), ` +
    `${t.precision.name}; ${layout.join(' · ')}${p.sequence_parallel ? ' + SP' : ''}, ${p.schedule.replaceAll('_', ' ')}; ` +
    `global batch ${integer(p.global_batch)} × ${integer(p.seq_len)} tokens, micro-batch ${p.micro_batch}; ` +
    `recompute ${p.recompute}, ZeRO-${p.zero}, ${p.attention} attention. ` +
    `Kernel efficiencies of the software era “${t.software_era.name}”.`;
}

export function cards(container, t) {
  const items = [
    ['Step', ms(t.step_ms), 'ms', `${t.parallel.micro_batches} micro-batches of ${t.parallel.micro_batch}`],
    ['Tokens/s', count(t.tokens_per_s), 'tokens/s', `${t.samples_per_s.toPrecision(3)} sequences/s`],
    ['Model TFLOP/s per GPU', tflops(t.model_tflops_per_gpu), 'TFLOP/s', `hardware ${tflops(t.hardware_tflops_per_gpu)}`],
    ['MFU', percent(t.mfu), '', `of ${tflops(t.peak_tflops_per_gpu)} TFLOP/s peak (${t.precision.compute})`],
    ['HFU', percent(t.hfu), '', t.parallel.recompute === 'none' ? 'no recomputation' : 'recomputation included'],
    ['Memory per GPU', bytes(t.memory_per_device_bytes), '',
      (t.fits ? 'fits in ' : 'does not fit in ') + bytes(t.memory.capacity_bytes)],
  ];
  if (t.train) items.push(['Time to train', duration(t.train.time_s * 1e3), '',
    t.train.cost_usd !== undefined ? money(t.train.cost_usd) : `${integer(t.train.device_hours)} GPU-hours`]);
  container.replaceChildren(...items.map(([label, value, unit, note]) =>
    el('div', { class: 'card' + (label === 'Memory per GPU' && !t.fits ? ' bad' : '') }, [
      el('div', { class: 'label', text: label }),
      el('div', { class: 'value' }, [value, unit ? el('span', { class: 'unit', text: ' ' + unit }) : null]),
      el('div', { class: 'note', text: note })])));
}

export function warnings(list, t) {
  list.hidden = !t.warnings.length;
  list.replaceChildren(...t.warnings.map((w) => el('li', { text: w })));
}

export function train(node, t) {
  if (!t.train) {
    node.replaceChildren('Enter a number of tokens to train on to see the time and cost.');
    return;
  }
  const r = t.train;
  node.replaceChildren(`${count(r.tokens)} tokens = ${integer(r.steps)} steps of ${count(t.tokens_per_step)} tokens on ` +
    `${t.parallel.devices} × ${t.device.name}: `, el('strong', { text: duration(r.time_s * 1e3) }),
  ` (${r.time_days.toFixed(1)} days), ${integer(r.device_hours)} GPU-hours` +
    (r.cost_usd !== undefined ? ', ' : '.'),
  ...(r.cost_usd !== undefined ? [el('strong', { text: money(r.cost_usd) }),
    ` at ${money(r.price_per_gpu_hour)} per GPU-hour.`] : []));
}

// The summary bar of narrow screens.
export const summary = (t) => `Step ${ms(t.step_ms)} ms · ${count(t.tokens_per_s)} tokens/s · MFU ${percent(t.mfu)}` +
  (t.fits ? '' : ' · does not fit');
