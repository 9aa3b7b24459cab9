// Per-connector cards: status, actions, and each entity's replication status with record counts
// and how fresh its synced copy is (stale: older than twice the connector's schedule).
import { fill, fmtDuration, fmtNum, fmtTime, h } from './dom.js';

function freshnessCell(e) {
  const f = e.freshness;
  const age = f.age_seconds === null ? 'never synced' : `${fmtDuration(f.age_seconds * 1000)} old`;
  const title = `schedule ${f.schedule}; stale after ${fmtDuration(f.stale_after_seconds * 1000)}; last synced ${fmtTime(e.last_synced_at)}`;
  return h('td', { class: 'freshness', title }, age, f.stale ? [' ', h('span', { class: 'badge stale' }, 'stale')] : null);
}

function entityRow(connector, e, act) {
  const base = `/admin/api/connectors/${connector.id}`;
  const who = `${connector.name} / ${e.entity}`;
  return h(
    'tr',
    { class: e.freshness.stale ? 'stale' : null, dataset: { entity: e.entity, stale: String(e.freshness.stale) } },
    h('td', {}, e.entity),
    h('td', {}, h('span', { class: `badge ${e.status}` }, e.status)),
    h('td', { class: 'num' }, fmtNum(e.record_count)),
    freshnessCell(e),
    h('td', {}, fmtTime(e.next_run_at)),
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
      h('thead', {}, h('tr', {}, ['Entity', 'Status', 'Records', 'Copy age', 'Next run', 'Last error', ''].map((t) => h('th', {}, t)))),
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

/** One line over the cards: which copies are stale, so none hides in a long list. */
export function renderFreshnessSummary(container, connectors) {
  const entities = connectors.flatMap((c) => c.entities.map((e) => ({ c, e })));
  const stale = entities.filter(({ e }) => e.freshness.stale);
  container.className = stale.length > 0 ? 'stale-summary' : 'muted';
  if (stale.length === 0) return fill(container, entities.length === 0 ? '' : `All ${entities.length} synced copies are fresh (synced within twice their schedule).`);
  return fill(container, `${stale.length} of ${entities.length} synced copies are stale: `, stale.map(({ c, e }, i) => [i > 0 ? ', ' : '', `${c.name} / ${e.entity}`]));
}
