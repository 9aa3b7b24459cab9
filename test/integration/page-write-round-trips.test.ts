/**
 * The statements of one page write, the worker's hot path: each round trip costs the worker CPU
 * (bench/README.md, sessions 29 and 47). After the upsert, one statement waits for the write
 * before (in Postgres, where deadlocks are seen), saves the checkpoint and counts the records
 * made live; the count and the checkpoint stay as exact as when they were statements of their own.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cancelRun, triggerSync } from '../../src/app/operations.js';
import { claimRun, getRun } from '../../src/store/runs-repo.js';
import { RunNotRunning, writePage, type PageRun } from '../../src/worker/page-writer.js';
import type { LockTurn } from '../../src/worker/batch-writer.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { startHarness, type Harness } from './helpers/harness.js';

describe('statements of a page write', () => {
  let h: Harness;
  let id: string;
  beforeAll(async () => {
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 20 });
    id = (await h.createConnector(await h.token())).id;
    const [first] = await h.runsOf(id);
    expect(await executeRun(h.deps, first!.id)).toBe('succeeded');
  });
  afterAll(async () => h?.close());
  // One run of an entity at a time: each test's run ends with it.
  let current: string | null = null;
  afterEach(async () => {
    const run = current === null ? null : await getRun(h.deps.db, current);
    if (run?.status === 'running') await cancelRun(h.deps, run.id);
    current = null;
  });

  /** A full run of the connector's customers, claimed as a worker claims it. */
  const runningRun = async (): Promise<PageRun> => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, run!.id, 2, 120);
    current = run!.id;
    return { id: run!.id, connectorId: id, entity: 'customers', mode: 'full', attempt: 1, overlapWrites: true };
  };
  const records = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}_${i}`, data: { id: `${prefix}_${i}`, name: `rt ${prefix} ${i}` } }));
  const recordCount = async (): Promise<number> =>
    Number((await h.deps.db.selectFrom('entity_state').select('record_count').where('connector_id', '=', id).where('entity', '=', 'customers').executeTakeFirstOrThrow()).record_count);
  const turnAfter = (after: string | null, key: string): LockTurn => ({ before: Promise.resolve(), taken: () => undefined, key, after });

  /** The statements `write` sends to Postgres on the connection of its transaction (the first `begin`), in order. */
  const statementsOf = async <T>(write: () => Promise<T>): Promise<{ result: T; statements: string[] }> => {
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const result = await write();
      const text = (c: unknown[]): string => (typeof c[0] === 'string' ? c[0] : String((c[0] as { text?: unknown }).text ?? ''));
      const own = spy.mock.contexts[spy.mock.calls.findIndex((c) => /^begin/i.test(text(c)))];
      return { result, statements: spy.mock.calls.filter((_, i) => spy.mock.contexts[i] === own).map(text) };
    } finally {
      spy.mockRestore();
    }
  };

  it('a page of new records: begin, lock, stored hashes, upsert, one statement for run and count, commit', async () => {
    const run = await runningRun();
    const before = await recordCount();
    const { result, statements } = await statementsOf(() => writePage(h.deps.db, run, records('rt_new', 5), { partition: 0, page: { n: 1 } }));
    expect(result).toMatchObject({ seen: 5, inserted: 5 });
    expect(statements, statements.map((q) => q.trim().slice(0, 60)).join(' | ')).toHaveLength(6);
    expect(statements[0]).toMatch(/^begin/i);
    expect(statements[4]).toMatch(/update sync_runs[\s\S]*update entity_state/);
    expect(statements[5]).toMatch(/^commit/i);
    expect(await recordCount()).toBe(before + 5);
    expect(await getRun(h.deps.db, run.id)).toMatchObject({ pages: 1, seen: '5', inserted: '5', checkpoint: { page: { n: 1 } } });
  });

  it('after a write still in flight: waits for it in Postgres within the same statement, then saves its checkpoint after it', async () => {
    const run = await runningRun();
    const before = await recordCount();
    // The write before holds its key until it commits, as a page write does (lockEntity).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const holds = new Promise<void>((r) => (holding = r));
    const earlier = h.deps.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended('write/rt-earlier', 0))`.execute(tx);
      await sql`update sync_runs set checkpoint = '{"partition":0,"page":{"n":1}}'::jsonb, pages = pages + 1 where id = ${run.id}::bigint`.execute(tx);
      holding();
      await held;
    });
    await holds;
    let ended = false;
    const { result, statements } = await statementsOf(async () => {
      const later = writePage(h.deps.db, run, records('rt_later', 3), { partition: 0, page: { n: 2 } }, 1, earlier, turnAfter('rt-earlier', 'rt-later'));
      void later.finally(() => (ended = true));
      // The later write waits in Postgres for the earlier's key (a lock Postgres's deadlock detector sees).
      await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(h.deps.db)).rows[0]?.n, { timeout: 10_000 }).toBe(1);
      expect(ended).toBe(false);
      release();
      return later;
    });
    expect(result).toMatchObject({ seen: 3, inserted: 3 });
    // The later write's six statements: no statement of its own for the wait.
    expect(statements, statements.map((q) => q.trim().slice(0, 60)).join(' | ')).toHaveLength(6);
    expect(statements[4]).toMatch(/hashtextextended\(\$9::text/);
    // Its checkpoint commits after the earlier one, on top of the earlier's counters.
    expect(await getRun(h.deps.db, run.id)).toMatchObject({ pages: 2, checkpoint: { page: { n: 2 } } });
    expect(await recordCount()).toBe(before + 3);
  });

  it('a run cancelled meanwhile gains neither the page nor its count', async () => {
    const run = await runningRun();
    const before = await recordCount();
    await cancelRun(h.deps, run.id);
    await expect(writePage(h.deps.db, run, records('rt_cancelled', 4), { partition: 0, page: { n: 1 } })).rejects.toBeInstanceOf(RunNotRunning);
    expect(await recordCount()).toBe(before);
    const written = await h.deps.db.selectFrom('records').select('record_id').where('connector_id', '=', id).where('record_id', 'like', 'rt_cancelled_%').execute();
    expect(written).toEqual([]);
  });
});
