// Rendering of responses: cards, the layer table, scaling, time and cost, cluster, comparison.
import { el, table } from './dom.js';
import { bytes, count, duration, money, ms, shape } from './format.js';
import { lineChart } from './charts.js';

export function cards(container, estimate, state) {
  const t = estimate.totals;
  const step = estimate.cluster ? estimate.cluster.step_ms : t.step_ms;
  const samples = estimate.cluster ? estimate.cluster.global_batch : estimate.net.batch_size;
  const items = [
    ['Step', ms(step) + ' ms', estimate.cluster ? 'cluster, ' + estimate.cluster.chosen.algorithm : 'one device'],
    ['Forward', ms(t.forward_ms) + ' ms', 'compute ' + ms(t.forward_comp_ms) + ' / memory ' + ms(t.forward_comm_ms)],
    ['Backward', ms(t.backward_ms) + ' ms', 'compute ' + ms(t.backward_comp_ms) + ' / memory ' + ms(t.backward_comm_ms)],
    ['Update', ms(t.update_ms) + ' ms', state.optimizer],
    ['Throughput', count(samples / step * 1e3) + ' samples/s', 'batch ' + samples],
    ['Parameters', count(t.params), bytes(t.params_bytes)],
    ['Forward work', count(t.forward_flops) + 'FLOP', 'activations ' + bytes(t.activation_bytes)],
  ];
  container.replaceChildren(...items.map(([label, value, note]) =>
    el('div', { class: 'card' }, [el('div', { class: 'label', text: label }), el('div', { class: 'value', text: value }),
      el('div', { class: 'note', text: note })])));
}

const LAYER_COLUMNS = [
  ['Layer', (l) => l.name, false], ['Type', (l) => l.type, false], ['Output', (l) => shape(l.output), false],
  ['Params', (l) => l.params, true], ['Fwd FLOPs', (l) => l.forward.flops, true],
  ['Forward ms', (l) => l.forward.total_ms, true], ['Backward ms', (l) => l.backward.total_ms, true],
  ['Share of step', (l) => l.forward.total_ms + l.backward.total_ms, true],
];

export function layerTable(tableNode, estimate, sort, onSort) {
  const layers = [...estimate.layers];
  const total = layers.reduce((s, l) => s + l.forward.total_ms + l.backward.total_ms, 0) || 1;
  if (sort.column != null) {
    const get = LAYER_COLUMNS[sort.column][1];
    layers.sort((a, b) => {
      const x = get(a), y = get(b);
      const c = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
      return sort.descending ? -c : c;
    });
  }
  const head = el('thead', {}, el('tr', {}, LAYER_COLUMNS.map(([name, , numeric], i) => {
    const dir = sort.column === i ? (sort.descending ? 'descending' : 'ascending') : 'none';
    const button = el('button', { type: 'button', class: 'sort', text: name });
    button.addEventListener('click', () => onSort(i));
    return el('th', { scope: 'col', class: numeric ? 'num' : '', 'aria-sort': dir }, button);
  })));
  const body = el('tbody', {}, layers.map((l) => {
    const share = (l.forward.total_ms + l.backward.total_ms) / total;
    const bar = el('div', { class: 'bar' }, [el('span', { style: `width:${(share * 100).toFixed(2)}%` }),
      el('em', { text: (share * 100).toFixed(1) + '%' })]);
    return el('tr', {}, [el('td', { text: l.name }), el('td', { text: l.type }), el('td', { text: shape(l.output) }),
      el('td', { class: 'num', text: count(l.params) }), el('td', { class: 'num', text: count(l.forward.flops) }),
      el('td', { class: 'num', text: ms(l.forward.total_ms) }), el('td', { class: 'num', text: ms(l.backward.total_ms) }),
      el('td', {}, bar)]);
  }));
  tableNode.replaceChildren(head, body);
}

const SCHEMES = ['OneToAll', 'TreeAllReduce', 'ButterflyAllReduce', 'ButterflyMixing'];

export function scaling(simulate, nodes) {
  if (simulate.parallel === 'data') {
    const rows = simulate.scaling[0].rows;
    const xs = rows.map((r) => r.workers);
    lineChart(nodes.time, { title: 'Time per iteration (ms)', xLabel: 'workers', yLabel: 'ms', xs,
      series: SCHEMES.map((s) => ({ label: s, values: rows.map((r) => r.time_comp_ms + r.comm_ms[s]) })) });
    lineChart(nodes.speedup, { title: 'Speed-up', xLabel: 'workers', yLabel: 'x', xs,
      series: SCHEMES.map((s) => ({ label: s, values: rows.map((r) => r.speedup[s]) })) });
    nodes.table.replaceChildren(table(['Workers', 'Batch', 'Compute ms', ...SCHEMES.map((s) => s + ' ms')],
      rows.map((r) => [r.workers, r.batch_size, ms(r.time_comp_ms), ...SCHEMES.map((s) => ms(r.comm_ms[s]))]),
      { numeric: [0, 1, 2, 3, 4, 5, 6] }));
    return;
  }
  lineChart(nodes.time, { xs: [], series: [] });
  lineChart(nodes.speedup, { xs: [], series: [] });
  if (simulate.parallel === 'model') {
    nodes.table.replaceChildren(table(['Pass', 'Lower bound ms', 'Upper bound ms'],
      [['Forward', ms(simulate.forward.lower_ms), ms(simulate.forward.upper_ms)],
       ['Backward', ms(simulate.backward.lower_ms), ms(simulate.backward.upper_ms)]], { numeric: [1, 2] }));
  } else {
    nodes.table.replaceChildren(table(['Part', 'Workers', 'Batch', 'Fwd ms', 'Bwd ms', 'Apply ms', 'Sync ms'],
      simulate.rows.map((r) => [r.part, r.workers, r.batch_size, ms(r.fwd_time_ms), ms(r.bwd_time_ms),
        ms(r.apply_time_ms), ms(r.sync_time_ms)]), { numeric: [1, 2, 3, 4, 5, 6] }),
      el('p', { class: 'muted', text: 'Iteration: ' + ms(simulate.iteration_ms) + ' ms' }));
  }
}

export function cost(container, estimate, state) {
  const step = estimate.cluster ? estimate.cluster.step_ms : estimate.totals.step_ms;
  const perStep = estimate.cluster ? estimate.cluster.global_batch : estimate.net.batch_size;
  const devices = estimate.cluster ? estimate.cluster.cluster.devices : 1;
  const steps = Math.ceil(state.dataset / perStep) * state.epochs;
  const total = steps * step;
  const dollars = total / 3.6e6 * devices * state.price;
  container.replaceChildren(table(['Steps', 'Time to train', 'Devices', 'Cost'],
    [[count(steps), duration(total), devices, money(dollars)]], { numeric: [0, 1, 2, 3] }),
  el('p', { class: 'muted', text: `${state.epochs} epochs of ${state.dataset.toLocaleString('en-US')} samples at ` +
    `${perStep} samples per step, ${money(state.price)} per device-hour.` }));
}

export function compare(container, a, b) {
  const rows = [['Forward ms', (e) => ms(e.totals.forward_ms)], ['Backward ms', (e) => ms(e.totals.backward_ms)],
    ['Update ms', (e) => ms(e.totals.update_ms)], ['Step ms', (e) => ms(e.totals.step_ms)],
    ['Samples/s', (e) => count(e.net.batch_size / e.totals.step_ms * 1e3)]];
  container.replaceChildren(table(['', a.device.name, b.device.name, 'Ratio'],
    rows.map(([name, f]) => [name, f(a), f(b), name === 'Samples/s'
      ? (a.totals.step_ms / b.totals.step_ms).toFixed(2) + '×' : (b.totals.step_ms / a.totals.step_ms).toFixed(2) + '×']),
    { numeric: [1, 2, 3] }));
}

export function cluster(nodes, c) {
  nodes.summary.replaceChildren(el('p', { text: `${c.cluster.nodes} × ${c.cluster.devices_per_node} devices ` +
    `(${c.cluster.intra.name} in node, ${c.cluster.inter.name} between nodes), data parallel ${c.data_parallel}` +
    (c.pipeline_stages > 1 ? `, ${c.pipeline_stages} pipeline stages` : '') + `; step ${ms(c.step_ms)} ms with ` +
    `${c.chosen.algorithm}, ${count(c.throughput_samples_per_s)} samples/s.` }));
  // Scaled to the slowest of the all-reduce algorithms (parameter servers, often far slower,
  // are clipped at the right edge).
  const longest = Math.max(...c.collectives.filter((o) => !o.algorithm.includes('parameter_server'))
    .map((o) => o.no_overlap.step_ms));
  const compute = c.compute.compute_ms;
  const bubble = c.pipeline ? c.pipeline.bubble_ms : 0;
  const rows = c.collectives.map((o) => {
    const stacked = (exposed) => el('div', { class: 'stack', title: `compute ${ms(compute - bubble)} ms, bubble ` +
      `${ms(bubble)} ms, exposed communication ${ms(exposed)} ms` }, [
      el('span', { class: 'compute', style: `width:${((compute - bubble) / longest * 100).toFixed(2)}%` }),
      el('span', { class: 'bubble', style: `width:${(bubble / longest * 100).toFixed(2)}%` }),
      el('span', { class: 'exposed', style: `width:${(exposed / longest * 100).toFixed(2)}%` })]);
    return [o.algorithm, ms(o.comm_ms), ms(o.no_overlap.step_ms), stacked(o.no_overlap.exposed_comm_ms),
      ms(o.overlap.step_ms), stacked(o.overlap.exposed_comm_ms)];
  });
  nodes.bars.replaceChildren(el('p', { class: 'legend' }, [el('span', { class: 'key compute' }), ' compute ',
    el('span', { class: 'key bubble' }), ' pipeline bubble ', el('span', { class: 'key exposed' }), ' exposed communication']),
  table(['All-reduce', 'Comm ms', 'Step ms (no overlap)', '', 'Step ms (overlap)', ''], rows, { numeric: [1, 2, 4] }));
  const m = c.memory.reduce((a, b) => (b.total_bytes > a.total_bytes ? b : a));
  const capacity = m.capacity_bytes || m.total_bytes;
  const part = (cls, v, label) => el('span', { class: cls, style: `width:${(v / Math.max(capacity, m.total_bytes) * 100).toFixed(2)}%`,
    title: `${label} ${bytes(v)}` });
  nodes.memory.replaceChildren(el('h3', { text: 'Memory per device' + (c.memory.length > 1 ? ' (fullest stage)' : '') }),
    el('div', { class: 'membar' + (m.fits ? '' : ' over') }, [part('w', m.weights_bytes, 'weights'),
      part('g', m.gradients_bytes, 'gradients'), part('o', m.optimizer_bytes, 'optimizer state'),
      part('a', m.activations_bytes, 'activations'), part('ws', m.workspace_bytes, 'workspace')]),
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
    `${ms(r.data_parallel_step_ms)} ms, model parallel ${ms(r.model_parallel_step_ms)} ms. Speed-up over data ` +
    `parallelism ${r.speedup_over_data_parallel.toFixed(2)}×, over the best uniform strategy ` +
    `${r.speedup_over_best_uniform.toFixed(2)}×.` + (r.reduced ? '' : ' ' + r.message) }));
  lineChart(nodes.chart, { title: 'Throughput (samples/s)', xLabel: 'devices', yLabel: 'samples/s',
    xs: r.scaling.map((p) => p.devices),
    series: [{ label: 'layer-wise', values: r.scaling.map((p) => p.layerwise_samples_per_s) },
      { label: 'data parallel', values: r.scaling.map((p) => p.data_parallel_samples_per_s) },
      { label: 'model parallel', values: r.scaling.map((p) => p.model_parallel_samples_per_s) }] });
  nodes.table.replaceChildren(table(['Layer', 'Type', 'n', 'c', 'h', 'w', 't_c ms', 't_s ms', 't_x in ms'],
    r.layers.map((l) => [l.name, l.type, l.config.n, l.config.c, l.config.h, l.config.w, ms(l.t_c_ms), ms(l.t_s_ms),
      ms(l.t_x_in_ms)]), { numeric: [2, 3, 4, 5, 6, 7, 8] }));
}
