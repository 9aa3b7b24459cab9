// Per-connector cards: status, actions, and each entity's replication status with record counts.
import { fill, fmtNum, fmtTime, h } from './dom.js';

function entityRow(connector, e, act) {
  const base = `/admin/api/connectors/${connector.id}`;
  const who = `${connector.name} / ${e.entity}`;
  return h(
    'tr',
    { dataset: { entity: e.entity } },
    h('td', {}, e.entity),
    h('td', {}, h('span', { class: `badge ${e.status}` }, e.status)),
    h('td', { class: 'num' }, fmtNum(e.record_count)),
    h('td', {}, fmtTime(e.last_synced_at)),
    h('td', { class: e.last_error ? 'error-cell' : 'muted' }, e.last_error ?? '—'),
    h(
      'td',
      {},
      h('button', { type: 'button', onclick: () => act(`Sync ${who} now?`, 'POST', `${base}/sync`, { entity: e.entity }) }, 'Sync'),
      ' ',
      h('button', { type: 'button', class: 'secondary', onclick: () => act(`Resync ${who}: forget its cursor and read everything (data kept)?`, 'POST', `${base}/entities/${encodeURIComponent(e.entity)}/resync`, {}) }, 'Resync'),
      ' ',
      h('button', { type: 'button', class: 'danger', onclick: () => act(`Reset ${who}: remove its records from search, then read everything again?`, 'POST', `${base}/entities/${encodeURIComponent(e.entity)}/reset`, {}) }, 'Reset'),
    ),
  );
}

function card(connector, act) {
  const paused = connector.status === 'paused';
  const base = `/admin/api/connectors/${connector.id}`;
  const toggle = paused
    ? h('button', { type: 'button', dataset: { action: 'resume' }, onclick: () => act(`Resume ${connector.name}?`, 'POST', `${base}/resume`, {}) }, 'Resume')
    : h('button', { type: 'button', class: 'secondary', dataset: { action: 'pause' }, onclick: () => act(`Pause ${connector.name}? Active runs are cancelled.`, 'POST', `${base}/pause`, {}) }, 'Pause');
  return h(
    'article',
    { class: 'card', dataset: { connectorId: connector.id } },
    h(
      'header',
      {},
      h('strong', { class: 'name' }, connector.name),
      ` ${connector.connector_type} `,
      h('span', { class: `badge ${connector.status}` }, connector.status),
      h('span', { class: 'muted' }, ` ${connector.id}`),
      h('span', { class: 'actions' }, h('button', { type: 'button', onclick: () => act(`Sync every entity of ${connector.name}?`, 'POST', `${base}/sync`, {}) }, 'Sync all'), ' ', toggle),
    ),
    h(
      'table',
      { class: 'entities' },
      h('thead', {}, h('tr', {}, ['Entity', 'Status', 'Records', 'Last synced', 'Last error', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, connector.entities.map((e) => entityRow(connector, e, act))),
    ),
  );
}

export function renderConnectors(container, connectors, act) {
  if (connectors.length === 0) return fill(container, h('p', { class: 'muted' }, 'No connectors yet.'));
  return fill(container, connectors.map((c) => card(c, act)));
}

/** Keeps a <select>'s options in step with a list, preserving the current choice. */
export function syncOptions(select, options) {
  const current = select.value;
  fill(select, h('option', { value: '' }, 'all'), options.map(([value, label]) => h('option', { value }, label)));
  select.value = options.some(([v]) => v === current) ? current : '';
}
