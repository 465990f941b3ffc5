// A uPlot time-series chart in a preact component: made once, fed new data on every render.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from './html.js';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/** data: [times (s), ...series]; names: the series' labels (their set fixes the chart). */
export function Chart({ id, title, names, data }) {
  const el = useRef(null);
  const plot = useRef(null);
  const shape = names.join('|');
  useEffect(() => {
    const opts = {
      title,
      width: 420,
      height: 200,
      series: [{}, ...names.map((label, i) => ({ label, stroke: COLORS[i % COLORS.length] }))],
      axes: [{}, { size: 60 }],
    };
    plot.current = new uPlot(opts, data, el.current);
    return () => plot.current.destroy();
  }, [shape]);
  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);
  // The largest value drawn, for tests and for a glance in the inspector.
  const max = Math.max(0, ...data.slice(1).flatMap((s) => s.filter((v) => Number.isFinite(v))));
  return html`<div class="chart" id=${id} data-points=${data[0].length} data-max=${max}><div ref=${el}></div></div>`;
}
