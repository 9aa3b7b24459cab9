// The runs table: one row per run with live status, progress, counters and a readable error.
import { fill, fmtDuration, fmtNum, fmtTime, h } from './dom.js';

const ACTIVE = new Set(['queued', 'running']);

function progressCell(run) {
  const { seen, expected, ratio } = run.progress;
  if (run.status === 'succeeded') return h('td', {}, h('div', { class: 'bar' }, h('span', { style: { width: '100%' } })), `${fmtNum(seen)} records`);
  const width = ratio === null ? (ACTIVE.has(run.status) ? 'indeterminate' : null) : `${Math.round(ratio * 100)}%`;
  const bar = width === null ? null : h('div', { class: `bar${width === 'indeterminate' ? ' indeterminate' : ''}` }, h('span', { style: width === 'indeterminate' ? {} : { width } }));
  const label = expected ? `${fmtNum(seen)} of ~${fmtNum(expected)}` : `${fmtNum(seen)} records`;
  return h('td', {}, bar, label, ` · ${run.counters.pages} pages`);
}

function errorCell(run) {
  if (!run.error) return h('td', { class: 'muted' }, '—');
  const upstream = run.error.upstreamStatus ? ` (upstream ${run.error.upstreamStatus})` : '';
  return h('td', { class: 'error-cell', title: run.error.message }, h('strong', {}, `${run.error.code}${upstream}`), h('br'), run.error.message);
}

function actionsCell(run, act) {
  const label = `run #${run.id} (${run.connector_name ?? run.connector_id} / ${run.entity})`;
  if (ACTIVE.has(run.status)) {
    return h('td', {}, h('button', { type: 'button', class: 'danger', dataset: { action: 'cancel' }, onclick: () => act(`Cancel ${label}?`, 'POST', `/admin/api/runs/${run.id}/cancel`, {}) }, 'Cancel'));
  }
  const fromCheckpoint = run.status !== 'succeeded';
  return h(
    'td',
    {},
    h('button', { type: 'button', dataset: { action: 'replay' }, onclick: () => act(`Replay ${label}${fromCheckpoint ? ' from its checkpoint' : ''}?`, 'POST', `/admin/api/runs/${run.id}/replay`, {}) }, 'Replay'),
    ' ',
    h('button', { type: 'button', class: 'secondary', dataset: { action: 'replay-from-start' }, onclick: () => act(`Replay ${label} from the start?`, 'POST', `/admin/api/runs/${run.id}/replay`, { from_start: true }) }, 'From start'),
  );
}

function runRow(run, act) {
  const c = run.counters;
  return h(
    'tr',
    { dataset: { runId: run.id, status: run.status } },
    h('td', {}, `#${run.id}`, run.replay_of ? h('div', { class: 'muted' }, `replay of #${run.replay_of}`) : null),
    h('td', {}, h('div', { class: 'name' }, run.connector_name ?? run.connector_id), h('div', { class: 'muted' }, run.connector_type ?? '')),
    h('td', {}, run.entity),
    h('td', {}, `${run.trigger} · ${run.mode}`, run.attempts > 1 ? h('div', { class: 'muted' }, `${run.attempts} attempts`) : null),
    h('td', {}, h('span', { class: `badge ${run.status}` }, run.status)),
    progressCell(run),
    h('td', { class: 'num' }, `+${fmtNum(c.inserted)} ~${fmtNum(c.updated)} −${fmtNum(c.deleted)}`, h('div', { class: 'muted' }, `${fmtNum(c.unchanged)} unchanged`)),
    h('td', {}, fmtTime(run.timings.started_at ?? run.timings.queued_at)),
    h('td', {}, fmtDuration(run.timings.duration_ms)),
    errorCell(run),
    actionsCell(run, act),
  );
}

/** Renders the runs; `act(question, method, path, body)` confirms and performs an action. */
export function renderRuns(tbody, runs, act) {
  if (runs.length === 0) return fill(tbody, h('tr', {}, h('td', { colspan: '11', class: 'muted' }, 'No runs match these filters.')));
  return fill(tbody, runs.map((run) => runRow(run, act)));
}
