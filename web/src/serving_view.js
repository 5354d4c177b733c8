// The "Serve" task of a transformer: the serving answer's cards (time to first token, time per
// output token, throughput, the KV cache's capacity), and the chart of time per token and
// throughput against the load. Every number is the core's (the `serving` object of an
// `inference` response, docs/serving.md).
import { el } from './dom.js';
import { bytes, count, integer, ms } from './format.js';
import { lineChart } from './charts.js';

export function servingCards(container, r) {
  const s = r.serving;
  const items = [
    ['Time to first token', ms(s.ttft_ms), 'ms', `prompt of ${integer(r.prompt_len)} tokens`],
    ['Time per output token', ms(s.tpot_ms), 'ms', `${integer(Math.round(s.concurrency * 100) / 100)} requests in flight`],
    ['Request latency', ms(s.e2e_latency_ms), 'ms', `${integer(r.generate_len)} output tokens`],
    ['Output tokens/s', count(s.total_output_tokens_per_s), 'tokens/s',
      `${count(s.output_tokens_per_s_per_gpu)} per GPU, ${s.replicas} replica${s.replicas > 1 ? 's' : ''} of ${s.devices_per_replica} GPUs`],
    ['Requests/s', s.total_requests_per_s.toPrecision(3), '', s.saturated ? 'saturated: requests queue' : 'steady state'],
    ['Max concurrency', integer(s.max_concurrency), 'requests',
      `KV cache ${bytes(s.kv_cache.capacity_bytes)} per GPU, ${integer(s.kv_cache.tokens)} tokens`],
    ['Weights per GPU', bytes(s.weights_bytes), '', r.fits ? 'the static batch fits' : 'does not fit'],
  ];
  container.replaceChildren(...items.map(([label, value, unit, note]) =>
    el('div', { class: 'card' + ((label === 'Max concurrency' && !s.max_concurrency) || (label === 'Requests/s' && s.saturated) ? ' bad' : '') }, [
      el('div', { class: 'label', text: label }),
      el('div', { class: 'value' }, [value, unit ? el('span', { class: 'unit', text: ' ' + unit }) : null]),
      el('div', { class: 'note', text: note })])));
}

export function servingDescription(r) {
  const s = r.serving;
  return `${r.model.name} served on ${s.replicas * s.devices_per_replica} × ${r.device.name}: ` +
    `${s.replicas} replica${s.replicas > 1 ? 's' : ''} of TP ${r.tp}${s.devices_per_replica > r.tp ? ` × PP ${s.devices_per_replica / r.tp}` : ''}, ` +
    `${r.precision.name}; prompts of ${integer(r.prompt_len)} tokens, ${integer(r.generate_len)} generated, ` +
    `continuous batching. Kernel efficiencies of the software era “${r.software_era.name}”.`;
}

// The sweep chart's axis labels. The y label is drawn along the plot's height (about 190 px): the
// legend names each series with its unit, so the axis says only the units ("ms per token ·
// tokens/s per GPU" was longer than the plot and lost its end).
export const SWEEP_AXES = { x: 'requests in flight', y: 'ms · tokens/s' };

// responses: the sweep's answers, at 1, 2, 4, ... requests in flight.
export function servingChart(container, responses) {
  const ok = responses.filter((r) => r.ok);
  lineChart(container, {
    title: 'Time per output token and throughput against the load', xLabel: SWEEP_AXES.x,
    yLabel: SWEEP_AXES.y, xs: ok.map((r) => r.serving.concurrency),
    series: [{ label: 'time per output token (ms)', values: ok.map((r) => r.serving.tpot_ms) },
      { label: 'output tokens/s per GPU', values: ok.map((r) => r.serving.output_tokens_per_s_per_gpu) }],
    logY: true,
  });
}
