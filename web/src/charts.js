// Line charts with uPlot: one series per communication scheme (or per algorithm).
import uPlot from 'uplot';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#a16207', '#db2777'];
const charts = new Map();

export function lineChart(container, { title, xLabel, yLabel, xs, series, logX = true }) {
  const old = charts.get(container);
  if (old) old.destroy();
  container.replaceChildren();
  if (!xs.length) return;
  const width = Math.max(260, Math.min(container.clientWidth || 480, 640));
  const opts = {
    title, width, height: 260,
    scales: { x: { time: false, distr: logX ? 3 : 1 }, y: { auto: true } },
    axes: [{ label: xLabel, stroke: 'currentColor', grid: { stroke: 'rgba(128,128,128,0.2)' } },
           { label: yLabel, stroke: 'currentColor', grid: { stroke: 'rgba(128,128,128,0.2)' }, size: 60 }],
    series: [{ label: xLabel }, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2,
      points: { show: true, size: 5 } }))],
    legend: { live: false },
  };
  charts.set(container, new uPlot(opts, [xs, ...series.map((s) => s.values)], container));
}
