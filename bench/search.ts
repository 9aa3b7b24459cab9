/**
 * Search latency at scale on the Postgres backend vs a naive baseline in the same database (the
 * same documents in a plain jsonb table with no search indexes, queried with the obvious SQL and
 * OFFSET paging), and on OpenSearch (the same documents shipped as the indexer ships them), side
 * by side. Measured right after loading, as users search right after a sync: no ANALYZE that the
 * product would not run itself.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { catalog } from '../src/connectors/catalog/index.js';
import { PostgresSearchBackend } from '../src/search/postgres/postgres-backend.js';
import { runSearch } from '../src/search/search-service.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { createSearchDb, type DB } from '../src/store/db.js';
import { loadConfig } from '../src/config.js';
import { upsertPage } from '../src/store/records-repo.js';
import { lookupFields } from '../src/search/target.js';
import { withShadows } from '../src/worker/page-writer.js';
import { projectSearchable } from '../src/search/doc.js';
import { OpenSearchBackend } from '../src/search/opensearch/opensearch-backend.js';
import { searchTarget } from '../src/search/target.js';
import type { BenchOpenSearch } from './lib/opensearch.js';
import { benchDb } from './lib/stack.js';
import { cases, type Case } from './search-cases.js';
import { manyEntitiesFigures, type Probe } from './many-entities.js';
import { httpSearcher, type HttpSearcher } from './search-http.js';
import { httpFloor, statementsAlone, type CapturedStatement } from './http-floor.js';
import { statsKeeper } from '../src/store/table-stats.js';
import { rememberWords } from '../src/store/page-words.js';
import { insertConnectorRow } from '../test/conformance/postgres-page.js';
import { round, summarize, timeIt, type Figure } from './lib/stats.js';
import { backgroundMeter, stealMeter } from './lib/cpu-share.js';

const ENTITY = catalog.payments!.entities.customers!;
const TARGET = searchTarget('payments', 'customers');

export async function load(db: Kysely<DB>, connectorId: string, n: number, log: (s: string) => void): Promise<Record<string, unknown>[]> {
  const sb = new Sandbox({ defaultSize: n });
  const ds = sb.dataset('payments', 'customers');
  await sql`create table naive (id text primary key, doc jsonb not null)`.execute(db);
  const sample: Record<string, unknown>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) {
    const docs = Array.from({ length: Math.min(1000, n - i) }, (_, k) => ds.recordAt(i + k));
    if (i % 20_000 === 0) sample.push(docs[0] as Record<string, unknown>, docs[500] ?? (docs[0] as Record<string, unknown>));
    // With the lookup keys, as the worker writes them: eq on a lookup field is answered from them.
    const page = withShadows(docs.map((d) => ({ id: String(d.id), data: d })), ENTITY.searchable, lookupFields(ENTITY));
    await Promise.all([
      // As the page writer does once a page commits: later pages skip the words already written.
      upsertPage(db, connectorId, 'customers', page).then((c) => (statsKeeper(db).wrote(c.inserted + c.updated, { connectorId, entity: 'customers' }), rememberWords(connectorId, 'customers', c.words ?? []))),
      sql`insert into naive (id, doc) select p.id, p.doc from jsonb_to_recordset(${JSON.stringify(docs.map((d) => ({ id: d.id, doc: d })))}::jsonb) as p(id text, doc jsonb)`.execute(db),
    ]);
    // What the worker's page writes do: statistics follow the rows (src/store/table-stats.ts).
    statsKeeper(db).poke();
    if ((i / 1000) % 100 === 99) log(`  loaded ${i + 1000} (${Math.round((i + 1000) / ((performance.now() - t0) / 1000))} rec/s)`);
  }
  // ...and what a run's end does: the statistics keeper's check, and the entity's record count.
  await setRecordCount(db, connectorId, n);
  await statsKeeper(db).current();
  return sample;
}

/** A second, small connector's records (sandbox seed 7), to search while the big one fills the table. */
export async function loadSmall(db: Kysely<DB>, n: number): Promise<{ id: string; sample: Record<string, unknown> }> {
  const id = await insertConnectorRow(db, 'payments');
  const ds = new Sandbox({ defaultSize: n, seed: 7 }).dataset('payments', 'customers');
  const docs = Array.from({ length: n }, (_, k) => ds.recordAt(k));
  const c = await upsertPage(db, id, 'customers', withShadows(docs.map((d) => ({ id: String(d.id), data: d })), ENTITY.searchable, lookupFields(ENTITY)));
  rememberWords(id, 'customers', c.words ?? []);
  await setRecordCount(db, id, n);
  // What its run's end does (a tenant the statistics do not know yet gets analyzed).
  statsKeeper(db).wrote(c.inserted + c.updated, { connectorId: id, entity: 'customers' });
  await statsKeeper(db).current();
  return { id, sample: docs[n >> 1] as Record<string, unknown> };
}

/** The entity state a synced entity has (its live record count), as a run's end writes it. */
async function setRecordCount(db: Kysely<DB>, connectorId: string, n: number): Promise<void> {
  await sql`insert into entity_state (connector_id, entity, record_count) values (${connectorId}::uuid, 'customers', ${n})
    on conflict (connector_id, entity) do update set record_count = excluded.record_count`.execute(db);
}

/** Ships the same `n` documents into OpenSearch as the indexer would (5,000 per bulk request). */
async function loadOpenSearch(os: BenchOpenSearch, connectorId: string, n: number, log: (s: string) => void): Promise<OpenSearchBackend> {
  const backend = new OpenSearchBackend({ client: os.client, prefix: `${os.prefix}search-`, layout: { shards: 1, replicas: 0 } });
  const ds = new Sandbox({ defaultSize: n }).dataset('payments', 'customers');
  const db = undefined as unknown as Kysely<DB>; // the OpenSearch backend keeps nothing in Postgres
  const index = await backend.ensureIndex(db, TARGET);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 5000) {
    const changes = Array.from({ length: Math.min(5000, n - i) }, (_, k) => {
      const r = ds.recordAt(i + k);
      return { recordId: String(r.id), version: '1', doc: projectSearchable(TARGET.searchable, r) };
    });
    await backend.apply(db, index, connectorId, changes);
    if ((i / 5000) % 20 === 19) log(`  shipped ${i + 5000} to OpenSearch (${Math.round((i + 5000) / ((performance.now() - t0) / 1000))} docs/s)`);
  }
  await os.client.indices.refresh({ index });
  return backend;
}

/** A backend under measurement: in process, and through the HTTP API. */
/** The small connector's records into OpenSearch too. */
async function shipSmall(os: BenchOpenSearch, backend: OpenSearchBackend, connectorId: string): Promise<void> {
  const ds = new Sandbox({ defaultSize: 1000, seed: 7 }).dataset('payments', 'customers');
  const db = undefined as unknown as Kysely<DB>;
  const index = await backend.ensureIndex(db, TARGET);
  await backend.apply(db, index, connectorId, Array.from({ length: 1000 }, (_, k) => ({ recordId: String(ds.recordAt(k).id), version: '1', doc: projectSearchable(TARGET.searchable, ds.recordAt(k)) })));
  await os.client.indices.refresh({ index });
}

type Subject = { readonly label: string; readonly deps: Parameters<typeof runSearch>[0]; readonly http: HttpSearcher };
type Connector = { id: string; connectorType: string };

/** What else took the machine while a case was timed, for its note (bench/lib/cpu-share.ts). */
interface Contention {
  readonly steal: number | null;
  readonly background: number | null;
}

/** Starts the meters; the reading says what the hypervisor stole and Postgres's background work took meanwhile. */
function contention(): () => Contention {
  const steal = stealMeter();
  const background = backgroundMeter();
  return () => ({ steal: steal(), background: background() });
}

const contentionNote = (c: Contention | null): string =>
  (c?.steal == null ? '' : `; ${round(c.steal * 100, 1)} % of the machine's time stolen by the hypervisor meanwhile`) +
  (c?.background == null ? '' : `; ${round(c.background * 100, 1)} % taken by Postgres's background work (autovacuum, checkpoints)`);

function figure(group: string, name: string, target: number | null, ours: { p50: number; p95: number; p99: number }, base: { p95: number; what: string }, hits: number, seen: Contention | null = null): Figure {
  return { group, name: `${name} p95`, unit: 'ms', value: round(ours.p95), baseline: round(base.p95), ratio: round(ours.p95 / base.p95), target: target === null ? 'report' : `≤ ${target} ms`, pass: target === null ? null : ours.p95 <= target, note: `p50 ${round(ours.p50)} p99 ${round(ours.p99)}, ${hits} hits; baseline: ${base.what}${contentionNote(seen)}` };
}

/** p95 of every case on one backend, in process and over HTTP; `baseline(c)` is what it is compared with. */
async function caseFigures(subject: Subject, all: readonly Case[], connector: Connector, reps: number, baseline: (c: Case) => Promise<{ p95: number; what: string }>, log: (s: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  const group = subject.label === 'postgres' ? 'search' : `search (${subject.label})`;
  for (const c of all) {
    // A case that matches nothing measures nothing (the eq case once ran against rows without lookup keys).
    const hits = (await runSearch(subject.deps, connector, 'customers', c.params())).hits.length;
    if (hits === 0) throw new Error(`search bench case "${c.name}" matched no record on ${subject.label}`);
    const meter = contention();
    const ours = summarize(await timeIt(reps, () => runSearch(subject.deps, connector, 'customers', c.params())));
    const http = summarize((await subject.http.time(connector.id, [c.params()], reps)).ms);
    const seen = meter();
    const base = await baseline(c);
    figures.push(figure(group, c.name, c.target, ours, base, hits, seen), figure(group, `${c.name} (HTTP)`, c.target, http, base, hits, seen));
    log(`  ${subject.label} ${c.name}: p50 ${round(ours.p50)} p95 ${round(ours.p95)} ms, HTTP p95 ${round(http.p95)} ms (${base.what} p95 ${round(base.p95)} ms)${contentionNote(seen)}`);
  }
  return figures;
}

/** Every operator on a 1,000-record connector while the big one fills the table: the slowest p95, in process and over HTTP. */
async function smallConnectorFigures(subject: Subject, small: { id: string; sample: Record<string, unknown> }, reps: number, log: (s: string) => void): Promise<{ figures: Figure[]; slowestHttp: Case }> {
  const connector = { id: small.id, connectorType: 'payments' };
  const all = cases([small.sample], 1000);
  let worst = { p50: 0, p95: 0, p99: 0 };
  let worstHttp = { ...worst };
  let which = '';
  let slowestHttp = all[0] as Case;
  const meter = contention();
  for (const c of all) {
    const ours = summarize(await timeIt(reps, () => runSearch(subject.deps, connector, 'customers', c.params())));
    const http = summarize((await subject.http.time(connector.id, [c.params()], reps)).ms);
    if (ours.p95 > worst.p95) (worst = ours), (which = c.name);
    if (http.p95 > worstHttp.p95) (worstHttp = http), (slowestHttp = c);
  }
  const seen = meter();
  const group = subject.label === 'postgres' ? 'search' : `search (${subject.label})`;
  const base = { p95: Number.NaN, what: `none; slowest in process: ${which}` };
  log(`  ${subject.label} 1,000-record connector, slowest operator p95 ${round(worst.p95)} ms (${which}), HTTP ${round(worstHttp.p95)} ms (${slowestHttp.name})${contentionNote(seen)}`);
  const figures = [figure(group, 'any operator, 1,000-record connector beside the big one', 5, worst, base, 0, seen), figure(group, 'any operator, 1,000-record connector beside the big one (HTTP)', 5, worstHttp, { ...base, what: `none; slowest over HTTP: ${slowestHttp.name}` }, 0, seen)];
  return { figures, slowestHttp };
}

/**
 * Searches run, in process and through a fresh `syncdex api`, before any is timed, so the figures
 * are those of a process that has served searches: measured (bench/README, session 27), a fresh
 * API's CPU per `eq` request fell from 1.46 ms over its first 500 requests to 0.52 ms after
 * 2,500, as its code got compiled. A serving API started long before the sync it answers for.
 */
const WARM_UP_SEARCHES = 3_000;

/**
 * Warms the search code, in process and in the API, on the small connector's searches of every
 * kind: another tenant, so no page of the big one is read for it. In process it runs where the
 * load ran, whose code is the write path's, not the search's.
 */
async function warmUp(subject: Subject, small: { id: string; sample: Record<string, unknown> }): Promise<void> {
  const params = cases([small.sample], 1000).map((c) => c.params());
  const connector = { id: small.id, connectorType: 'payments' };
  for (let i = 0; i < WARM_UP_SEARCHES; i++) await runSearch(subject.deps, connector, 'customers', params[i % params.length]);
  await subject.http.time(small.id, params, WARM_UP_SEARCHES);
}

/**
 * Runs the search benchmark on `n` records on Postgres and, when `openSearch` is given, on
 * OpenSearch, whose node it starts once every Postgres figure is taken; returns its figures.
 */
export async function searchBench(n: number, reps: number, log: (s: string) => void, openSearch: (() => Promise<BenchOpenSearch | null>) | null = null): Promise<Figure[]> {
  const b = await benchDb();
  const closers: (() => Promise<void>)[] = [];
  try {
    const backend = new PostgresSearchBackend();
    await backend.ensureIndex(b.db, TARGET);
    log(`search: loading ${n} customers and a 1,000-record connector…`);
    const sample = await load(b.db, b.connectorId, n, log);
    const small = await loadSmall(b.db, 1000);
    const cursorSecret = 'bench-secret-bench-secret';
    const pgHttp = await httpSearcher(b.pg.url, { SEARCH_BACKEND: 'postgres' });
    closers.push(() => pgHttp.close());
    // Searches run on a pool made as the API makes its search pool (src/app/deps.ts).
    const searchDb = createSearchDb(b.pg.url, { statementTimeoutMs: loadConfig({}).searchTimeoutMs });
    closers.push(() => searchDb.destroy());
    const pg: Subject = { label: 'postgres', deps: { db: b.db, searchDb, backend, cursorSecret }, http: pgHttp };
    await warmUp(pg, small);
    const connector = { id: b.connectorId, connectorType: 'payments' };
    const all = cases(sample, n);
    const naive = async (c: Case) => ({ p95: summarize(await timeIt(Math.max(5, Math.floor(reps / 3)), () => c.naive(b.db))).p95, what: 'naive jsonb table' });
    const figures = await caseFigures(pg, all, connector, reps, naive, log);
    const pgP95 = new Map(figures.map((f) => [f.name, f.value]));
    const smallFigures = await smallConnectorFigures(pg, small, reps, log);
    figures.push(...smallFigures.figures, ...(await pagingFigures(pg.deps, connector, b.db, reps, log)));
    // The floor under each ≤ 5 ms HTTP figure, with that search's own answer.
    for (const c of all.filter((k) => k.target === 5)) figures.push(...(await floorFigures(b.pg.url, pg.deps, connector, c, c.name, reps, log)));
    figures.push(...(await floorFigures(b.pg.url, pg.deps, { id: small.id, connectorType: 'payments' }, smallFigures.slowestHttp, `1,000-record connector, ${smallFigures.slowestHttp.name}`, reps, log)));
    figures.push(...(await manyEntitiesFigures(b.db, pg.deps, manyEntitiesProbes(all, connector, small), reps, log)));
    const os = openSearch === null ? null : await openSearch();
    if (os !== null) {
      closers.push(() => os.close());
      log(`search: shipping ${n} customers to OpenSearch…`);
      const osBackend = await loadOpenSearch(os, b.connectorId, n, log);
      await shipSmall(os, osBackend, small.id);
      const osHttp = await httpSearcher(b.pg.url, { SEARCH_BACKEND: 'opensearch', OPENSEARCH_URL: os.service.url, OPENSEARCH_INDEX_PREFIX: `${os.prefix}search-` });
      closers.push(() => osHttp.close());
      const osSubject: Subject = { label: 'opensearch', deps: { db: b.db, backend: osBackend, cursorSecret }, http: osHttp };
      await warmUp(osSubject, small);
      const samePg = async (c: Case) => ({ p95: pgP95.get(`${c.name} p95`) ?? Number.NaN, what: 'Postgres backend' });
      figures.push(...(await caseFigures(osSubject, all, connector, reps, samePg, log)), ...(await smallConnectorFigures(osSubject, small, reps, log)).figures);
    }
    return figures;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await b.close();
  }
}

/** Searches measured again once every catalog entity has its sort indexes: the big connector's eqs, the small one's ranked ones. */
function manyEntitiesProbes(all: readonly Case[], connector: Connector, small: { id: string; sample: Record<string, unknown> }): Probe[] {
  const smallCases = cases([small.sample], 1000);
  const named = (list: readonly Case[], name: string): Case => list.find((c) => c.name === name) as Case;
  const smallConnector = { id: small.id, connectorType: 'payments' };
  return [
    { label: 'eq string', connector, c: named(all, 'eq string') },
    { label: 'eq other field, rare value (top-level)', connector, c: named(all, 'eq other field, rare value (top-level)') },
    { label: '1,000-record connector, keyword', connector: smallConnector, c: named(smallCases, 'keyword two words, ranked') },
    { label: '1,000-record connector, fuzzy AND eq sorted', connector: smallConnector, c: named(smallCases, 'fuzzy AND eq, sorted by created') },
  ];
}

/** A read of the answer's rows by primary key, as text: the least any plan of any search answering them does in Postgres. */
function answerRowsByKey(connector: Connector, ids: readonly string[]): CapturedStatement {
  return { sql: 'select record_id, data from records where connector_id = $1 and entity = $2 and record_id = any($3::text[]) and deleted_at is null', parameters: [connector.id, 'customers', [...ids]] };
}

/** The statements one search of `c` runs (after a warm-up run), as the best-case route replays them. */
async function capturedStatements(databaseUrl: string, deps: Parameters<typeof runSearch>[0], connector: Connector, c: Case): Promise<CapturedStatement[]> {
  const captured: CapturedStatement[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: (e) => void (e.level === 'query' && captured.push({ sql: e.query.sql, parameters: e.query.parameters })) });
  try {
    await runSearch({ ...deps, db, searchDb: db }, connector, 'customers', c.params());
    captured.length = 0;
    await runSearch({ ...deps, db, searchDb: db }, connector, 'customers', c.params());
    return [...captured];
  } finally {
    await db.destroy();
  }
}

/**
 * The HTTP floor (http-floor.ts) under the HTTP figure of `c`: its request body, and its own
 * answer as the response. What that execute costs on this machine before syncdex does anything;
 * and its best case, the same with the search's own statements run (documents read as text).
 * In process, beside them: those statements alone, and the least plan alone (the answer's rows
 * read by primary key), the limit under the in-process figure.
 */
async function floorFigures(databaseUrl: string, deps: Parameters<typeof runSearch>[0], connector: Connector, c: Case, label: string, reps: number, log: (s: string) => void): Promise<Figure[]> {
  const body = JSON.stringify({ entity: 'customers', action: 'search', params: c.params() });
  const answer = await runSearch(deps, connector, 'customers', c.params());
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  const statements = await capturedStatements(databaseUrl, deps, connector, c);
  const floor = summarize(await httpFloor(databaseUrl, body, Math.max(reps, 100), answer));
  const byKey = answerRowsByKey(connector, answer.hits.map((h) => h.id));
  const least = summarize(await httpFloor(databaseUrl, body, Math.max(reps, 100), answer, [byKey]));
  const best = summarize(await httpFloor(databaseUrl, body, Math.max(reps, 100), answer, statements));
  const alone = summarize(await statementsAlone(databaseUrl, statements, Math.max(reps, 100)));
  const leastAlone = summarize(await statementsAlone(databaseUrl, [byKey], Math.max(reps, 100)));
  log(`  HTTP floor (bare fastify, 2 × select 1, the answer of ${label}: ${answer.hits.length} hits, ${bytes} bytes): p50 ${round(floor.p50)} p95 ${round(floor.p95)} ms; least plan (its rows by primary key): p50 ${round(least.p50)} p95 ${round(least.p95)} ms; best case (its ${statements.length} statements, text): p50 ${round(best.p50)} p95 ${round(best.p95)} ms; those statements alone in process: p50 ${round(alone.p50)} p95 ${round(alone.p95)} ms; the least plan alone in process: p50 ${round(leastAlone.p50)} p95 ${round(leastAlone.p95)} ms`);
  const figure = (name: string, t: typeof floor, note: string): Figure => ({ group: 'search', name: `${name}, the answer of ${label} p95`, unit: 'ms', value: round(t.p95), baseline: null, ratio: null, target: 'report', pass: null, note: `p50 ${round(t.p50)} p99 ${round(t.p99)}; ${answer.hits.length} hits, ${bytes} bytes; ${note}` });
  return [
    figure('HTTP floor: bare fastify route, 2 × select 1', floor, "the execute endpoint's statements as select 1, same agent, body and answer"),
    figure(`HTTP least plan: bare fastify route, select 1 and the answer's ${answer.hits.length} rows read by primary key`, least, 'what any plan must do at least: read the rows it answers with, found without searching; same agent, body and answer'),
    figure(`HTTP best case: bare fastify route, select 1 and the search's ${statements.length} statements read as text`, best, 'no syncdex code, no document parsed or re-serialized; same agent, body and answer'),
    figure(`SQL alone: the search's ${statements.length} statements, in process, read as text`, alone, "syncdex's own statements with nothing around them: the in-process figure less its JavaScript"),
    figure(`SQL least plan alone: the answer's ${answer.hits.length} rows read by primary key, in process, read as text`, leastAlone, 'what any plan must do at least, in process with nothing around it: the limit under the in-process figure'),
  ];
}

async function pagingFigures(deps: Parameters<typeof runSearch>[0], connector: { id: string; connectorType: string }, db: Kysely<DB>, reps: number, log: (s: string) => void): Promise<Figure[]> {
  const params = { query: {}, limit: 50 };
  let cursor: string | null = null;
  for (let p = 1; p < 200; p++) cursor = (await runSearch(deps, connector, 'customers', { ...params, ...(cursor === null ? {} : { cursor }) })).next_cursor;
  const page1 = summarize(await timeIt(reps, () => runSearch(deps, connector, 'customers', params)));
  const page200 = summarize(await timeIt(reps, () => runSearch(deps, connector, 'customers', { ...params, cursor })));
  const naive200 = summarize(await timeIt(Math.max(5, Math.floor(reps / 3)), () => sql`select id, doc from naive order by id offset ${199 * 50} limit 50`.execute(db)));
  log(`  page 1 p95 ${round(page1.p95)} ms, page 200 p95 ${round(page200.p95)} ms (naive OFFSET ${round(naive200.p95)} ms)`);
  return [{ group: 'search', name: 'page 200 via cursor p95', unit: 'ms', value: round(page200.p95), baseline: round(page1.p95), ratio: round(page200.p95 / page1.p95), target: '≤ 1.5× page 1', pass: page200.p95 <= 1.5 * page1.p95, note: `naive OFFSET page 200 p95 ${round(naive200.p95)} ms` }];
}
