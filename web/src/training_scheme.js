// The "Training scheme" section (docs/training-schemes.md): the core's answer for the panel's
// scheme (the step, its parts, the bytes) and the comparison of schemes over node counts (step
// time and bytes on the wire), all from the response; a scheme error next to its input.
import { lineChart } from './charts.js';
import { el, table } from './dom.js';
import { showFieldError } from './errors.js';
import { bytes, count, ms } from './format.js';
import { INPUT_OF } from './training_scheme_request.js';

// Shows a training-scheme error next to its input; false when the error is not the panel's.
export function showSchemeError(error) {
  const id = error && INPUT_OF[error.field];
  return id ? showFieldError(document.getElementById(id), error) : false;
}

export function renderScheme(nodes, t) {
  nodes.section.hidden = !t;
  if (!t) return;
  const straggler = t.staleness_bound ? `, staleness ≤ ${t.staleness_bound} (expected ${t.staleness_expected})` : '';
  nodes.summary.replaceChildren(el('p', { text: `${t.consistency}, ${t.exchange}, ${t.workers} workers: step ` +
    `${ms(t.step_ms)} ms (${ms(t.deterministic_step_ms)} ms without jitter), ${count(t.throughput_samples_per_s)} ` +
    `samples/s${straggler}.` }));
  const rows = [
    ['Compute per worker', ms(t.compute_ms) + ' ms'],
    ['Exposed communication', ms(t.exposed_comm_ms) + ' ms'],
    ['Encode and decode', ms(t.codec_ms) + ' ms'],
    ['Global batch-norm sync', ms(t.batch_norm_sync_ms) + ' ms'],
    ['Gradient, dense', bytes(t.dense_gradient_bytes)],
    ['Message per worker', bytes(t.message_bytes) + (t.compression_ratio ? ` (${+t.compression_ratio.toPrecision(4)}×)` : '')],
    ['Sent per worker per step', bytes(t.wire_bytes_per_step)],
    ['Extra memory per worker', bytes(t.extra_memory_bytes)],
  ];
  if (t.capped_by_servers) rows.push(['Parameter servers', 'their links cap the update rate']);
  if (t.gossip_rounds !== undefined) rows.push(['Gossip rounds to reach all', String(+t.gossip_rounds.toPrecision(4))]);
  nodes.table.replaceChildren(el('div', { class: 'table-wrap' }, table(['Part', 'Value'], rows, { numeric: [1] })));
  const sweeps = t.comparison ?? [];
  const xs = sweeps.length ? sweeps[0].points.map((p) => p.workers) : [];
  lineChart(nodes.stepChart, { title: 'Step time by scheme', xLabel: 'workers', yLabel: 'step ms', xs,
    series: sweeps.map((s) => ({ label: s.scheme, values: s.points.map((p) => p.step_ms) })), logY: true });
  lineChart(nodes.bytesChart, { title: 'Bytes each worker sends per step', xLabel: 'workers', yLabel: 'MB', xs,
    series: sweeps.map((s) => ({ label: s.scheme, values: s.points.map((p) => p.wire_bytes_per_step / 1e6) })) });
}
