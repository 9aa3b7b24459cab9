/**
 * The Postgres backend's exact-match path really uses its indexes: `eq` on a lookup field probes
 * the `keys` GIN, `eq` on the id field the primary key. A compiled expression that drifted from
 * the indexed one would still return right answers, only by scanning: these plans catch that.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { ensureEntityIndexes } from '../../src/search/postgres/entity-indexes.js';
import { sortIndexFields } from '../../src/search/postgres/sort-index-fields.js';
import { compileSearch, PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { catalog, searchableEntities } from '../../src/connectors/catalog/index.js';
import { searchTarget } from '../../src/search/target.js';
import { createDb, type DB } from '../../src/store/db.js';
import { loadPostgres } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

const target = searchTarget('payments', 'customers');

describe('Postgres search indexes', () => {
  let db: Kysely<DB>;
  let connectorId: string;

  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 2).db;
    const records = Array.from({ length: 5000 }, (_, i) => ({ id: `cus_${i}`, doc: { id: `cus_${i}`, email: `user${i}@example.com`, name: i % 2 === 0 ? `Zoë ${i}` : `Ada ${i}`, created: 1_700_000_000 + i } }));
    await loadPostgres(db, target, records);
    connectorId = (await db.selectFrom('records').select('connector_id').executeTakeFirstOrThrow()).connector_id;
    await sql`analyze records`.execute(db);
  });
  afterAll(async () => db.destroy());

  async function plan(filter: unknown): Promise<string> {
    const query = parseSearchParams(target, { query: { filter } });
    return db.transaction().execute(async (tx) => {
      // Tiny tables make a scan cheapest; forbid it to see whether an index *can* answer.
      await sql`set local enable_seqscan = off`.execute(tx);
      const compiled = compileSearch({ target, connectorId, query, after: null, size: 10 }).compile(tx);
      const rows = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${compiled.sql.replace(/\$(\d+)/g, (_, n: string) => sql.lit(compiled.parameters[Number(n) - 1] as string).compile(tx).sql)}`).execute(tx);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('lists email, name and phone as the customers lookup fields', () => {
    expect(target.lookup).toEqual(expect.arrayContaining(['email', 'name']));
    expect(target.lookup).not.toContain('id');
  });

  it('eq and in on a lookup field use the keys GIN index', async () => {
    const p = await plan({ eq: { email: 'user7@example.com' } });
    expect(p, p).toContain('records__customers_keys_idx');
    expect(await plan({ in: { name: ['Ada 1', 'Zoë 2'] } })).toContain('records__customers_keys_idx');
  });

  it('the keys GIN has no pending list: fresh entries are in the tree, not in a list every lookup scans', async () => {
    const opts = await sql<{ o: string[] | null }>`select c.reloptions as o from pg_class c where c.relname = 'records__customers_keys_idx'`.execute(db);
    expect(opts.rows[0]?.o).toContain('fastupdate=off');
  });

  it('eq on the id field uses the primary key', async () => {
    expect(await plan({ eq: { id: 'cus_7' } })).toContain('records__customers_pkey');
  });

  it('creates an entity\'s sort indexes once when many first syncs ask at the same moment', async () => {
    // Runs of different connectors of one type start together (one job each, from the pool);
    // `create index if not exists` alone fails one of them on pg_class's unique index.
    const charges = searchTarget('payments', 'charges');
    const pool = createDb(await migratedDatabase(), 8).db;
    try {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => ensureEntityIndexes(pool, charges)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const { rows } = await sql<{ n: string }>`select count(*)::int as n from pg_indexes where tablename = 'records__charges' and indexname like 'records_sort_%'`.execute(pool);
      expect(Number(rows[0]?.n)).toBe(sortIndexFields(charges).length * 2);
      // A concurrent build that died leaves an invalid index behind: the next call rebuilds it.
      const valid = sql<{ n: number }>`select count(*)::int as n from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname like 'records_sort_%' and i.indisvalid`;
      const before = (await valid.execute(pool)).rows[0]!.n;
      await sql`update pg_index set indisvalid = false where indexrelid = (select oid from pg_class where relname like 'records_sort_%' order by relname limit 1)`.execute(pool);
      expect((await valid.execute(pool)).rows[0]!.n).toBe(before - 1);
      await ensureEntityIndexes(pool, charges);
      expect((await valid.execute(pool)).rows[0]!.n).toBe(before);
    } finally {
      await pool.destroy();
    }
  });

  it('builds the sort indexes of different entities one after another: two concurrent builds on the records table deadlock', async () => {
    // A new connector queues a first run of every entity at once, and each run ensures its
    // entity's indexes. A concurrent build blocked on the table holds a snapshot the other waits for.
    const targets = (['customers', 'charges', 'invoices', 'subscriptions'] as const).map((e) => searchTarget('payments', e)).filter((t) => sortIndexFields(t).length > 0);
    expect(targets.length).toBeGreaterThanOrEqual(2);
    const pool = createDb(await migratedDatabase(), 8).db;
    try {
      const results = await Promise.allSettled(targets.map((t) => ensureEntityIndexes(pool, t)));
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname like 'records_sort_%' and i.indisvalid`.execute(pool);
      expect(rows[0]?.n).toBe(targets.reduce((n, t) => n + sortIndexFields(t).length * 2, 0));
    } finally {
      await pool.destroy();
    }
  });

  it('a search opens its own entity\'s partition and indexes alone, however many entities have theirs', async () => {
    // Every catalog entity's sort indexes on one table cost every search 1.2-2 ms of planning: the
    // planner opens (and locks) every index of the table it plans. Per-entity partitions are pruned first.
    const pool = createDb(await migratedDatabase(), 2).db;
    try {
      await loadPostgres(pool, target, [{ id: 'cus_1', doc: { id: 'cus_1', email: 'a@example.com', name: 'Ada', created: 1_700_000_000 } }]);
      const others = Object.entries(catalog).flatMap(([type, def]) => searchableEntities(def).map((e) => searchTarget(type, e.name)));
      for (const t of others) await ensureEntityIndexes(pool, t);
      const id = (await pool.selectFrom('records').select('connector_id').executeTakeFirstOrThrow()).connector_id;
      const opened = await pool.transaction().execute(async (tx) => {
        const query = parseSearchParams(target, { query: { filter: { eq: { email: 'a@example.com' } }, sort: [{ created: 'desc' }] } });
        const hits = await new PostgresSearchBackend().search(tx, { target, connectorId: id, query, after: null, size: 10 });
        expect(hits).toHaveLength(1);
        const { rows } = await sql<{ rel: string; owner: string | null }>`
          select c.relname as rel, t.relname as owner from pg_locks l join pg_class c on c.oid = l.relation
            left join pg_index i on i.indexrelid = c.oid left join pg_class t on t.oid = i.indrelid
           where l.pid = pg_backend_pid() and l.locktype = 'relation' and c.relname like 'records%'`.execute(tx);
        return rows;
      });
      const partitions = await sql<{ n: number }>`select count(*)::int as n from pg_inherits where inhparent = 'records'::regclass`.execute(pool);
      expect(partitions.rows[0]!.n).toBeGreaterThan(50);
      // The customers partition and its own indexes, read directly: nothing of another entity's, not even the parent.
      expect(opened.filter((r) => ![r.rel, r.owner].includes('records__customers')), JSON.stringify(opened)).toEqual([]);
      // Other connector kinds' `customers` share the partition, and their sort indexes with it.
      const sorts = await sql<{ owner: string }>`select tablename as owner from pg_indexes where indexname like 'records_sort_%'`.execute(pool);
      expect(sorts.rows.length).toBeGreaterThan(100);
      const own = sorts.rows.filter((r) => r.owner === 'records__customers').map((r) => r.owner);
      expect(opened.filter((r) => r.rel.startsWith('records_sort_')).map((r) => r.owner)).toEqual(own);
    } finally {
      await pool.destroy();
    }
  });
});
