/**
 * The text indexes of the Postgres backend (trigrams for `like`, words for exact matches,
 * `keyword` and `fuzzy`): used when every record of the entity has its search text, and never at
 * the cost of a hit — records written without it (an OpenSearch deployment's, or a store from
 * before migrations 0012/0013) are still found, until a reindex gives them text and words.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reindexEntity } from '../../src/app/reindex.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { compileSearch, PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { compileCheckedSearch } from '../../src/search/postgres/compile-search.js';
import { EXACT_ONLY, planIndexes } from '../../src/search/postgres/index-plan.js';
import { searchTarget } from '../../src/search/target.js';
import { markTextIncomplete, textComplete } from '../../src/store/entity-state-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { startHarness, type Harness } from './helpers/harness.js';

const TARGET = searchTarget('payments', 'customers');

describe('the trigram pre-filter of like and keyword', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 3000 });
    token = await h.token();
  });
  afterAll(async () => h?.close());

  const search = async (id: string, filter: unknown): Promise<string[]> => {
    const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'customers', action: 'search', params: { query: { filter }, limit: 10000, fields: ['id'] } } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { hits: { id: string }[] }).hits.map((x) => x.id);
  };
  /** The same search with no index condition: the exact filter alone decides (ids and scores, in order). */
  const exactRows = async (id: string, filter: unknown): Promise<{ id: string; score: number }[]> => {
    const query = parseSearchParams(TARGET, { query: { filter }, limit: 10000 });
    const { rows } = await compileSearch({ target: TARGET, connectorId: id, query, after: null, size: 10001 }, EXACT_ONLY).execute(h.deps.db);
    return rows.map((r) => ({ id: r.record_id, score: Number(r.score) }));
  };
  const exact = async (id: string, filter: unknown): Promise<string[]> => (await exactRows(id, filter)).map((r) => r.id);
  const filters = [{ fuzzy: { name: 'hoper' } }, { like: { email: '%garcia1%' } }, { like: { description: 'escalation onb' } }, { keyword: { name: 'hopper turing' } }, { and: [{ like: { 'shipping.address.city': 'migration' } }, { eq: { currency: 'eur' } }] }, { like: { preferred_locales: 'fr' } }, { like: { 'metadata.region': 'ation-2' } }, { eq: { invoice_prefix: 'customer-525' } }, { in: { 'metadata.plan': ['pro', 'enterprise'] } }];

  it('on a synced entity: used by the plan, and the hits equal the exact filter alone', async () => {
    const { id } = await h.createConnector(token);
    const [run] = await h.runsOf(id);
    expect(await executeRun(h.deps, run!.id)).toBe('succeeded');
    expect(await textComplete(h.deps.db, id, 'customers')).toBe(true);
    for (const f of filters.slice(0, 5)) {
      const got = await search(id, f);
      expect(got, JSON.stringify(f)).toEqual(await exact(id, f));
    }
    expect((await search(id, filters[1])).length).toBeGreaterThan(0);
    const query = parseSearchParams(TARGET, { query: { filter: filters[1] }, limit: 50 });
    const req = { target: TARGET, connectorId: id, query, after: null, size: 51 };
    const compiled = compileSearch(req, (await planIndexes(h.deps.db, req)).plan).compile(h.deps.db);
    const plan = JSON.stringify((await h.deps.pool.query(`explain (format json) ${compiled.sql}`, compiled.parameters as unknown[])).rows[0]);
    expect(plan, plan).toMatch(/records__\w+_text_lc_idx/);
    // A fuzzy term expands through the vocabulary to the words the GIN then finds.
    const fuzzyQuery = parseSearchParams(TARGET, { query: { filter: filters[0] }, limit: 50 });
    const fuzzyReq = { target: TARGET, connectorId: id, query: fuzzyQuery, after: null, size: 51 };
    const fuzzyPlan = await planIndexes(h.deps.db, fuzzyReq);
    expect(fuzzyPlan.plan.words).toEqual([[['name:hopper']]]);
    const fc = compileSearch(fuzzyReq, fuzzyPlan.plan).compile(h.deps.db);
    const explained = JSON.stringify((await h.deps.pool.query(`explain (format json) ${fc.sql}`, fc.parameters as unknown[])).rows[0]);
    expect(explained, explained).toMatch(/records__\w+_words_idx/);
    // A rare exact string on a field no lookup index holds: the words GIN finds it; the document's
    // containment, left out of the planner's estimates, only rechecks the rows it returns.
    const exactReq = { target: TARGET, connectorId: id, query: parseSearchParams(TARGET, { query: { filter: filters[7] }, limit: 50 }), after: null, size: 51 };
    const ec = compileSearch(exactReq, (await planIndexes(h.deps.db, exactReq)).plan).compile(h.deps.db);
    const exactPlan = JSON.stringify((await h.deps.pool.query(`explain (format json) ${ec.sql}`, ec.parameters as unknown[])).rows[0]);
    expect(exactPlan, exactPlan).toMatch(/records__\w+_words_idx/);
  });

  it('an in of multi-word values on a non-lookup field reads only the records holding a whole value, not those holding a common word', async () => {
    const { id } = await h.createConnector(token);
    const [run] = await h.runsOf(id);
    expect(await executeRun(h.deps, run!.id)).toBe('succeeded');
    // Region values are `word-number`: pick two whose first word many other records hold too.
    const { rows: common } = await sql<{ region: string; holders: string }>`
      select min(data #>> '{metadata,region}') as region, count(*)::text as holders from records
       where connector_id = ${id}::uuid and data #>> '{metadata,region}' like '%-%'
       group by split_part(data #>> '{metadata,region}', '-', 1) order by 2 desc limit 2`.execute(h.deps.db);
    expect(common).toHaveLength(2);
    const filter = { in: { 'metadata.region': common.map((r) => r.region) } };
    const want = await exact(id, filter);
    expect(await search(id, filter)).toEqual(want);
    const query = parseSearchParams(TARGET, { query: { filter }, limit: 50 });
    const req = { target: TARGET, connectorId: id, query, after: null, size: 51 };
    const c = compileSearch(req, (await planIndexes(h.deps.db, req)).plan).compile(h.deps.db);
    const [{ 'QUERY PLAN': plan }] = (await h.deps.pool.query(`explain (analyze, format json) ${c.sql}`, c.parameters as unknown[])).rows as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
    const read = heapRowsRead(plan[0].Plan);
    // Weakened to the values' longest words (`&&`), the GIN passed every holder of a common word.
    const holders = common.reduce((n, r) => n + Number(r.holders), 0);
    expect(holders, 'the test needs common words').toBeGreaterThan(4 * want.length + 20);
    expect(read, JSON.stringify(plan)).toBeLessThanOrEqual(want.length + 2);
  });

  it('records without text (written for OpenSearch) are still found, and a reindex brings the index back', async () => {
    const { id } = await h.createConnector(token);
    const [run] = await h.runsOf(id);
    // A run of a deployment whose searches go to OpenSearch keeps no text_lc.
    const asOpenSearch = Object.create(h.deps.backend, { kind: { value: 'opensearch' } }) as typeof h.deps.backend;
    expect(await executeRun({ ...h.deps, backend: asOpenSearch }, run!.id)).toBe('succeeded');
    // ...nor any other Postgres search structure: no lookup keys, no words, no vocabulary.
    const without = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('text_lc', 'is', null).where('keys', 'is', null).where('words', 'is', null).executeTakeFirstOrThrow();
    expect(Number(without.n)).toBe(3000);
    const vocab = await sql<{ n: string }>`select count(*)::text as n from search_vocab where connector_id = ${id}::uuid`.execute(h.deps.db);
    expect(vocab.rows[0]?.n).toBe('0');
    expect(await textComplete(h.deps.db, id, 'customers')).toBe(false);
    const before = await search(id, filters[0]);
    expect(before.length).toBeGreaterThan(0);
    for (const f of filters) expect(await search(id, f), JSON.stringify(f)).toEqual(await exact(id, f));
    // A search that cannot have a top tier checks the entity's state in its own statement: here
    // the check fails before any record is read, and the search runs again on the exact SQL.
    const likeQuery = parseSearchParams(TARGET, { query: { filter: filters[1] }, limit: 50 });
    const likeReq = { target: TARGET, connectorId: id, query: likeQuery, after: null, size: 51 };
    const { plan } = await planIndexes(h.deps.db, likeReq);
    expect(plan.assumesText).toBe(true);
    const checked = compileCheckedSearch(likeReq, plan).compile(h.deps.db);
    const analyzed = (await h.deps.pool.query(`explain (analyze, format json) ${checked.sql}`, checked.parameters as unknown[])).rows[0] as unknown;
    const scans = JSON.stringify(analyzed).match(/"Relation Name":"records[^"]*"[^}]*?"Actual Loops":\d+/g) ?? [];
    expect(JSON.stringify(analyzed)).toContain('One-Time Filter');
    expect(scans.length, JSON.stringify(analyzed)).toBeGreaterThan(0);
    for (const scan of scans) expect(scan, 'no record is read when the text is incomplete').toMatch(/"Actual Loops":0$/);
    await reindexEntity(h.deps, 'payments', 'customers');
    expect(await textComplete(h.deps.db, id, 'customers')).toBe(true);
    for (const f of filters) expect(await search(id, f), JSON.stringify(f)).toEqual(await exact(id, f));
  });

  it('a small entity known small from an earlier search still answers exactly once its text is incomplete', async () => {
    const { id } = await h.createConnector(token);
    const [run] = await h.runsOf(id);
    expect(await executeRun(h.deps, run!.id)).toBe('succeeded');
    const ranked = [{ keyword: { name: 'hopper turing' } }, { fuzzy: { name: 'ada lovelase' } }];
    // The first searches read the entity's state, and remember it is small (small-entities.ts).
    for (const f of ranked) expect(await search(id, f), JSON.stringify(f)).toEqual(await exact(id, f));
    // Then its records lose their words, as rows written for OpenSearch hold none, and its state
    // says so: a search that trusted the remembered size but not the state would find nothing.
    await sql`update records set text_lc = null, words = null, keys = null where connector_id = ${id}::uuid and entity = 'customers'`.execute(h.deps.db);
    await markTextIncomplete(h.deps.db, id, 'customers');
    for (const f of ranked) {
      const want = await exact(id, f);
      expect(want.length, JSON.stringify(f)).toBeGreaterThan(0);
      expect(await search(id, f), JSON.stringify(f)).toEqual(want);
    }
  });

  it('a ranked search on a big entity tries its top tier first and pages exactly as the exact filter ranks', async () => {
    // Past 5,000 records a sole keyword/fuzzy node is first run on the records that can reach the
    // best score (index-plan.ts); smaller entities never take that path.
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 6000 });
    const { id } = await h.createConnector(token);
    const [run] = await h.runsOf(id);
    expect(await executeRun(h.deps, run!.id)).toBe('succeeded');
    // Another entity's partition holding rows at the same tuple ids, with other documents that
    // match every filter below: a candidate fetched by its tuple id must come from its own.
    await sql`select syncdex_records_partition('customers_twin')`.execute(h.deps.db);
    await sql`insert into records (connector_id, entity, record_id, data, content_hash, version, keys, text_lc, words)
              select connector_id, 'customers_twin', record_id, jsonb_build_object('name', 'Grace Hopper Ada Lovelace García Turing', 'currency', 'eur'),
                     content_hash, version, keys, text_lc, words
                from records where connector_id = ${id}::uuid and entity = 'customers'`.execute(h.deps.db);
    const backend = new PostgresSearchBackend();
    let longest = 0;
    for (const filter of [{ keyword: { name: 'grace hopper' } }, { fuzzy: { name: 'ada lovelase' } }, { keyword: { name: 'garcía turing' } }, { and: [{ fuzzy: { name: 'hoper' } }, { eq: { currency: 'eur' } }] }]) {
      const query = parseSearchParams(TARGET, { query: { filter }, limit: 50 });
      const first = { target: TARGET, connectorId: id, query, after: null, size: 51 };
      expect((await planIndexes(h.deps.db, first)).tier, JSON.stringify(filter)).not.toBeNull();
      const want = await exactRows(id, filter);
      expect(want.length, JSON.stringify(filter)).toBeGreaterThan(0);
      longest = Math.max(longest, want.length);
      const got: { id: string; score: number }[] = [];
      let after: readonly unknown[] | null = null;
      for (let page = 0; page < 400; page++) {
        const rows = await backend.search(h.deps.db, { ...first, after });
        got.push(...rows.slice(0, 50).map((r) => ({ id: r.id, score: r.score })));
        if (rows.length <= 50) break;
        after = rows[49]!.sortValues;
      }
      expect(got, JSON.stringify(filter)).toEqual(want);
    }
    // Paged past the tier: the cursor leaves the best score and the full query takes over.
    expect(longest).toBeGreaterThan(150);
  });
});

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number; 'Rows Removed by Index Recheck'?: number; Plans?: PlanNode[] };

/** Rows a plan's scans of records fetched from the heap: those returned and those its filters then removed. */
function heapRowsRead(node: PlanNode): number {
  const own = node['Relation Name']?.startsWith('records') === true ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((n, p) => n + heapRowsRead(p), 0);
}
