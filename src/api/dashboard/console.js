// The search console: pick a connector and entity, see its searchable fields, build or write a
// filter, and run it through the same execute action agents call (the admin scope's route, so an
// operator can look at any organization's connector). Errors show the API's code, message and
// the path of the offending part of the request.
import { api, ApiError } from './api.js';
import { fill, h } from './dom.js';

const $ = (id) => document.getElementById(id);
// last: the params of the page shown (without cursor); page: its number along next_cursor.
const state = { connectors: [], entities: [], last: null, page: 0, next: null };

function entityFields() {
  return state.entities.find((e) => e.entity === $('c-entity').value)?.fields ?? [];
}

function fieldRow(f) {
  const type = f.type === 'array' && f.items ? `array of ${f.items}` : f.type;
  const keys = f.keys.length > 0 ? ` {${f.keys.join(', ')}}` : '';
  return h('tr', { dataset: { field: f.path } }, h('td', {}, h('code', {}, f.path)), h('td', { class: 'type' }, type + keys), h('td', { class: 'muted' }, f.operators.join(' ')), h('td', {}, f.sortable ? 'yes' : '—'));
}

function renderFields() {
  const fields = entityFields();
  fill(document.querySelector('#c-fields tbody'), fields.map(fieldRow));
  fill($('c-fields-count'), String(fields.length));
  fill($('b-paths'), fields.map((f) => h('option', { value: f.path })));
  if (!fields.some((f) => f.path === $('b-path').value)) $('b-path').value = fields[0]?.path ?? '';
  renderOperators();
}

/** Operators of the field the path starts with (a sub-path of an object field takes any). */
function renderOperators() {
  const root = $('b-path').value.split('.')[0];
  const ops = entityFields().find((f) => f.path === root)?.operators ?? [];
  const current = $('b-op').value;
  fill($('b-op'), ops.map((op) => h('option', { value: op }, op)));
  if (ops.includes(current)) $('b-op').value = current;
}

async function loadFields() {
  const id = $('c-connector').value;
  state.entities = [];
  if (id) state.entities = (await api('GET', `/admin/api/connectors/${encodeURIComponent(id)}/search-fields`)).entities;
  const current = $('c-entity').value;
  fill($('c-entity'), state.entities.map((e) => h('option', { value: e.entity }, e.entity)));
  if (state.entities.some((e) => e.entity === current)) $('c-entity').value = current;
  renderFields();
}

/** Keeps the connector choices in step with the dashboard's poll, keeping the current one. */
export function updateConsoleConnectors(connectors) {
  const ids = connectors.map((c) => c.id).join();
  if (ids === state.connectors.map((c) => c.id).join()) return;
  state.connectors = connectors;
  const current = $('c-connector').value;
  fill($('c-connector'), connectors.map((c) => h('option', { value: c.id }, `${c.name} (${c.connector_type}) · org ${c.organization_id.slice(0, 8)}`)));
  if (connectors.some((c) => c.id === current)) $('c-connector').value = current;
  if ($('c-connector').value !== current) loadFields().catch(showError);
}

/** A typed value from the builder's text: JSON when it parses (numbers, true, lists), else the text. */
function builderValue(op, text) {
  const field = entityFields().find((f) => f.path === $('b-path').value);
  if (op === 'any' || op === 'in') return JSON.parse(text);
  if (field?.type === 'string' || ['like', 'fuzzy', 'keyword'].includes(op)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function addCondition() {
  hideError();
  const op = $('b-op').value;
  let condition;
  try {
    condition = { [op]: { [$('b-path').value]: builderValue(op, $('b-value').value) } };
  } catch (e) {
    return showError(new ApiError(0, 'invalid_value', `the value must be JSON for ${op} (${e.message})`, 'value'));
  }
  const current = readJson('c-filter', 'filter') ?? {};
  const keys = Object.keys(current);
  const filter = keys.length === 0 ? condition : keys.length === 1 && Array.isArray(current.and) ? { and: [...current.and, condition] } : { and: [current, condition] };
  $('c-filter').value = JSON.stringify(filter, null, 2);
}

/** A JSON input's value (undefined when empty); a parse error names the input. */
function readJson(id, name) {
  const text = $(id).value.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(0, 'invalid_json', `${name} is not valid JSON: ${e.message}`, name);
  }
}

function requestParams() {
  const filter = readJson('c-filter', 'filter');
  const sort = readJson('c-sort', 'sort');
  const fields = $('c-fields-list').value.split(',').map((f) => f.trim()).filter(Boolean);
  const query = { ...(filter === undefined || Object.keys(filter).length === 0 ? {} : { filter }), ...(sort === undefined ? {} : { sort }) };
  return { query, limit: Number($('c-limit').value || 10), ...(fields.length > 0 ? { fields } : {}) };
}

function hitRow(hit, i) {
  return h('tr', { dataset: { hitId: hit.id } }, h('td', { class: 'num' }, String(i)), h('td', {}, h('code', {}, hit.id)), h('td', { class: 'num score' }, String(hit.score)), h('td', {}, h('code', { class: 'data' }, JSON.stringify(hit.data))));
}

async function run(params, page) {
  hideError();
  const body = { entity: $('c-entity').value, action: 'search', params };
  const res = await api('POST', `/admin/api/connectors/${encodeURIComponent($('c-connector').value)}/execute`, body);
  const first = (page - 1) * (params.limit ?? 1000);
  fill(document.querySelector('#c-hits tbody'), res.hits.map((hit, i) => hitRow(hit, first + i + 1)));
  fill($('c-summary'), `page ${page} · ${res.hits.length} hits · took_ms ${res.took_ms}`, res.next_cursor === null ? ' · last page' : ' · more follow');
  $('c-summary').dataset.page = String(page);
  state.page = page;
  state.next = res.next_cursor;
  $('c-next').hidden = res.next_cursor === null;
}

function hideError() {
  $('c-error').hidden = true;
}

function showError(e) {
  // Hits of an earlier search under an error would read as this search's answer.
  fill(document.querySelector('#c-hits tbody'));
  fill($('c-summary'));
  delete $('c-summary').dataset.page;
  $('c-next').hidden = true;
  const box = $('c-error');
  fill(box.querySelector('.code'), e.code ?? 'error');
  fill(box.querySelector('.message'), e.message);
  box.querySelector('.at').hidden = !e.path;
  fill(box.querySelector('.path'), e.path ?? '');
  box.dataset.path = e.path ?? '';
  box.hidden = false;
}

export function initConsole() {
  $('c-connector').addEventListener('change', () => loadFields().catch(showError));
  $('c-entity').addEventListener('change', renderFields);
  $('b-path').addEventListener('input', renderOperators);
  $('b-add').addEventListener('click', addCondition);
  $('console-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    try {
      state.last = requestParams();
    } catch (e) {
      return showError(e);
    }
    run(state.last, 1).catch(showError);
  });
  $('c-next').addEventListener('click', () => run({ ...state.last, cursor: state.next }, state.page + 1).catch(showError));
}
