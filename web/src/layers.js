// The per-layer table, sortable by any column (by mouse or keyboard): a CNN's layers, or a
// transformer's operators. Each returns its data for CSV export (full precision).
import { el } from './dom.js';
import { bytes, count, ms, shape } from './format.js';

// A column: header, sort key, numeric, display text. The last column is the share of the whole.
const CNN_COLUMNS = [
  ['Layer', (l) => l.name, false, (l) => l.name], ['Type', (l) => l.type, false, (l) => l.type],
  ['Output', (l) => l.output.reduce((a, b) => a * b, 1), false, (l) => shape(l.output)],
  ['Params', (l) => l.params, true, (l) => count(l.params)],
  ['Fwd FLOPs', (l) => l.forward.flops, true, (l) => count(l.forward.flops)],
  ['Forward ms', (l) => l.forward.total_ms, true, (l) => ms(l.forward.total_ms)],
  ['Backward ms', (l) => l.backward.total_ms, true, (l) => ms(l.backward.total_ms)],
];

// Operator times are per instance, micro-batch and device; the share counts every instance.
const opTime = (o) => o.count * (o.forward.total_ms + o.backward.total_ms);
const OP_COLUMNS = [
  ['Operator', (o) => o.name, false, (o) => o.name], ['Type', (o) => o.type, false, (o) => o.type],
  ['Count', (o) => o.count, true, (o) => String(o.count)],
  ['Forward ms', (o) => o.forward.total_ms, true, (o) => ms(o.forward.total_ms)],
  ['Backward ms', (o) => o.backward.total_ms, true, (o) => ms(o.backward.total_ms)],
  ['Fwd FLOPs', (o) => o.forward.flops, true, (o) => count(o.forward.flops)],
  ['Bwd FLOPs', (o) => o.backward.flops, true, (o) => count(o.backward.flops)],
  ['Params', (o) => o.params, true, (o) => count(o.params)],
  ['Activations', (o) => o.activation_bytes, true, (o) => bytes(o.activation_bytes)],
];

// Sets a node's text only when it changed: a re-estimate of the same net then touches only the
// numbers that moved, and the browser lays out little more than those.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function newRow(columns) {
  const tr = document.createElement('tr');
  columns.forEach(([, , numeric], i) => {
    const cell = document.createElement(i === 0 ? 'th' : 'td');
    if (i === 0) cell.scope = 'row';
    if (numeric) cell.className = 'num';
    tr.append(cell);
  });
  tr.append(el('td', { class: 'share' }, [el('span', { class: 'bar' }), el('span', { class: 'pct' })]));
  return tr;
}

// The table's header is rebuilt only when its columns or sort change; its rows are kept and
// updated in place (added or removed when the count changes).
function sortable(tableNode, rows, columns, [shareName, share], sort, onSort) {
  const all = [...columns, [shareName, share, true]];
  const sorted = rows.slice();
  if (sort.column != null && sort.column < all.length) {
    const get = all[sort.column][1];
    sorted.sort((a, b) => {
      const x = get(a), y = get(b);
      const c = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
      return sort.descending ? -c : c;
    });
  }
  tableNode.onSortColumn = onSort;
  // The header is made once per set of columns; a sort only moves aria-sort, so the header button
  // that was pressed keeps the keyboard focus.
  const headKey = JSON.stringify(all.map(([name]) => name));
  let body = tableNode.tBodies[0];
  if (tableNode.dataset.head !== headKey || !body) {
    const head = el('thead', {}, el('tr', {}, all.map(([name, , numeric], i) => {
      const button = el('button', { type: 'button', class: 'sort', text: name, title: `Sort by ${name.toLowerCase()}` });
      button.addEventListener('click', () => tableNode.onSortColumn(i));
      return el('th', { scope: 'col', class: numeric ? 'num' : null }, button);
    })));
    body = document.createElement('tbody');
    tableNode.replaceChildren(head, body);
    tableNode.dataset.head = headKey;
  }
  [...tableNode.tHead.rows[0].cells].forEach((th, i) => {
    const dir = sort.column === i ? (sort.descending ? 'descending' : 'ascending') : null;
    if (th.getAttribute('aria-sort') !== dir) {
      if (dir) th.setAttribute('aria-sort', dir);
      else th.removeAttribute('aria-sort');
    }
  });
  while (body.rows.length > sorted.length) body.lastElementChild.remove();
  const added = [];
  for (let i = body.rows.length; i < sorted.length; ++i) added.push(newRow(columns));
  body.append(...added);
  sorted.forEach((row, r) => {
    const cells = body.rows[r].cells;
    columns.forEach(([, , , text], i) => setText(cells[i], text(row)));
    const fraction = share(row);
    const shareCell = cells[columns.length];
    const width = (fraction * 100).toFixed(2) + '%';
    if (shareCell.firstChild.style.width !== width) shareCell.firstChild.style.width = width;
    setText(shareCell.lastChild, (fraction * 100).toFixed(1) + '%');
  });
}

export function cnnLayers(tableNode, e, sort, onSort) {
  const step = e.totals.step_ms || 1;
  const share = (l) => (l.forward.total_ms + l.backward.total_ms) / step;
  sortable(tableNode, e.layers, CNN_COLUMNS, ['Share of step', share], sort, onSort);
  return { headers: ['name', 'type', 'output', 'params', 'forward_flops', 'forward_ms', 'backward_data_ms',
    'backward_filter_ms', 'backward_ms', 'share_of_step'],
  rows: e.layers.map((l) => [l.name, l.type, l.output.join('x'), l.params, l.forward.flops, l.forward.total_ms,
    l.backward_data.total_ms, l.backward_filter.total_ms, l.backward.total_ms, share(l)]) };
}

// A transformer's operators; the share is of the operators' compute (all instances, one micro-batch).
export function transformerOps(tableNode, t, sort, onSort) {
  const total = t.layers.reduce((sum, o) => sum + opTime(o), 0) || 1;
  const share = (o) => opTime(o) / total;
  sortable(tableNode, t.layers, OP_COLUMNS, ['Share of compute', share], sort, onSort);
  return { headers: ['name', 'type', 'count', 'forward_ms', 'backward_ms', 'forward_flops', 'backward_flops', 'params',
    'activation_bytes', 'm', 'n', 'k', 'share_of_compute'],
  rows: t.layers.map((o) => [o.name, o.type, o.count, o.forward.total_ms, o.backward.total_ms, o.forward.flops,
    o.backward.flops, o.params, o.activation_bytes, o.shape?.m ?? '', o.shape?.n ?? '', o.shape?.k ?? '', share(o)]) };
}
