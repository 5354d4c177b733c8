// Line charts with uPlot: one series per communication scheme (or per algorithm). Colours come
// from the page's CSS variables, so the charts follow the light or dark scheme. uPlot (a third of
// the page's script, its own chunk) loads with the first chart, after the first result is on
// screen: nothing before it draws one.

const charts = new Map();  // container -> {plot, key}
let UPlot = null;          // the uPlot class, once loaded
let loading = null;
const pending = new Map(); // container -> the latest chart asked for while uPlot loads

// Resolves to the uPlot class, its style sheet added (loaded once; a failed load is tried again by
// the next chart).
export function loadUPlot() {
  if (!document.querySelector('link[href="uPlot.min.css"]')) {
    document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: 'uPlot.min.css' }));
  }
  loading ??= import('uplot').then((m) => {
    UPlot = m.default;
    return UPlot;
  }, (e) => {
    loading = null;
    throw e;
  });
  return loading;
}

function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { fg: v('--fg'), muted: v('--muted'), grid: v('--grid'),
    series: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => v(`--series-${i}`)) };
}

const number = (v) => (v == null ? '' : Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US')
  : Math.abs(v) >= 10 ? String(+v.toFixed(1)) : String(+v.toPrecision(3)));

function widthOf(container) {
  return Math.max(240, Math.min(container.clientWidth || 480, 720));
}

// xs: the x values; series: [{label, values}]. logY draws the y axis in powers of ten (all
// values must be positive).
export function lineChart(container, chart) {
  if (UPlot || !chart.xs.length) {
    draw(container, chart);
    return;
  }
  pending.set(container, chart);
  loadUPlot().then(() => {
    for (const [box, latest] of pending) draw(box, latest);
    pending.clear();
  }, () => {
    for (const box of pending.keys()) box.textContent = 'The chart could not be loaded.';
    pending.clear();
  });
}

function draw(container, { title, xLabel, yLabel, xs, series, logX = true, logY = false }) {
  pending.delete(container);
  const old = charts.get(container);
  if (!xs.length) {
    if (old) old.plot.destroy();
    charts.delete(container);
    container.replaceChildren();
    return;
  }
  const positive = series.every((s) => s.values.every((v) => v > 0));
  const yLog = logY && positive;
  const key = JSON.stringify([title, xLabel, yLabel, yLog, logX, series.map((s) => s.label), document.documentElement.dataset.scheme]);
  const data = [xs, ...series.map((s) => s.values)];
  if (old && old.key === key) {
    old.plot.setData(data);
    return;
  }
  if (old) old.plot.destroy();
  container.replaceChildren();
  const c = palette();
  const axis = (label, extra = {}) => ({ label, stroke: c.fg, labelFont: '12px system-ui, sans-serif',
    font: '11px system-ui, sans-serif', grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 }, ...extra });
  const opts = {
    title, width: widthOf(container), height: 240,
    scales: {
      x: { time: false, distr: logX ? 3 : 1, log: 2, range: (u, min, max) => (min === max ? [min / 2, max * 2] : [min, max]) },
      y: yLog ? { distr: 3, log: 10 } : { range: (u, min, max) => [Math.min(0, min), max > 0 ? max * 1.05 : 1] },
    },
    axes: [axis(xLabel, { values: (u, vals) => vals.map(number) }),
      axis(yLabel, { size: 64, values: (u, vals) => vals.map(number) })],
    series: [{ label: xLabel, value: (u, v) => number(v) },
      ...series.map((s, i) => ({ label: s.label, stroke: c.series[i % c.series.length], width: 2,
        value: (u, v) => number(v), points: { show: true, size: 5 } }))],
    legend: { live: false },
    cursor: { drag: { x: false, y: false } },
  };
  charts.set(container, { plot: new UPlot(opts, data, container), key });
}

// Called on window resizes.
export function resizeCharts() {
  for (const [container, { plot }] of charts) plot.setSize({ width: widthOf(container), height: 240 });
}
