// Records synced per finished run over time, as an inline SVG bar chart (no library).
import { fill, fmtNum, fmtTime, h, s } from './dom.js';

const W = 800;
const H = 160;
const PAD = { left: 48, right: 8, top: 10, bottom: 22 };

export function renderChart(container, runs) {
  const done = runs.filter((r) => r.timings.finished_at).sort((a, b) => Date.parse(a.timings.finished_at) - Date.parse(b.timings.finished_at));
  if (done.length === 0) return fill(container, h('p', { class: 'muted' }, 'No finished runs yet.'));
  const max = Math.max(1, ...done.map((r) => r.counters.seen));
  const t0 = Date.parse(done[0].timings.finished_at);
  const t1 = Math.max(t0 + 1, Date.parse(done[done.length - 1].timings.finished_at));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const barW = Math.max(3, Math.min(24, plotW / done.length - 2));
  const x = (r) => PAD.left + ((Date.parse(r.timings.finished_at) - t0) / (t1 - t0)) * (plotW - barW);
  const bars = done.map((r) => {
    const bh = Math.max(1, (r.counters.seen / max) * plotH);
    return s('rect', { x: x(r).toFixed(1), y: (PAD.top + plotH - bh).toFixed(1), width: barW, height: bh.toFixed(1), class: `bar-${r.status}` },
      s('title', {}, `#${r.id} ${r.connector_name ?? ''} / ${r.entity}: ${fmtNum(r.counters.seen)} records, ${r.status}, ${fmtTime(r.timings.finished_at)}`));
  });
  const axis = [
    s('line', { x1: PAD.left, y1: PAD.top + plotH, x2: W - PAD.right, y2: PAD.top + plotH, class: 'axis' }),
    s('text', { x: PAD.left - 6, y: PAD.top + 8, 'text-anchor': 'end', class: 'tick' }, fmtNum(max)),
    s('text', { x: PAD.left - 6, y: PAD.top + plotH, 'text-anchor': 'end', class: 'tick' }, '0'),
    s('text', { x: PAD.left, y: H - 4, class: 'tick' }, fmtTime(done[0].timings.finished_at)),
    s('text', { x: W - PAD.right, y: H - 4, 'text-anchor': 'end', class: 'tick' }, fmtTime(done[done.length - 1].timings.finished_at)),
  ];
  return fill(container, s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'records synced per run' }, axis, bars));
}
