/**
 * Search latency at scale on the Postgres backend vs a naive baseline in the same database (the
 * same documents in a plain jsonb table with no search indexes, queried with the obvious SQL and
 * OFFSET paging), and on OpenSearch (the same documents shipped as the indexer ships them), side
 * by side. Measured right after loading, as users search right after a sync: no ANALYZE that the
 * product would not run itself.
 */
import { sql, type Kysely } from 'kysely';
import { catalog } from '../src/connectors/catalog/index.js';
import { PostgresSearchBackend } from '../src/search/postgres/postgres-backend.js';
import { runSearch } from '../src/search/search-service.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import type { DB } from '../src/store/db.js';
import { upsertPage } from '../src/store/records-repo.js';
import { lookupFields } from '../src/search/target.js';
import { withShadows } from '../src/worker/page-writer.js';
import { projectSearchable } from '../src/search/doc.js';
import { OpenSearchBackend } from '../src/search/opensearch/opensearch-backend.js';
import { searchTarget } from '../src/search/target.js';
import type { BenchOpenSearch } from './lib/opensearch.js';
import { benchDb } from './lib/stack.js';
import { round, summarize, timeIt, type Figure } from './lib/stats.js';

const ENTITY = catalog.payments!.entities.customers!;
const TARGET = searchTarget('payments', 'customers');

async function load(db: Kysely<DB>, connectorId: string, n: number, log: (s: string) => void): Promise<Record<string, unknown>[]> {
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
      upsertPage(db, connectorId, 'customers', page),
      sql`insert into naive (id, doc) select p.id, p.doc from jsonb_to_recordset(${JSON.stringify(docs.map((d) => ({ id: d.id, doc: d })))}::jsonb) as p(id text, doc jsonb)`.execute(db),
    ]);
    if ((i / 1000) % 100 === 99) log(`  loaded ${i + 1000} (${Math.round((i + 1000) / ((performance.now() - t0) / 1000))} rec/s)`);
  }
  return sample;
}

interface Case {
  readonly name: string;
  readonly target: number | null;
  readonly params: () => unknown;
  readonly naive: (db: Kysely<DB>) => Promise<unknown>;
}

function cases(sample: Record<string, unknown>[], n: number): Case[] {
  const pick = (i: number) => sample[i % sample.length] as Record<string, unknown>;
  const recent = 1_767_225_600 - Math.floor(n * 37 * 0.05);
  return [
    { name: 'eq string', target: 5, params: () => ({ query: { filter: { eq: { email: pick(1).email } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'email' = ${String(pick(1).email)} order by id limit 50`.execute(db) },
    { name: 'range + sort + limit 50', target: 20, params: () => ({ query: { filter: { gte: { created: recent } }, sort: [{ created: 'desc' }] }, limit: 50 }), naive: (db) => sql`select id, doc from naive where (doc->>'created')::bigint >= ${recent} order by (doc->>'created')::bigint desc, id limit 50`.execute(db) },
    { name: 'like substring', target: 30, params: () => ({ query: { filter: { like: { email: 'lovelace12' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'email' ilike '%lovelace12%' order by id limit 50`.execute(db) },
    // A person's name with a typo: the way an agent looks someone up.
    { name: 'fuzzy', target: 100, params: () => ({ query: { filter: { fuzzy: { name: 'ada lovelase' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where exists (select 1 from regexp_split_to_table(lower(doc->>'name'), '[^[:alnum:]]+') w where levenshtein(w, 'lovelase') <= 2) and exists (select 1 from regexp_split_to_table(lower(doc->>'name'), '[^[:alnum:]]+') w where levenshtein(w, 'ada') <= 1 or w like 'ada%') order by id limit 50`.execute(db) },
    { name: 'keyword', target: null, params: () => ({ query: { filter: { keyword: { name: 'hopper' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where lower(doc->>'name') ~ '\\mhopper\\M' order by id limit 50`.execute(db) },
    {
      name: '5-clause and/or', target: null,
      params: () => ({ query: { filter: { and: [{ eq: { currency: 'eur' } }, { or: [{ eq: { tax_exempt: 'none' } }, { like: { name: 'ada%' } }] }, { gte: { balance: 50_000 } }, { neq: { delinquent: true } }] } }, limit: 50 }),
      naive: (db) => sql`select id, doc from naive where doc->>'currency' = 'eur' and (doc->>'tax_exempt' = 'none' or doc->>'name' ilike 'ada%') and (doc->>'balance')::bigint >= 50000 and coalesce(doc->>'delinquent', '') <> 'true' order by id limit 50`.execute(db),
    },
  ];
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

type Subject = { readonly label: string; readonly deps: Parameters<typeof runSearch>[0] };

/** p95 figures of every case on one backend; `baseline(c)` is what it is compared with. */
async function caseFigures(subject: Subject, all: readonly Case[], connector: { id: string; connectorType: string }, reps: number, baseline: (c: Case) => Promise<{ p95: number; what: string }>, log: (s: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const c of all) {
    // A case that matches nothing measures nothing (the eq case once ran against rows without lookup keys).
    const hits = (await runSearch(subject.deps, connector, 'customers', c.params())).hits.length;
    if (hits === 0) throw new Error(`search bench case "${c.name}" matched no record on ${subject.label}`);
    const ours = summarize(await timeIt(reps, () => runSearch(subject.deps, connector, 'customers', c.params())));
    const base = await baseline(c);
    figures.push({ group: subject.label === 'postgres' ? 'search' : `search (${subject.label})`, name: `${c.name} p95`, unit: 'ms', value: round(ours.p95), baseline: round(base.p95), ratio: round(ours.p95 / base.p95), target: c.target === null ? 'report' : `≤ ${c.target} ms`, pass: c.target === null ? null : ours.p95 <= c.target, note: `p50 ${round(ours.p50)} p99 ${round(ours.p99)}, ${hits} hits; baseline: ${base.what}` });
    log(`  ${subject.label} ${c.name}: p50 ${round(ours.p50)} p95 ${round(ours.p95)} ms (${base.what} p95 ${round(base.p95)} ms)`);
  }
  return figures;
}

/** Runs the search benchmark on `n` records on Postgres and, when `os` is given, on OpenSearch; returns its figures. */
export async function searchBench(n: number, reps: number, log: (s: string) => void, os: BenchOpenSearch | null = null): Promise<Figure[]> {
  const b = await benchDb();
  try {
    const backend = new PostgresSearchBackend();
    await backend.ensureIndex(b.db, TARGET);
    log(`search: loading ${n} customers…`);
    const sample = await load(b.db, b.connectorId, n, log);
    const pgDeps = { db: b.db, backend, cursorSecret: 'bench-secret-bench-secret' };
    const connector = { id: b.connectorId, connectorType: 'payments' };
    const all = cases(sample, n);
    const pgP95 = new Map<string, number>();
    const naive = async (c: Case) => ({ p95: summarize(await timeIt(Math.max(5, Math.floor(reps / 3)), () => c.naive(b.db))).p95, what: 'naive jsonb table' });
    const figures = await caseFigures({ label: 'postgres', deps: pgDeps }, all, connector, reps, naive, log);
    for (const f of figures) pgP95.set(f.name, f.value);
    figures.push(...(await pagingFigures(pgDeps, connector, b.db, reps, log)));
    if (os !== null) {
      log(`search: shipping ${n} customers to OpenSearch…`);
      const osDeps = { db: b.db, backend: await loadOpenSearch(os, b.connectorId, n, log), cursorSecret: pgDeps.cursorSecret };
      const samePg = async (c: Case) => ({ p95: pgP95.get(`${c.name} p95`) ?? Number.NaN, what: 'Postgres backend' });
      figures.push(...(await caseFigures({ label: 'opensearch', deps: osDeps }, all, connector, reps, samePg, log)));
    }
    return figures;
  } finally {
    await b.close();
  }
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
