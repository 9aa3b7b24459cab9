// The dashboard's entry: login, polling, filters, and confirmed actions.
import { api, ApiError, query, token } from './api.js';
import { renderChart } from './chart.js';
import { renderConnectors, renderFreshnessSummary, syncOptions } from './connectors.js';
import { initConsole, updateConsoleConnectors } from './console.js';
import { fill, h } from './dom.js';
import { renderRuns } from './runs.js';

const POLL_MS = 2000;
const SESSION_REFRESH_MS = 10 * 60 * 1000;
const $ = (id) => document.getElementById(id);
const RUNS_PAGE = 50;
// Every poll re-reads the whole range shown, so it stays bounded.
const MAX_RUNS_SHOWN = 1000;
// floor: the oldest run id the table reaches down to, once "Older runs" was used (null: newest page only).
const state = { timer: null, sessionTimer: null, busy: false, floor: null };

function notice(text, kind = 'info') {
  const el = $('notice');
  el.className = `notice ${kind}`;
  fill(el, text ?? '');
}

function showApp(loggedIn) {
  $('login').hidden = loggedIn;
  $('app').hidden = !loggedIn;
  $('logout').hidden = !loggedIn;
  $('queues-link').hidden = !loggedIn;
}

/** Asks, performs, refreshes: every button goes through here. */
async function act(question, method, path, body) {
  if (!window.confirm(question)) return;
  try {
    const res = await api(method, path, body);
    const run = res.run ?? res.runs?.[0];
    notice(run ? `Done: run #${run.id} is ${run.status}.` : 'Done.', 'ok');
  } catch (e) {
    notice(`${e.code ?? 'error'}: ${e.message}`, 'error');
  }
  await refresh();
}

function filters() {
  return { connector_id: $('f-connector').value, entity: $('f-entity').value, status: $('f-status').value };
}

/**
 * The runs from the newest down to `state.floor`, page by page along `next_cursor`: one range with
 * no gap, however many runs were queued since "Older runs" loaded the older ones.
 */
async function loadRuns() {
  const runs = [];
  let cursor;
  for (;;) {
    const page = await api('GET', `/admin/api/runs${query({ ...filters(), limit: RUNS_PAGE, cursor })}`);
    runs.push(...page.runs);
    cursor = page.next_cursor;
    const reached = state.floor === null || runs.length === 0 || Number(runs[runs.length - 1].id) <= state.floor;
    if (cursor === null || reached || runs.length >= MAX_RUNS_SHOWN) break;
  }
  if (state.floor !== null && runs.length > 0) state.floor = Number(runs[runs.length - 1].id);
  return { runs, next_cursor: cursor };
}

async function refresh() {
  if (state.busy) return;
  state.busy = true;
  try {
    const [page, { runs, next_cursor }] = await Promise.all([api('GET', '/admin/api/connectors'), loadRuns()]);
    const connectors = page.connectors;
    // One page, newest first, polled every 2 s: say so rather than pretend it is all of them.
    fill($('connectors-more'), page.next_cursor === null ? '' : `Showing the newest ${connectors.length} connectors; \`syncdex connectors list --cursor\` or the API's next_cursor pages through the rest.`);
    syncOptions($('f-connector'), connectors.map((c) => [c.id, `${c.name} (${c.connector_type})`]));
    syncOptions($('f-entity'), [...new Set(connectors.flatMap((c) => c.entities.map((e) => e.entity)))].sort().map((e) => [e, e]));
    renderConnectors($('connectors'), connectors, act);
    renderFreshnessSummary($('freshness-summary'), connectors);
    updateConsoleConnectors(connectors);
    renderRuns(document.querySelector('#runs tbody'), runs, act);
    renderChart($('chart'), runs);
    const capped = next_cursor !== null && runs.length >= MAX_RUNS_SHOWN;
    $('more').hidden = next_cursor === null || capped;
    fill($('runs-more'), capped ? `Showing the newest ${runs.length} runs; narrow the filters, or page on with \`syncdex runs --cursor\` or the API's next_cursor.` : '');
    fill($('refreshed'), `updated ${new Date().toLocaleTimeString()}`);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return logout(`${e.message}`);
    notice(`Could not refresh: ${e.message}`, 'error');
  } finally {
    state.busy = false;
  }
}

async function startSession() {
  const info = await api('POST', '/admin/api/session', {});
  fill($('backends'), `search: ${info.search_backend} · queue: ${info.queue_backend}`);
}

async function login(value) {
  token.set(value);
  try {
    await startSession();
  } catch (e) {
    const why = e instanceof ApiError && e.status === 403 ? 'this token is not an admin token' : e.message;
    return logout(`Login failed: ${why}`);
  }
  showApp(true);
  await refresh();
  state.timer = setInterval(refresh, POLL_MS);
  state.sessionTimer = setInterval(() => startSession().catch(() => undefined), SESSION_REFRESH_MS);
}

function logout(message) {
  if (token.get()) api('DELETE', '/admin/api/session').catch(() => undefined);
  token.clear();
  clearInterval(state.timer);
  clearInterval(state.sessionTimer);
  showApp(false);
  fill($('login-error'), message ?? '');
}

/**
 * A login link (`/admin#token=…`, printed by `demo --serve`): the fragment never reaches a server
 * or its logs, and it is taken out of the address bar and history at once.
 */
function tokenFromLink() {
  const m = /^#token=([^&]+)$/.exec(window.location.hash);
  if (!m) return null;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return decodeURIComponent(m[1]);
}

function init() {
  $('login-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const value = $('token').value.trim();
    $('token').value = '';
    if (value) login(value);
  });
  $('logout').addEventListener('click', () => logout());
  initConsole();
  $('filters').addEventListener('change', () => ((state.floor = null), refresh()));
  // One more page below the oldest row shown.
  $('more').addEventListener('click', () => {
    const ids = [...document.querySelectorAll('#runs tbody tr[data-run-id]')].map((tr) => Number(tr.dataset.runId));
    if (ids.length > 0) state.floor = Math.min(...ids) - 1;
    refresh();
  });
  const linked = tokenFromLink();
  if (linked) login(linked);
  else if (token.get()) login(token.get());
  else showApp(false);
}

init();
