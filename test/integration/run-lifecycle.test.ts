/**
 * A run's life around the edges: heartbeats while it waits, runs nobody executes any more, a
 * pause that lands between queueing and starting, and operator actions refused while a run is
 * in flight. No worker runs here: each test executes runs itself, so it controls the timing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cancelRun, pauseConnector, replayRun, resetEntity, resumeConnector, resyncEntity, triggerSync } from '../../src/app/operations.js';
import { liveHashes } from '../../src/store/records-repo.js';
import { claimRun, getRun, lockOwnedRun } from '../../src/store/runs-repo.js';
import type { Job } from 'bullmq';
import { scheduleProcessor } from '../../src/worker/schedule-processor.js';
import { SCHEDULE_QUEUE, type ScheduleJob } from '../../src/worker/schedules.js';
import { SYNC_QUEUE, type SyncJob } from '../../src/worker/jobs.js';
import { ENQUEUE_TIMEOUT_MS } from '../../src/worker/request-sync.js';
import { failRun } from '../../src/worker/run-failure.js';
import type { ConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { AppError } from '../../src/errors.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { writePage } from '../../src/worker/page-writer.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { failIfStalled } from './helpers/stall-watchdog.js';

describe('run lifecycle edges', () => {
  let h: Harness;
  let id: string;

  const settle = async (runId: string) => {
    expect(await executeRun(h.deps, runId)).toBe('succeeded');
  };

  /** A full run that read one page (seen-set and checkpoint), then failed; its id. */
  const failedFullRunWithCheckpoint = async (opts: { withoutFence?: boolean } = {}): Promise<string> => {
    const [failed] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, failed!.id, 2, 120);
    // A page write reads the hashes of the ids it saw, adding them to the run's seen-set.
    await liveHashes(h.deps.db, id, 'customers', ['cus_x'], failed!.id);
    const fence = opts.withoutFence === true ? sql`null` : sql`seen_fence`;
    await sql`update sync_runs set seen_fence = ${fence}, checkpoint = '{"partition":0,"page":{"starting_after":"cus_x"}}'::jsonb where id = ${failed!.id}::bigint`.execute(h.deps.db);
    await failRun(h.deps, { id: failed!.id, connectorId: id, entity: 'customers' }, new Error('upstream 500s'));
    return failed!.id;
  };

  /** Replaying `runId` ignores its checkpoint, and every sandbox record ends up live. */
  const expectReplayStartsOver = async (runId: string): Promise<void> => {
    const replay = await replayRun(h.deps, runId);
    expect(replay.checkpoint).toBeNull();
    await settle(replay.id);
    const live = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    expect(Number(live.n)).toBe(300);
  };

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 300 });
    id = (await h.createConnector(await h.token())).id;
    const [first] = await h.runsOf(id);
    await settle(first!.id);
  });
  afterAll(async () => h?.close());

  it('keeps beating while it waits out a 429, so it never looks dead between pages', async () => {
    h.sandbox.faults.arm({ kind: 'status', status: 429, retryAfterSec: 2, count: 1, afterCalls: 1 });
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    const done = executeRun({ ...h.deps, staleRunSec: 1 }, run!.id);
    let first: number | null = null;
    let beatsDuringWait = 0;
    // Until the run ends, however slow the machine.
    for (;;) {
      const r = await getRun(h.deps.db, run!.id);
      if (r === null || ['succeeded', 'failed', 'cancelled'].includes(r.status)) break;
      if (r.pages === 1 && r.heartbeat_at !== null) {
        const at = r.heartbeat_at.getTime();
        if (first === null) first = at;
        else if (at > first) beatsDuringWait++;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await done).toBe('succeeded');
    h.sandbox.faults.clear();
    expect(beatsDuringWait).toBeGreaterThan(0);
  });

  /** Makes a run look silent for 11 minutes: running without a beat, or queued that long. */
  const silence = (runId: string, status: 'running' | 'queued') =>
    status === 'running'
      ? sql`update sync_runs set status = 'running', heartbeat_at = now() - interval '11 minutes' where id = ${runId}::bigint`.execute(h.deps.db)
      : sql`update sync_runs set queued_at = now() - interval '11 minutes' where id = ${runId}::bigint`.execute(h.deps.db);

  // Running: its worker died long ago. Queued: its last attempt could not record the failure, or Redis lost its data.
  it.each(['running', 'queued'] as const)('fails a %s run silent for 11 minutes whose job the queue lost, so the entity can sync again', async (status) => {
    const [stuck] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await (await h.deps.syncQueue.getJob(stuck!.job_id!))?.remove();
    await silence(stuck!.id, status);
    const [next] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    const reaped = await getRun(h.deps.db, stuck!.id);
    expect(reaped).toMatchObject({ status: 'failed', error: { code: 'unavailable' } });
    expect(reaped?.error?.message).toMatch(/^abandoned: .*job is gone/);
    // Until the next run starts, the entity says what happened rather than `updating`.
    const state = await h.deps.db.selectFrom('entity_state').select(['status', 'last_error']).where('connector_id', '=', id).where('entity', '=', 'customers').executeTakeFirstOrThrow();
    expect(state).toMatchObject({ status: 'error', last_error: expect.stringMatching(/^abandoned: /) });
    await settle(next!.id);
  });

  // Running: redelivered after a crash and waiting at the run limit with the dead execution's old beat. Queued: a backlog.
  it.each(['running', 'queued'] as const)('keeps a %s run silent for 11 minutes whose job the queue will still deliver', async (status) => {
    const [waiting] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await silence(waiting!.id, status);
    await expect(triggerSync(h.deps, id, { entity: 'customers', mode: 'full' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await getRun(h.deps.db, waiting!.id)).toMatchObject({ status });
    await sql`update sync_runs set status = 'queued' where id = ${waiting!.id}::bigint`.execute(h.deps.db);
    await settle(waiting!.id);
  });

  it('a live run is not reaped: a second trigger is still a conflict', async () => {
    const [live] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await sql`update sync_runs set status = 'running', heartbeat_at = now() where id = ${live!.id}::bigint`.execute(h.deps.db);
    await expect(triggerSync(h.deps, id, { entity: 'customers', mode: 'full' })).rejects.toMatchObject({ code: 'conflict' });
    await sql`update sync_runs set status = 'queued' where id = ${live!.id}::bigint`.execute(h.deps.db);
    await settle(live!.id);
  });

  it('refuses reset and resync while a run is active, before changing anything', async () => {
    const before = await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).executeTakeFirstOrThrow();
    const live = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    const [active] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'incremental' });
    await expect(resetEntity(h.deps, id, 'customers')).rejects.toMatchObject({ code: 'conflict', path: 'entity' });
    await expect(resyncEntity(h.deps, id, 'customers')).rejects.toMatchObject({ code: 'conflict', path: 'entity' });
    const after = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    expect(after.n).toBe(live.n);
    expect(Number(live.n)).toBe(300);
    expect((await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).executeTakeFirstOrThrow()).sync_cursor).toEqual(before.sync_cursor);
    await settle(active!.id);
  });

  it('a sync requested while a reset is in flight rolls the reset back whole: no run reads a cursor over tombstoned records', async () => {
    const cursorBefore = (await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).executeTakeFirstOrThrow()).sync_cursor;
    const resetWaits = async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'update records set deleted_at%'`.execute(h.deps.db);
      return (rows[0]?.n ?? 0) > 0;
    };
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // A row lock on one record holds the reset's tombstoning in flight.
    const blocker = h.deps.db.transaction().execute(async (tx) => {
      await sql`select 1 from records where connector_id = ${id}::uuid and entity = 'customers' limit 1 for update`.execute(tx);
      locked();
      await released;
    });
    await isLocked;
    const reset = resetEntity(h.deps, id, 'customers');
    reset.catch(() => undefined);
    for (let i = 0; i < 200 && !(await resetWaits()); i++) await new Promise((r) => setTimeout(r, 25));
    // A schedule tick or a trigger reads the cursor the reset is about to forget.
    const [tick] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'incremental' });
    release();
    await blocker;
    await expect(reset).rejects.toMatchObject({ code: 'conflict', path: 'entity' });
    // Nothing of the reset stands: every record live, the cursor the tick's run reads still true.
    const live = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    expect(Number(live.n)).toBe(300);
    expect((await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).executeTakeFirstOrThrow()).sync_cursor).toEqual(cursorBefore);
    await settle(tick!.id);
    // With the tick's run done, the reset goes through.
    const { run } = await resetEntity(h.deps, id, 'customers');
    expect(run.mode).toBe('full');
    await settle(run.id);
  });

  it('never moves a saved cursor back: a run ending with an older one (a replay of an old checkpoint) keeps the newer', async () => {
    const ahead = Math.floor(Date.now() / 1000) + 86_400;
    await sql`update entity_state set sync_cursor = ${JSON.stringify(ahead)}::jsonb where connector_id = ${id}::uuid and entity = 'customers'`.execute(h.deps.db);
    // A full run reads everything; the newest `created` it sees is long before `ahead`.
    const [full] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await settle(full!.id);
    const state = await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).where('entity', '=', 'customers').executeTakeFirstOrThrow();
    expect(state.sync_cursor).toBe(ahead);
    // A resync still forgets it outright.
    const again = await resyncEntity(h.deps, id, 'customers');
    expect((await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).executeTakeFirstOrThrow()).sync_cursor).toBeNull();
    await settle(again.id);
  });

  it('logs a queue connection lost to a database restart as one structured line, not a raw dump', async () => {
    await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' }).then(([r]) => settle(r!.id));
    const raw = vi.spyOn(console, 'error');
    try {
      // The queue has a connection open now (idle ones close after a while), then every other
      // connection dies, that one included; each termination is waited for (up to 10 s).
      await h.deps.syncQueue.getJobCounts();
      await sql`select pg_terminate_backend(pid, 10000) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid() and datname = current_database()`.execute(h.deps.db);
      await vi.waitFor(() => expect(h.logs.join('')).toContain('queue connection error'), { timeout: 15_000, interval: 50 });
      expect(raw).not.toHaveBeenCalled();
    } finally {
      raw.mockRestore();
    }
    // The queue reconnects: the entity still syncs.
    const [again] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await settle(again!.id);
  });

  it('a schedule tick prunes runs finished before the retention period, keeping the latest', async () => {
    const finished = await h.deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', id).where('finished_at', 'is not', null).orderBy('id').execute();
    expect(finished.length).toBeGreaterThan(3);
    await sql`update sync_runs set finished_at = now() - interval '40 days' where connector_id = ${id}::uuid and finished_at is not null`.execute(h.deps.db);
    const tick = scheduleProcessor(h.deps);
    await tick({ data: { connectorId: id } } as Job<ScheduleJob>);
    const left = await h.deps.db.selectFrom('sync_runs').select(['id', 'status']).where('connector_id', '=', id).orderBy('id').execute();
    // The latest finished run stays (the entity's last outcome), plus the run this tick queued.
    expect(left.map((r) => r.id)).toEqual([finished[finished.length - 1]!.id, expect.any(String)]);
    expect(left[1]?.status).toBe('queued');
    await settle(left[1]!.id);
  });

  it('a run cancelled right after its claim is no longer owned: the execution stops before marking the entity updating', async () => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    const claim = await claimRun(h.deps.db, run!.id, 2, 120);
    expect(claim.kind).toBe('started');
    const attempt = claim.kind === 'started' ? claim.run.attempts : -1;
    expect(await lockOwnedRun(h.deps.db, run!.id, attempt)).toBe(true);
    await cancelRun(h.deps, run!.id);
    expect(await lockOwnedRun(h.deps.db, run!.id, attempt)).toBe(false);
    const state = await h.deps.db.selectFrom('entity_state').select('status').where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state.status).toBe('ready');
  });

  it('a superseded execution cannot fail the live attempt of its run', async () => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, run!.id, 2, 120);
    // The job was redelivered (lock lapsed): attempt 2 now owns the run.
    await claimRun(h.deps.db, run!.id, 2, 120);
    const ref = { id: run!.id, connectorId: id, entity: 'customers' };
    await failRun(h.deps, { ...ref, attempt: 1 }, new Error('stale execution hit a 400'));
    expect(await getRun(h.deps.db, run!.id)).toMatchObject({ status: 'running', attempts: 2 });
    await failRun(h.deps, { ...ref, attempt: 2 }, new Error('live execution failed'));
    expect(await getRun(h.deps.db, run!.id)).toMatchObject({ status: 'failed', error: { detail: 'live execution failed' } });
  });

  it('an internal fault fails the run with its text for operators, and tells the tenant only that it was internal', async () => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, run!.id, 2, 120);
    await failRun(h.deps, { id: run!.id, connectorId: id, entity: 'customers' }, new Error('connect ECONNREFUSED 10.0.4.17:5432'));
    expect((await getRun(h.deps.db, run!.id))?.error).toMatchObject({ code: 'internal', message: 'internal error', detail: 'connect ECONNREFUSED 10.0.4.17:5432' });
    const state = await h.deps.db.selectFrom('entity_state').select('last_error').where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state.last_error).toBe('internal error; operators see the details in the run');
    await settle((await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' }))[0]!.id);
  });

  it('a reset drops the seen-sets of earlier failed full runs: replaying one starts over instead of resuming', async () => {
    const failed = await failedFullRunWithCheckpoint();
    const { run: resetRun } = await resetEntity(h.deps, id, 'customers');
    expect((await getRun(h.deps.db, failed))?.seen_dropped_at).not.toBeNull();
    await settle(resetRun.id);
    await expectReplayStartsOver(failed);
  });

  it('replaying a full run that started before seen fences existed starts over instead of resuming', async () => {
    // Claimed before migration 0004: no fence. Resuming would fence at the replay's own start and
    // judge records stored since, in the partitions before the checkpoint it never reads again.
    const failed = await failedFullRunWithCheckpoint({ withoutFence: true });
    await expectReplayStartsOver(failed);
  });

  it('overlapping page writes take the entity lock in page order: an exclusive request between them cannot deadlock them', async () => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, run!.id, 2, 120);
    const pageRun = { id: run!.id, connectorId: id, entity: 'customers', mode: 'full' as const, attempt: 1, overlapWrites: true };
    const recs = (p: string) => Array.from({ length: 3 }, (_, i) => ({ id: `lock_${p}_${i}`, data: { id: `lock_${p}_${i}` } }));
    let aLocked!: () => void;
    const aTurn = new Promise<void>((r) => (aLocked = r));
    let aDone!: (v: Promise<unknown>) => void;
    const aWrite = new Promise<unknown>((r) => (aDone = r));
    // The later page's write starts first (its connection was ready sooner).
    const b = writePage(h.deps.db, pageRun, recs('b'), { partition: 0, page: { n: 2 } }, 1, aWrite, { before: aTurn, taken: () => undefined, key: 'lock-b', after: 'lock-a' });
    await new Promise((r) => setTimeout(r, 100));
    // An operator's reset asks for the entity exclusively in between.
    const x = h.deps.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${id}/customers`}, 0))`.execute(tx);
    });
    await new Promise((r) => setTimeout(r, 100));
    const a = writePage(h.deps.db, pageRun, recs('a'), { partition: 0, page: { n: 1 } }, 1, Promise.resolve(), { before: Promise.resolve(), taken: aLocked, key: 'lock-a', after: null });
    aDone(a);
    await failIfStalled(Promise.all([a, b, x]), {
      ms: 30_000,
      db: h.deps.db,
      terminate: sql`select pg_terminate_backend(pid) from pg_locks
        where locktype = 'advisory' and pid <> pg_backend_pid() and database = (select oid from pg_database where datname = current_database())`,
      stalled: 'page writes deadlocked behind the exclusive request',
    });
    expect((await getRun(h.deps.db, run!.id))?.checkpoint).toMatchObject({ page: { n: 2 } });
    await cancelRun(h.deps, run!.id);
  });

  it('ends a transaction left idle for 10 minutes, so a wait Postgres cannot see never holds locks forever', async () => {
    const { rows } = await sql<{ v: string }>`select current_setting('idle_in_transaction_session_timeout') as v`.execute(h.deps.db);
    expect(rows[0]?.v).toBe('10min');
  });

  it('a reset whose run the queue does not take leaves its entity in error, saying so, not ready with no records', async () => {
    const down = h.deps.queues.queue<SyncJob>(SYNC_QUEUE);
    await down.close();
    const started = Date.now();
    await expect(resetEntity({ ...h.deps, syncQueue: down }, id, 'customers')).rejects.toMatchObject({ code: 'unavailable', retryable: true });
    // Bounded: a queue that does not answer must not hang the operator's request.
    expect(Date.now() - started).toBeLessThan(ENQUEUE_TIMEOUT_MS + 5_000);
    const state = await h.deps.db.selectFrom('entity_state').selectAll().where('connector_id', '=', id).where('entity', '=', 'customers').executeTakeFirstOrThrow();
    expect(state).toMatchObject({ status: 'error', record_count: '0', last_error: expect.stringContaining('could not be queued') });
    const failed = (await h.runsOf(id)).at(-1);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'unavailable', detail: expect.stringContaining('did not answer') } });
    // Triggering again is the way out: the full run brings every record back and the entity is ready.
    const [again] = await triggerSync(h.deps, id, { entity: 'customers' });
    expect(again!.mode).toBe('full');
    await settle(again!.id);
    const healed = await h.deps.db.selectFrom('entity_state').selectAll().where('connector_id', '=', id).where('entity', '=', 'customers').executeTakeFirstOrThrow();
    expect(healed).toMatchObject({ status: 'ready', record_count: '300', last_error: null });
  });

  it('pauses whole even when the schedule queue does not answer: runs cancelled, entities paused, in bounded time', async () => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, run!.id, 2, 120);
    const down = h.deps.queues.queue<ScheduleJob>(SCHEDULE_QUEUE);
    await down.close();
    const started = Date.now();
    await pauseConnector({ ...h.deps, scheduleQueue: down }, id);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await getRun(h.deps.db, run!.id)).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    const state = await h.deps.db.selectFrom('entity_state').select('status').where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state.status).toBe('paused');
    // The running execution's next page rolls back: its run is no longer running.
    await expect(executeRun(h.deps, run!.id)).resolves.not.toBe('succeeded');
    await resumeConnector(h.deps, id);
    const resumed = await h.deps.db.selectFrom('entity_state').select('status').where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(resumed.status).toBe('ready');
    const queued = (await h.runsOf(id)).at(-1);
    expect(queued).toMatchObject({ status: 'queued', trigger: 'schedule' });
    await settle(queued!.id);
  });

  it('a reset whose run a pause cancelled is synced again on resume, not left ready with no records', async () => {
    const { run } = await resetEntity(h.deps, id, 'customers');
    await pauseConnector(h.deps, id);
    expect(await getRun(h.deps.db, run.id)).toMatchObject({ status: 'cancelled' });
    await resumeConnector(h.deps, id);
    const again = (await h.runsOf(id)).at(-1);
    // The reset forgot the cursor: the run the resume queued is a full one.
    expect(again).toMatchObject({ status: 'queued', trigger: 'schedule', mode: 'full' });
    await settle(again!.id);
    const state = await h.deps.db.selectFrom('entity_state').selectAll().where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state).toMatchObject({ status: 'ready', record_count: '300' });
  });

  it('an entity whose last run failed still says error after a cancel, and after a pause and resume', async () => {
    const [failing] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, failing!.id, 2, 120);
    await failRun(h.deps, { id: failing!.id, connectorId: id, entity: 'customers' }, new AppError('upstream_error', 'HTTP 401: bad key', { upstreamStatus: 401 }));
    const status = async () => (await h.deps.db.selectFrom('entity_state').select(['status', 'last_error']).where('connector_id', '=', id).executeTakeFirstOrThrow());
    expect(await status()).toMatchObject({ status: 'error', last_error: 'HTTP 401: bad key' });
    const [queued] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await cancelRun(h.deps, queued!.id);
    expect((await status()).status).toBe('error');
    await pauseConnector(h.deps, id);
    await resumeConnector(h.deps, id);
    expect((await status()).status).toBe('error');
    // The run the resume queued succeeds: only that clears the error.
    await settle((await h.runsOf(id)).at(-1)!.id);
    expect(await status()).toMatchObject({ status: 'ready', last_error: null });
  });

  it('stops an upstream that ignores its page parameter at the second copy of a page, not after a million pages', async () => {
    h.sandbox.configure({ connectorType: 'applicant_tracking', entity: 'candidates', size: 1200 });
    const { id: ats } = await h.createConnector(await h.token(), { connector_type: 'applicant_tracking', name: 'ATS', replication_config: { entities: ['candidates'] } });
    const [run] = await h.runsOf(ats);
    const stuck: ConnectorRuntime = { execute: (call, signal) => h.deps.runtime.execute({ ...call, params: { ...call.params, page: 1 } }, signal) };
    await expect(executeRun({ ...h.deps, runtime: stuck }, run!.id)).rejects.toMatchObject({ code: 'upstream_error', message: expect.stringContaining('returned a page it had returned before') });
    expect((await getRun(h.deps.db, run!.id))?.pages).toBe(1);
  });

  it('a run queued just before its connector was paused is cancelled when claimed, and reads nothing', async () => {
    const [queued] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    // The pause lands after the run was queued (a schedule tick racing pauseConnector).
    await sql`update connectors set status = 'paused' where id = ${id}::uuid`.execute(h.deps.db);
    await sql`update entity_state set status = 'paused' where connector_id = ${id}::uuid`.execute(h.deps.db);
    const calls = h.sandbox.faults.callsFor('payments', 'customers');
    expect(await executeRun(h.deps, queued!.id)).toBe('skipped');
    expect(h.sandbox.faults.callsFor('payments', 'customers')).toBe(calls);
    expect(await getRun(h.deps.db, queued!.id)).toMatchObject({ status: 'cancelled' });
    const state = await h.deps.db.selectFrom('entity_state').select('status').where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state.status).toBe('paused');
  });
  // Last: it closes the schedule queue.
  it('a connector whose schedule the queue does not take is taken back out, or left paused: nothing half-done for a retry to duplicate', async () => {
    const count = async () => Number((await h.deps.db.selectFrom('connectors').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await pauseConnector(h.deps, id);
    await h.deps.scheduleQueue.close();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      headers: { authorization: `Bearer ${await h.token()}` },
      payload: { external_user_id: 'u9', connector_type: 'payments', name: 'Refused', credentials: { api_key: 'k' }, replication_config: { entities: ['customers'] } },
    });
    // A queue that is down hangs rather than fails: the create gives up after 10 s.
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ error: { code: 'unavailable' } });
    expect(await count()).toBe(before);
    // Nor is a paused connector resumed without its schedule: it would look active and never sync.
    await expect(resumeConnector(h.deps, id)).rejects.toMatchObject({ code: 'unavailable' });
    const after = await h.deps.db.selectFrom('connectors').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.status).toBe('paused');
  });
});
