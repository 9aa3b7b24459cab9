import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { replayRun, triggerSync } from '../../src/app/operations.js';
import { expectIndexEqualsStore, expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';

const SIZE = 800; // 8 pages of 100

describe('upstream faults during a sync', () => {
  let h: Harness;
  let token: string;
  let id: string;

  beforeAll(async () => {
    h = await startHarness({ worker: true });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SIZE });
    // Faults armed before the first run: it must still succeed in one attempt.
    h.sandbox.faults.arm({ kind: 'status', status: 429, retryAfterSec: 1, count: 2, afterCalls: 2 });
    h.sandbox.faults.arm({ kind: 'status', status: 500, count: 3 });
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 300, count: 2 });
    h.sandbox.faults.arm({ kind: 'truncated', count: 1 });
    token = await h.token();
    id = (await h.createConnector(token)).id;
  });
  afterAll(async () => h?.close());

  it('429 (Retry-After), 500s, slow and truncated pages: the run succeeds, in one attempt, with exact data', async () => {
    const [run] = await h.runsOf(id);
    const final = await h.waitRun(run!.id);
    expect(final.status).toBe('succeeded');
    expect(final.attempts).toBe(1);
    expect(final.pages).toBe(SIZE / 100);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    await expectIndexEqualsStore(h, token, id, 'customers');
    expect(h.logs.join('')).toContain('upstream rate limit');
  });

  let failedRunId = '';

  it('a persistent 401 fails the run with the upstream message and keeps its checkpoint', async () => {
    h.sandbox.faults.clear();
    h.sandbox.faults.arm({ kind: 'status', status: 401, count: -1, afterCalls: 3, message: 'API key revoked by the account owner' });
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    const final = await h.waitRun(run!.id);
    failedRunId = final.id;
    expect(final.status).toBe('failed');
    expect(final.error?.message).toContain('API key revoked by the account owner');
    expect(final.error?.upstreamStatus).toBe(401);
    expect(final.attempts).toBe(1); // a 401 is not retried
    expect(final.pages).toBe(3);
    expect(final.checkpoint?.page).toMatchObject({ starting_after: expect.stringMatching(/^cus_/) });
    const state = await h.deps.db.selectFrom('entity_state').selectAll().where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state.status).toBe('error');
    expect(state.last_error).toContain('API key revoked');
  });

  it('a later retry resumes from the checkpoint, without re-reading done pages or deleting them', async () => {
    h.sandbox.faults.clear();
    const callsBefore = h.sandbox.faults.callsFor('payments', 'customers');
    const replay = await replayRun(h.deps, failedRunId);
    expect(replay.replay_of).toBe(failedRunId);
    const final = await h.waitRun(replay.id);
    expect(final.status).toBe('succeeded');
    expect(h.sandbox.faults.callsFor('payments', 'customers') - callsBefore).toBe(SIZE / 100 - 3);
    expect(Number(final.deleted)).toBe(0);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    const original = await h.deps.db.selectFrom('sync_runs').select(['status', 'error']).where('id', '=', failedRunId).executeTakeFirstOrThrow();
    expect(original.status).toBe('failed');
  });

  it('a replay from the start re-reads everything', async () => {
    const callsBefore = h.sandbox.faults.callsFor('payments', 'customers');
    const replay = await replayRun(h.deps, failedRunId, { fromStart: true });
    expect((await h.waitRun(replay.id)).status).toBe('succeeded');
    expect(h.sandbox.faults.callsFor('payments', 'customers') - callsBefore).toBe(SIZE / 100);
  });

  it('a database restart mid-run (connections terminated) is retried from the checkpoint, not failed', async () => {
    h.sandbox.faults.clear();
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 100, count: -1 });
    // Hold writes to records so a write of the run is certainly in flight when the connections die.
    const blocker = new pg.Client({ connectionString: h.env.DATABASE_URL, application_name: 'test-blocker' });
    await blocker.connect();
    try {
      const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
      await blocker.query('begin; lock table records in share mode');
      // The run's own write (a page's upsert, or the sweep after an unchanged re-read): a periodic
      // ANALYZE waits on the same lock, and killing only that one would leave the run untouched.
      const waiting = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
         where application_name = 'syncdex' and wait_event_type = 'Lock' and query ~* '(insert into|update) records'`;
      await vi.waitFor(async () => expect((await waiting.execute(h.deps.db)).rows[0]!.n).toBeGreaterThan(0), { timeout: 60_000, interval: 25 });
      // What a failover does to the app: every connection dies, one of them mid-write, the
      // queue's own (BullMQ's PostgreSQL backend, which keeps a pool of its own) included.
      const ended = await sql<{ app: string }>`select application_name as app, pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and application_name <> 'test-blocker' and pid <> pg_backend_pid()`.execute(h.deps.db);
      expect(ended.rows.map((r) => r.app)).toEqual(expect.arrayContaining(['syncdex', '']));
      await blocker.query('rollback');
      h.sandbox.faults.clear();
      const final = await h.waitRun(run!.id);
      expect(final).toMatchObject({ status: 'succeeded', error: null });
      expect(final.attempts).toBeGreaterThanOrEqual(2);
      expect(Number(final.deleted)).toBe(0);
      await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
      expect(h.logs.join('')).toContain('the database is unavailable');
    } finally {
      await blocker.end();
    }
  });
});
