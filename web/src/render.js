// Rendering of responses: the headline, the configuration line, cards, time and cost, the
// comparison, scaling, cluster and search (the layer table: layers.js). Each table renderer
// returns its data for CSV export. Every number is the core's (docs/api.md): the time to train,
// the fastest scheme and the scheme list included; nothing here computes a model result.
import { el, fillTable, table } from './dom.js';
import { absPercent, bytes, count, duration, expectedErrorText, integer, money, ms, ratio } from './format.js';
import { lineChart } from './charts.js';

export { duration, money };

const stepOf = (e) => (e.cluster ? e.cluster.step_ms : e.totals.step_ms);
const samplesOf = (e) => (e.cluster ? e.cluster.global_batch : e.net.batch_size);
const throughputOf = (e) => (e.cluster ? e.cluster.throughput_samples_per_s : e.totals.throughput_samples_per_s);
const costOf = (setup) => (setup.cost_usd === undefined ? '–' : money(setup.cost_usd));

// "estimate, ±29 % typical": the mark every estimated number carries, with the expected error
// band of its family (the response's expected_error) when there is one.
export function estimateMark(e) {
  const band = e && e.expected_error;
  return band ? `estimate, ±${absPercent(band.median_abs_error)} typical` : 'estimate';
}

// The headline at the top of the page (the first screen on a phone): time per step and time to
// train of the setup the response's own step is, marked as estimates.
export function headline(node, e) {
  const train = e.train;
  const setup = train ? train.setups[train.headline_index] : null;
  const where = e.cluster ? `${e.cluster.cluster.devices} × ${e.device.name}` : `one ${e.device.name}`;
  const item = (id, label, value, note) => el('div', { class: 'headline-item' }, [
    el('div', { class: 'label', text: label }),
    el('div', { class: 'value', id, text: value }),
    el('div', { class: 'note', text: note })]);
  const items = [
    item('headline-step', 'Time per step', ms(stepOf(e)) + ' ms', `${estimateMark(e)} · ${e.net.name}, ${where}`),
    item('headline-train', 'Time to train', setup ? duration(setup.time_s * 1e3) : '–',
      setup ? `${estimateMark(e)} · ${train.epochs} epochs of ${integer(train.dataset_samples)} samples` +
        (setup.cost_usd === undefined ? '' : `, ${money(setup.cost_usd)}`) : 'enter a dataset size')];
  // The same text stays as it is: a live region rewritten with the same words is read out again.
  if (node.textContent !== items.map((i) => i.textContent).join('')) node.replaceChildren(...items);
  node.hidden = false;
}

export function describe(e) {
  // The links named are those the headline uses: the cluster's, else PALEO's interconnect.
  const links = e.cluster ? `${e.cluster.cluster.nodes} × ${e.cluster.cluster.devices_per_node} devices, ` +
    `${e.cluster.cluster.intra.name} in a node` + (e.cluster.cluster.nodes > 1 ? `, ${e.cluster.cluster.inter.name} between` : '')
    : `${e.interconnect.name} (${e.interconnect.bandwidth_gbit_per_s} Gb/s) between workers`;
  return `${e.net.name}, batch ${e.net.batch_size} on ${e.device.name} (${integer(e.device.peak_gflops)} GFLOP/s, ` +
    `${e.device.mem_bandwidth_gb_per_s} GB/s), ${links}, ` +
    (e.software_era ? `software era “${e.software_era.name}”` : `PPP ${e.ppp_comp} / ${e.ppp_comm}`) +
    (e.precision ? `, ${e.precision.name}` : '') + `, profile ${e.profile}`;
}

export function cards(container, e, state) {
  const t = e.totals;
  const step = stepOf(e);
  const samples = samplesOf(e);
  const items = [
    ['Step', ms(step), 'ms', (e.cluster ? `${e.cluster.cluster.devices} devices, ${e.cluster.chosen.algorithm}` : 'one device') +
      ' · ' + estimateMark(e)],
    ['Throughput', count(throughputOf(e)), 'samples/s', 'batch ' + integer(samples) + ' · estimate'],
    ['Forward', ms(t.forward_ms), 'ms', `compute ${ms(t.forward_comp_ms)}, memory ${ms(t.forward_mem_ms)}`],
    ['Backward', ms(t.backward_ms), 'ms', `compute ${ms(t.backward_comp_ms)}, memory ${ms(t.backward_mem_ms)}`],
    ['Update', ms(t.update_ms), 'ms', state.optimizer],
    ['Parameters', count(t.params), '', bytes(t.params_bytes)],
    ['Forward work', count(t.forward_flops) + 'FLOP', '', 'activations ' + bytes(t.activation_bytes)],
  ];
  container.replaceChildren(...items.map(([label, value, unit, note]) =>
    el('div', { class: 'card' }, [el('div', { class: 'label', text: label }),
      el('div', { class: 'value' }, [value, unit ? el('span', { class: 'unit', text: ' ' + unit }) : null]),
      el('div', { class: 'note', text: note })])));
}

// Time to train and its cost, as the core priced them (the response's `train`): one device and the
// cluster in `nodes.table`; each worker count of the PALEO 2017 simulation at its fastest scheme,
// over the original's interconnect, in `nodes.original` (the PALEO 2017 section), apart from the
// cluster's rows (the setup's `kind` says which; the page asks for the simulation only while a
// section of it is open). The CSV holds every setup of the answer on screen.
const isOriginal = (setup) => setup.kind === 'paleo2017_workers';
const TRAIN_HEADERS = ['Setup', 'All-reduce', 'Samples per step', 'Step ms', 'Time to train', 'Device-hours', 'Cost'];
const trainRows = (setups) => setups.map((p) => [p.setup, p.scheme || '–', integer(p.samples_per_step), ms(p.step_ms),
  duration(p.time_s * 1e3), integer(p.device_hours), costOf(p)]);

export function training(nodes, e) {
  const train = e.train;
  if (!train) {
    nodes.summary.replaceChildren('Enter the dataset size and epochs to see the time to train.');
    nodes.table.replaceChildren();
    nodes.original.replaceChildren();
    return null;
  }
  const plan = train.setups;
  const head = plan[train.headline_index];
  const fastest = plan[train.fastest_index];
  const original = plan.filter(isOriginal);
  nodes.summary.replaceChildren(
    `${train.epochs} epochs of ${integer(train.dataset_samples)} samples on ${head.setup === 'one device' ? 'one ' +
      e.device.name : head.setup}: `,
    el('strong', { text: duration(head.time_s * 1e3) }), ', ', el('strong', { text: costOf(head) }),
    train.price_per_gpu_hour > 0 ? ` at ${money(train.price_per_gpu_hour)} per device-hour` : '',
    ` (${estimateMark(e)}).`,
    fastest !== head && !isOriginal(fastest) ? ` Fastest here: ${fastest.setup}${fastest.scheme ? ` (${fastest.scheme})` : ''}, ` +
      `${duration(fastest.time_s * 1e3)} for ${costOf(fastest)}.` : '');
  fillTable(nodes.table, TRAIN_HEADERS, trainRows(plan.filter((p) => !isOriginal(p))), { numeric: [2, 3, 4, 5, 6] });
  originalTraining(nodes.original, original, train.epochs);
  return { headers: ['setup', 'kind', 'devices', 'scheme', 'samples_per_step', 'step_ms', 'steps', 'time_s', 'device_hours',
    'cost_usd'], rows: plan.map((p) => [p.setup, p.kind, p.devices, p.scheme ?? '', p.samples_per_step, p.step_ms, p.steps,
    p.time_s, p.device_hours, p.cost_usd ?? '']) };
}

// The PALEO 2017 workers' time to train (in that section), its table kept from one estimate to
// the next.
function originalTraining(node, original, epochs) {
  if (!original.length) {
    node.replaceChildren();
    return;
  }
  let wrap = node.querySelector('.table-wrap');
  if (!wrap) {
    wrap = el('div', { class: 'table-wrap', tabindex: '0', role: 'region',
      'aria-label': 'PALEO 2017 time to train table, scrolls sideways' });
    node.replaceChildren(el('h3'), wrap);
  }
  const title = `Time to train with the original's schemes, ${epochs} epochs`;
  if (node.firstElementChild.textContent !== title) node.firstElementChild.textContent = title;
  fillTable(wrap, TRAIN_HEADERS, trainRows(original), { numeric: [2, 3, 4, 5, 6] });
}

export function compare(nodes, a, b) {
  const one = (e) => (e.train ? e.train.setups[0] : {});
  const metrics = [
    ['Step ms', (e) => e.totals.step_ms, ms], ['Forward ms', (e) => e.totals.forward_ms, ms],
    ['Backward ms', (e) => e.totals.backward_ms, ms], ['Update ms', (e) => e.totals.update_ms, ms],
    ['Throughput samples/s', (e) => e.totals.throughput_samples_per_s, count],
    ['Time to train, one device', (e) => one(e).time_s * 1e3, duration], ['Cost, one device', (e) => one(e).cost_usd, money],
  ];
  fillTable(nodes.table, ['', `A: ${a.device.name}`, `B: ${b.device.name}`, 'B / A'],
    metrics.map(([name, get, fmt]) => [name, fmt(get(a)), fmt(get(b)), ratio(get(b) / get(a))]), { numeric: [1, 2, 3] });
  nodes.summary.replaceChildren(el('li', { text: 'A: ' + describe(a) }), el('li', { text: 'B: ' + describe(b) }));
  return { headers: ['metric', 'a', 'b', 'b_over_a'], rows: metrics.map(([name, get]) => [name, get(a), get(b), get(b) / get(a)]) };
}

// The PALEO 2017 model's scaling: `schemes` is the presets' original_schemes.
export function scaling(sim, nodes, schemes) {
  if (!sim) {
    lineChart(nodes.time, { xs: [], series: [] });
    lineChart(nodes.speedup, { xs: [], series: [] });
    nodes.table.replaceChildren(el('p', { class: 'muted', text: 'Enter worker counts (for example 1,2,4,8) to see the scaling.' }));
    return null;
  }
  if (sim.parallel === 'data') {
    const { scaling: kind, rows } = sim.scaling[0];
    const xs = rows.map((r) => r.workers);
    lineChart(nodes.time, { title: 'Time per iteration (ms)', xLabel: 'workers', yLabel: 'ms', xs, logY: true,
      series: schemes.map((s) => ({ label: s, values: rows.map((r) => r.step_ms[s]) })) });
    lineChart(nodes.speedup, { title: `Speed-up (${kind} scaling)`, xLabel: 'workers', yLabel: '×', xs,
      series: schemes.map((s) => ({ label: s, values: rows.map((r) => r.speedup[s]) })) });
    nodes.table.replaceChildren(table(['Workers', 'Batch', 'Compute ms', ...schemes.map((s) => s + ' ms'), 'Fastest'],
      rows.map((r) => [r.workers, integer(r.batch_size), ms(r.time_comp_ms),
        ...schemes.map((s) => ms(r.step_ms[s])), r.fastest_scheme]), { numeric: [0, 1, 2, 3, 4, 5, 6] }),
    el('p', { class: 'muted', text: 'Scheme columns: time per iteration (compute + communication), ' +
      `${kind} scaling (${kind === 'weak' ? 'batch per worker' : 'global batch'}).` }));
    return { headers: ['workers', 'batch_size', 'time_comp_ms', ...schemes.map((s) => `comm_ms_${s}`),
      ...schemes.map((s) => `speedup_${s}`), 'fastest_scheme'],
    rows: rows.map((r) => [r.workers, r.batch_size, r.time_comp_ms, ...schemes.map((s) => r.comm_ms[s]),
      ...schemes.map((s) => r.speedup[s]), r.fastest_scheme]) };
  }
  lineChart(nodes.time, { xs: [], series: [] });
  lineChart(nodes.speedup, { xs: [], series: [] });
  if (sim.parallel === 'model') {
    const rows = [['Forward', sim.forward.lower_ms, sim.forward.upper_ms], ['Backward', sim.backward.lower_ms, sim.backward.upper_ms]];
    nodes.table.replaceChildren(table(['Pass', 'Lower bound ms', 'Upper bound ms'],
      rows.map(([p, lo, hi]) => [p, ms(lo), ms(hi)]), { numeric: [1, 2] }));
    return { headers: ['pass', 'lower_ms', 'upper_ms'], rows };
  }
  const headers = ['part', 'workers', 'batch_size', 'fwd_time_ms', 'bwd_time_ms', 'apply_time_ms', 'sync_time_ms'];
  nodes.table.replaceChildren(table(['Part', 'Workers', 'Batch', 'Forward ms', 'Backward ms', 'Apply ms', 'Sync ms'],
    sim.rows.map((r) => [r.part, r.workers, r.batch_size, ms(r.fwd_time_ms), ms(r.bwd_time_ms),
      ms(r.apply_time_ms), ms(r.sync_time_ms)]), { numeric: [1, 2, 3, 4, 5, 6] }),
  el('p', { class: 'muted', text: 'Iteration: ' + ms(sim.iteration_ms) + ' ms' }));
  return { headers, rows: sim.rows.map((r) => headers.map((h) => r[h])) };
}

export function cluster(nodes, c) {
  nodes.summary.replaceChildren(el('p', { text: `${c.cluster.nodes} × ${c.cluster.devices_per_node} devices ` +
    `(${c.cluster.intra.name} in node` + (c.cluster.nodes > 1 ? `, ${c.cluster.inter.name} between nodes` : '') +
    `), data parallel ${c.data_parallel}` +
    (c.pipeline_stages > 1 ? `, ${c.pipeline_stages} pipeline stages` : '') + `; step ${ms(c.step_ms)} ms with ` +
    `${c.chosen.algorithm}, ${count(c.throughput_samples_per_s)} samples/s.` }));
  // Scaled to the slowest of the all-reduce algorithms (parameter servers, often far slower,
  // are clipped at the right edge).
  const allReduce = c.collectives.filter((o) => !o.algorithm.includes('parameter_server'));
  const longest = Math.max(...(allReduce.length ? allReduce : c.collectives).map((o) => o.no_overlap.step_ms));
  const compute = c.compute.compute_ms;
  const bubble = c.pipeline ? c.pipeline.bubble_ms : 0;
  const pct = (v) => Math.min(100, Math.max(0, v / longest * 100)).toFixed(2) + '%';
  const stacked = (exposed) => {
    const node = el('div', { class: 'stack', title: `compute ${ms(compute - bubble)} ms, bubble ${ms(bubble)} ms, ` +
      `exposed communication ${ms(exposed)} ms` });
    for (const [cls, v] of [['compute', compute - bubble], ['bubble', bubble], ['exposed', exposed]]) {
      const span = el('span', { class: cls });
      span.style.width = pct(v);
      node.append(span);
    }
    return node;
  };
  nodes.bars.replaceChildren(el('p', { class: 'legend' }, [el('span', { class: 'key compute' }), ' compute ',
    el('span', { class: 'key bubble' }), ' pipeline bubble ', el('span', { class: 'key exposed' }), ' exposed communication']),
  el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'All-reduce table, scrolls sideways' }, table(['All-reduce', 'Comm ms', 'Step ms, no overlap', 'Parts, no overlap', 'Step ms, overlap', 'Parts, overlap'],
    c.collectives.map((o) => [o.algorithm, ms(o.comm_ms), ms(o.no_overlap.step_ms), stacked(o.no_overlap.exposed_comm_ms),
      ms(o.overlap.step_ms), stacked(o.overlap.exposed_comm_ms)]), { numeric: [1, 2, 4] })));
  const m = c.memory.reduce((a, b) => (b.total_bytes > a.total_bytes ? b : a));
  const scale = Math.max(m.capacity_bytes || 0, m.total_bytes) || 1;
  const bar = el('div', { class: 'membar' + (m.fits ? '' : ' over') });
  for (const [cls, v, label] of [['w', m.weights_bytes, 'weights'], ['g', m.gradients_bytes, 'gradients'],
    ['o', m.optimizer_bytes, 'optimizer state'], ['a', m.activations_bytes, 'activations'], ['ws', m.workspace_bytes, 'workspace']]) {
    const span = el('span', { class: cls, title: `${label} ${bytes(v)}` });
    span.style.width = (v / scale * 100).toFixed(2) + '%';
    bar.append(span);
  }
  nodes.memory.replaceChildren(el('h3', { text: 'Memory per device' + (c.memory.length > 1 ? ' (fullest stage)' : '') }), bar,
    el('p', { class: m.fits ? 'muted' : 'error', text: `${bytes(m.total_bytes)} of ` +
      `${m.capacity_bytes ? bytes(m.capacity_bytes) : 'unknown capacity'}: weights ${bytes(m.weights_bytes)}, gradients ` +
      `${bytes(m.gradients_bytes)}, optimizer ${bytes(m.optimizer_bytes)}, activations ${bytes(m.activations_bytes)}, ` +
      `workspace ${bytes(m.workspace_bytes)}` + (m.fits ? '' : ' — does not fit') +
      (c.max_batch_per_replica ? `; largest batch that fits: ${c.max_batch_per_replica}` : '') }));
  lineChart(nodes.chart, { title: 'Throughput over nodes (samples/s)', xLabel: 'nodes', yLabel: 'samples/s',
    xs: c.node_scaling.map((p) => p.nodes),
    series: [{ label: 'best all-reduce', values: c.node_scaling.map((p) => p.throughput_samples_per_s) }] });
}

export function search(nodes, r) {
  nodes.summary.replaceChildren(el('p', { text: `${r.devices} devices (${r.devices_per_node} per node), batch ` +
    `${r.batch_per_device} per device: layer-wise ${ms(r.step_ms)} ms per step, data parallel ` +
    `${ms(r.data_parallel_step_ms)} ms, model parallel ${ms(r.model_parallel_step_ms)} ms, one weird trick ` +
    `${ms(r.one_weird_trick_step_ms)} ms. Speed-up over data ` +
    `parallelism ${r.speedup_over_data_parallel.toFixed(2)}×, over the best uniform strategy ` +
    `${r.speedup_over_best_uniform.toFixed(2)}×. Data moved per step: layer-wise ${bytes(r.traffic_bytes)}, ` +
    `data parallel ${bytes(r.data_parallel_traffic_bytes)}, model parallel ${bytes(r.model_parallel_traffic_bytes)}.` +
    (r.reduced ? '' : ' ' + r.message) +
    (r.expected_error ? ' ' + expectedErrorText(r.expected_error) : '') }));
  lineChart(nodes.chart, { title: 'Throughput (samples/s)', xLabel: 'devices', yLabel: 'samples/s',
    xs: r.scaling.map((p) => p.devices),
    series: [{ label: 'layer-wise', values: r.scaling.map((p) => p.layerwise_samples_per_s) },
      { label: 'data parallel', values: r.scaling.map((p) => p.data_parallel_samples_per_s) },
      { label: 'model parallel', values: r.scaling.map((p) => p.model_parallel_samples_per_s) }] });
  const headers = ['Layer', 'Type', 'n', 'c', 'h', 'w', 't_c ms', 't_s ms', 't_x in ms'];
  nodes.table.replaceChildren(table(headers,
    r.layers.map((l) => [l.name, l.type, l.config.n, l.config.c, l.config.h, l.config.w, ms(l.t_c_ms), ms(l.t_s_ms),
      ms(l.t_x_in_ms)]), { numeric: [2, 3, 4, 5, 6, 7, 8] }));
  return { headers: ['name', 'type', 'n', 'c', 'h', 'w', 't_c_ms', 't_s_ms', 't_x_in_ms'],
    rows: r.layers.map((l) => [l.name, l.type, l.config.n, l.config.c, l.config.h, l.config.w, l.t_c_ms, l.t_s_ms, l.t_x_in_ms]) };
}
