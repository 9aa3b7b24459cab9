/**
 * A `like` page of the Postgres backend walks the tenant's records in its order (the id's, or on
 * a first page a time field's) and then walks on
 * or reads the trigram candidates left, by what its walks found (like-walk.ts): never answering
 * otherwise than the reference evaluator, and choosing the same statements whatever `ANALYZE`'s
 * sample made the planner believe. PROPERTY_SEED=n replays one run.
 */
import fc from 'fast-check';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../src/connectors/catalog/index.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import type { SearchTarget } from '../../src/search/dsl/ast.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { WALK_POLICY, type WalkPolicy } from '../../src/search/postgres/like-walk.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';
import { lookupFields, searchTarget } from '../../src/search/target.js';
import { createDb, type DB } from '../../src/store/db.js';
import { markTextIncomplete } from '../../src/store/entity-state-repo.js';
import { upsertPage } from '../../src/store/records-repo.js';
import { withShadows } from '../../src/worker/page-writer.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

const SEED = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);
const DATASETS = 40;
const QUERIES = 25;

const target: SearchTarget = { connectorType: 'conformance', entity: 'walked', idField: 'id', searchable: { id: 'string', name: 'string', rank: 'int', created: 'int', meta: 'object', tags: 'array' }, lookup: ['name'] };
// Patterns at every density: in most records, in some, in a run of neighbouring ids, in none.
const WORDS = ['garcia', 'lovelace12', 'lovelace', 'hopper', 'ada', 'zoë', 'straße', 'common'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '));

/** Every record `t<i>` sorts by its number (ids are zero-padded), and a run of them can share a word. */
const doc = (i: number, cluster: string) =>
  fc.record({ name: text.map((t) => (i % 17 < 4 ? `${t} ${cluster}` : t)), rank: fc.integer({ min: 0, max: 3 }), created: fc.integer({ min: 0, max: 5 }), meta: fc.record({ city: text }, { requiredKeys: [] }), tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }) }, { requiredKeys: ['name'] });

const pattern = fc.oneof(fc.constantFrom(...WORDS, 'runword').map((w) => `%${w}%`), fc.constantFrom('garcia%', '%lace12', 'ada lovelace%', '%hop_er%', 'GARCIA'));
const filter = fc.oneof(
  fc.tuple(fc.constantFrom('name', 'meta.city', 'tags'), pattern).map(([p, v]) => ({ like: { [p]: v } })),
  fc.tuple(pattern, fc.integer({ min: 0, max: 3 })).map(([v, r]) => ({ and: [{ like: { name: v } }, { gte: { rank: r } }] })),
);
/** In id order, or by a time field (a walked first page, then planned ones): many ties, and records without it. */
const sort = fc.constantFrom(undefined, [{ created: 'desc' }], [{ created: 'asc' }]);
/** Short walks and both leanings of the cost ratio, so that small data reaches every step. */
const policy = fc.record({ firstRows: fc.integer({ min: 1, max: 6 }), plannedWhenSmall: fc.constant(false), rowCost: fc.constantFrom(1, 10), candidateCost: fc.constantFrom(0.1, 1, 10) });

type Rec = { id: string; doc: Record<string, unknown> };

describe('like pages walked, then walked on or read from their candidates', () => {
  let db: Kysely<DB>;
  let cases = 0;
  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 2).db;
  });
  afterAll(async () => {
    await db?.destroy();
    expect(cases).toBeGreaterThanOrEqual(1000);
  });

  const write = (connectorId: string, t: SearchTarget, recs: readonly Rec[]) => upsertPage(db, connectorId, t.entity, withShadows(recs.map((r) => ({ id: r.id, data: r.doc })), t.searchable, t.lookup));

  /** Every page of a search, by cursor. */
  async function pages(backend: PostgresSearchBackend, t: SearchTarget, connectorId: string, params: unknown): Promise<string[]> {
    const query = parseSearchParams(t, params);
    const ids: string[] = [];
    let after: readonly unknown[] | null = null;
    for (let n = 0; n < 1000; n++) {
      const rows = await backend.search(db, { target: t, connectorId, query, after, size: query.limit + 1 });
      ids.push(...rows.slice(0, query.limit).map((r) => r.id));
      if (rows.length <= query.limit) return ids;
      after = rows[query.limit - 1]!.sortValues;
    }
    throw new Error('more than 1,000 pages');
  }

  it(`= the reference evaluator, ${DATASETS} datasets with deletes and updates × ${QUERIES} paged like searches (seed ${SEED})`, async () => {
    const data = fc.integer({ min: 5, max: 60 }).chain((n) =>
      fc.tuple(fc.tuple(...Array.from({ length: n }, (_, i) => doc(i, 'runword'))), fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 10 }), policy),
    );
    const query = fc.record({ filter, sort, limit: fc.integer({ min: 1, max: 8 }) });
    await fc.assert(
      fc.asyncProperty(data, fc.array(query, { minLength: QUERIES, maxLength: QUERIES }), async ([docs, changes, walk], queries) => {
        const connectorId = await insertConnectorRow(db, target.connectorType);
        const id = (i: number) => `t${String(i).padStart(3, '0')}`;
        const live = new Map<string, Rec>(docs.map((d, i) => [id(i), { id: id(i), doc: { id: id(i), ...d } }]));
        await write(connectorId, target, [...live.values()]);
        // After indexing: tombstones (still in the table, with their text) and rewritten records.
        for (const [n, drop] of changes) {
          const rid = id(n % docs.length);
          if (drop) {
            live.delete(rid);
            await sql`update records set deleted_at = now() where connector_id = ${connectorId}::uuid and record_id = ${rid}`.execute(db);
          } else if (live.has(rid)) {
            const next = { id: rid, doc: { id: rid, name: 'garcia runword', rank: 3 } };
            live.set(rid, next);
            await write(connectorId, target, [next]);
          }
        }
        const backend = new PostgresSearchBackend({}, walk);
        for (const q of queries) {
          const params = { query: { filter: q.filter, ...(q.sort === undefined ? {} : { sort: q.sort }) }, limit: q.limit };
          const expected = evaluateSearch(target, parseSearchParams(target, params), [...live.values()]).map((h) => h.id);
          cases++;
          expect(await pages(backend, target, connectorId, params), JSON.stringify({ params, walk })).toEqual(expected);
        }
      }),
      { numRuns: DATASETS, seed: SEED, verbose: 1 },
    );
  }, 600_000);

  describe('on 3,000 customers', () => {
    const customers = searchTarget('payments', 'customers');
    const entity = catalog.payments!.entities.customers!;
    let connectorId: string;
    const statements: CompiledQuery[] = [];
    // Every statement a search sends, in order (the backend takes any kysely handle).
    const traced = new Proxy({} as Kysely<DB>, {
      get(_, key) {
        if (key === 'executeQuery') return (c: CompiledQuery) => (statements.push(c), db.executeQuery(c));
        const v = Reflect.get(db, key) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(db) : v;
      },
    });
    const WALKING: WalkPolicy = { ...WALK_POLICY, firstRows: 200, plannedWhenSmall: false };

    beforeAll(async () => {
      connectorId = await insertConnectorRow(db, 'payments');
      await new PostgresSearchBackend().ensureIndex(db, customers);
      const ds = new Sandbox({ defaultSize: 3000 }).dataset('payments', 'customers');
      const docs = Array.from({ length: 3000 }, (_, k) => ds.recordAt(k));
      for (let i = 0; i < docs.length; i += 500) {
        await upsertPage(db, connectorId, 'customers', withShadows(docs.slice(i, i + 500).map((d) => ({ id: String(d.id), data: d })), entity.searchable, lookupFields(entity)));
      }
      // The state a synced entity has: its record count, and its text complete.
      await sql`insert into entity_state (connector_id, entity, record_count) values (${connectorId}::uuid, 'customers', 3000)`.execute(db);
    });

    /** The statements of one first page: `walk` for each walk, `candidates` for the read of the candidates left. */
    async function steps(filter: unknown, sort?: unknown): Promise<string[]> {
      statements.length = 0;
      const query = parseSearchParams(customers, { query: { filter, ...(sort === undefined ? {} : { sort }) }, limit: 50 });
      await new PostgresSearchBackend({}, WALKING).search(traced, { target: customers, connectorId, query, after: null, size: 51 });
      return statements.map((c) => c.sql).filter((s) => /records__customers/.test(s)).map((s) => (/row_number\(\) over/.test(s) ? 'walk' : /offset 0/.test(s) ? 'candidates' : 'other'));
    }

    /** The JSON plan of the last search's first walk; `options` go before `format json`. */
    const walkPlan = async (options: string): Promise<unknown[]> => {
      const walk = statements.find((c) => /row_number\(\) over/.test(c.sql))!;
      return (await db.executeQuery(CompiledQuery.raw(`explain (${options}format json) ${walk.sql}`, [...walk.parameters]))).rows;
    };

    it('a common pattern fills its page in one walk; a rare one reads its candidates after it; neither follows the statistics', async () => {
      const rare = { like: { email: 'lovelace12' } };
      const common = { like: { email: '%.com' } };
      const seen: string[][][] = [];
      for (const target of [1, 1000]) {
        await sql.raw(`alter table records alter column text_lc set statistics ${target}`).execute(db);
        await sql`analyze records`.execute(db);
        seen.push([await steps(common), await steps(rare)]);
      }
      await sql`alter table records alter column text_lc set statistics -1`.execute(db);
      expect(seen[0]).toEqual([['walk'], ['walk', 'candidates']]);
      expect(seen[1]).toEqual(seen[0]);
    });

    it('the candidates left are read through the trigram index, after the walk', async () => {
      expect(await steps({ like: { email: 'lovelace12' } })).toEqual(['walk', 'candidates']);
      const last = statements.at(-1)!;
      expect(last.sql).toMatch(/"t"\."record_id" > \$\d+::text collate "C"/);
      const plan = JSON.stringify((await db.executeQuery(CompiledQuery.raw(`explain (format json) ${last.sql}`, [...last.parameters]))).rows);
      expect(plan, plan).toMatch(/records__customers_connector_id_text_lc_idx/);
    });

    it('a first page sorted by a time field walks its sort index, whatever the statistics', async () => {
      const sort = [{ created: 'desc' }];
      const seen: string[][][] = [];
      for (const target of [1, 1000]) {
        await sql.raw(`alter table records alter column text_lc set statistics ${target}`).execute(db);
        await sql`analyze records`.execute(db);
        seen.push([await steps({ like: { email: '%.com' } }, sort), await steps({ like: { email: 'lovelace12' } }, sort)]);
      }
      await sql`alter table records alter column text_lc set statistics -1`.execute(db);
      expect(seen[0]).toEqual([['walk'], ['walk', 'candidates']]);
      expect(seen[1]).toEqual(seen[0]);
      await steps({ like: { email: '%.com' } }, sort);
      const plan = JSON.stringify(await walkPlan(''));
      expect(plan, plan).toMatch(/records_sort_/);
      expect(plan, plan).not.toMatch(/"Sort Key": \["\(COALESCE/);
    });

    it("a walk stops reading once its page is full, in id order and in a time field's", async () => {
      for (const sort of [undefined, [{ created: 'desc' }]]) {
        await steps({ like: { email: '%.com' } }, sort);
        const [{ 'QUERY PLAN': plan }] = (await walkPlan('analyze, ')) as [{ 'QUERY PLAN': unknown }];
        const scans: number[] = [];
        const visit = (node: { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows': number; Plans?: unknown[] }): void => {
          if (node['Relation Name'] === 'records__customers') scans.push(node['Actual Rows']);
          for (const child of node.Plans ?? []) visit(child as typeof node);
        };
        visit((plan as [{ Plan: Parameters<typeof visit>[0] }])[0].Plan);
        // Most emails end so: the page's 51 matches come within the first records of the budget of 200.
        expect(scans, JSON.stringify(sort)).toHaveLength(1);
        expect(scans[0], JSON.stringify(sort)).toBeLessThan(WALKING.firstRows);
      }
    });

    it('with the text incomplete, the walk decides by the exact filter alone', async () => {
      const filter = { like: { email: '%garcia%' } };
      const walker = new PostgresSearchBackend({}, WALKING);
      const before = await pages(walker, customers, connectorId, { query: { filter }, limit: 50 });
      expect(before.length).toBeGreaterThan(50);
      await sql`update records set text_lc = null where connector_id = ${connectorId}::uuid and entity = 'customers'`.execute(db);
      await markTextIncomplete(db, connectorId, 'customers');
      expect(await pages(walker, customers, connectorId, { query: { filter }, limit: 50 })).toEqual(before);
    });
  });
});
