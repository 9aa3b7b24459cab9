/**
 * Right after a sync, searches are planned on statistics that know the synced rows, whatever
 * autovacuum has done: writers analyze `records` when it changed by more than a tenth, or when an
 * entity they wrote outgrew what the planner believes it holds (a small connector beside a big one).
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { compileSearch } from '../../src/search/postgres/postgres-backend.js';
import { searchTarget } from '../../src/search/target.js';
import { createDb } from '../../src/store/db.js';
import { ANALYZE_LOCK, analyzeRecordsIfStale, plannerTenantRows } from '../../src/store/table-stats.js';
import { migratedDatabase } from './helpers/fresh-db.js';
import { startHarness, type Harness } from './helpers/harness.js';

const SIZE = 8000;

/** Takes or releases the analysis lock on another connection, as another process's writer does. */
const analyzeLock = (c: pg.Client, fn: 'pg_advisory_lock' | 'pg_advisory_unlock'): Promise<unknown> => c.query(`select ${fn}(hashtextextended($1, 0))`, [ANALYZE_LOCK]);
/** Above the per-tenant minimum (500), under a tenth of the table. */
const SMALL = 600;

describe('planner statistics right after a sync', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SIZE });
  });
  afterAll(async () => h?.close());

  /** Syncs a new connector; no waiting on the stats keeper: the run's success is what a user waits for. */
  const syncOne = async (): Promise<string> => {
    const { id } = await h.createConnector(await h.token());
    const [run] = await h.runsOf(id);
    const done = await h.waitRun(run!.id);
    expect(done.status).toBe('succeeded');
    // The partition was analyzed during the run, before it said succeeded: not after, in the background.
    const { rows } = await sql<{ analyzed: Date | null }>`
      select last_analyze as analyzed from pg_stat_user_tables where relname = 'records__customers'`.execute(h.deps.db);
    const analyzed = rows[0]!.analyzed?.getTime() ?? 0;
    expect(analyzed).toBeGreaterThanOrEqual(done.started_at!.getTime());
    expect(analyzed).toBeLessThanOrEqual(done.finished_at!.getTime());
    return id;
  };

  /** The plan of an eq on the email of one of the connector's records. */
  const emailPlan = async (id: string): Promise<string> => {
    const target = searchTarget('payments', 'customers');
    const email = (await h.deps.db.selectFrom('records').select(sql<string>`data->>'email'`.as('e')).where('connector_id', '=', id).limit(1).executeTakeFirstOrThrow()).e;
    const query = parseSearchParams(target, { query: { filter: { eq: { email } } }, limit: 50 });
    const compiled = compileSearch({ target, connectorId: id, query, after: null, size: 51 }).compile(h.deps.db);
    const plan = await h.deps.pool.query(`explain (format json) ${compiled.sql}`, compiled.parameters as unknown[]);
    return JSON.stringify(plan.rows[0]);
  };

  it('the run leaves records analyzed, and an eq on a lookup email is planned on its index', async () => {
    const id = await syncOne();
    const stats = await sql<{ rows: number; changed: string }>`
      select c.reltuples::float8 as rows, s.n_mod_since_analyze::text as changed
        from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'records__customers'`.execute(h.deps.db);
    expect(stats.rows[0]!.rows).toBeGreaterThanOrEqual(SIZE * 0.9);
    const text = await emailPlan(id);
    expect(text, text).toContain('records__customers_keys_idx');
  });

  it('a small connector synced beside the big one (under a tenth of the table) is analyzed too, and planned on its index', async () => {
    // The planner knows the big connector's rows exactly: the small one's stay under the table's tenth.
    await sql`analyze records__customers`.execute(h.deps.db);
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SMALL });
    const id = await syncOne();
    // Unknown to the statistics, the planner would take its 600 rows for one and walk them all through the primary key.
    expect(await plannerTenantRows(h.deps.db, { connectorId: id, entity: 'customers' })).toBeGreaterThanOrEqual(SMALL / 2);
    const text = await emailPlan(id);
    expect(text, text).toContain('records__customers_keys_idx');
  });

  it('a run\'s end waits for another process\'s analysis instead of skipping it, then analyzes what that one did not see', async () => {
    // Another process holds the analysis lock, as a writer in the middle of an ANALYZE does.
    const other = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await other.connect();
    try {
      await analyzeLock(other, 'pg_advisory_lock');
      h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SMALL });
      const { id } = await h.createConnector(await h.token());
      const [run] = await h.runsOf(id);
      // The run's end queues for the lock; until it has it, the run is not reported done.
      // That lock's waiters only: the queue's own advisory locks must not count.
      const waiting = `select 1 from pg_locks where locktype = 'advisory' and not granted and objsubid = 1 and ((classid::int8 << 32) | objid::int8) = hashtextextended($1, 0)`;
      await vi.waitFor(async () => expect((await other.query(waiting, [ANALYZE_LOCK])).rowCount).toBe(1), { timeout: 30_000, interval: 20 });
      expect((await h.runsOf(id))[0]!.status).toBe('running');
      const released = (await other.query<{ now: Date }>(`select clock_timestamp() as now`)).rows[0]!.now;
      await analyzeLock(other, 'pg_advisory_unlock');
      expect((await h.waitRun(run!.id)).status).toBe('succeeded');
      const { rows } = await sql<{ analyzed: Date }>`select last_analyze as analyzed from pg_stat_user_tables where relname = 'records__customers'`.execute(h.deps.db);
      expect(rows[0]!.analyzed.getTime()).toBeGreaterThanOrEqual(released.getTime());
      expect(await plannerTenantRows(h.deps.db, { connectorId: id, entity: 'customers' })).toBeGreaterThanOrEqual(SMALL / 2);
    } finally {
      await other.end();
    }
  });
});

describe('the run end\'s wait for the analysis lock', () => {
  it('gives up after its bounded wait with a lock timeout, and leaves the pooled connection\'s lock timeout as it found it', async () => {
    const url = await migratedDatabase();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    // One connection: the one that waited is the one asked afterwards.
    const { db } = createDb(url, 1);
    try {
      await analyzeLock(other, 'pg_advisory_lock');
      const started = Date.now();
      await expect(analyzeRecordsIfStale(db, true, [], 300)).rejects.toMatchObject({ code: '55P03' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      const { rows } = await sql<{ lock_timeout: string }>`show lock_timeout`.execute(db);
      expect(rows[0]!.lock_timeout).toBe('0');
      // Released, the same call takes the lock at once.
      await analyzeLock(other, 'pg_advisory_unlock');
      await expect(analyzeRecordsIfStale(db, true, [], 300)).resolves.toBeNull();
    } finally {
      await other.end();
      await db.destroy();
    }
  });
});
