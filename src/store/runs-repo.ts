import { sql } from 'kysely';
import { AppError } from '../errors.js';
import type { Kysely } from 'kysely';
import type { DB, Db } from './db.js';
import { executeStatement } from './prepared-statements.js';
import type { RunCheckpoint, RunError, RunMode, RunStatus, RunTrigger, SyncRunRow } from './schema.js';

/** Counter increments of one page. */
export interface PageCounters {
  /** Pages written by this transaction (several when the worker batches them). */
  pages?: number;
  seen: number;
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Creates a queued run; a second active run of the same (connector, entity) is a `conflict`. */
export async function createRun(
  db: Db,
  input: { connectorId: string; entity: string; trigger: RunTrigger; mode: RunMode; replayOf?: string | null; checkpoint?: RunCheckpoint | null },
): Promise<SyncRunRow> {
  try {
    return await db
      .insertInto('sync_runs')
      .values({
        connector_id: input.connectorId,
        entity: input.entity,
        trigger: input.trigger,
        mode: input.mode,
        replay_of: input.replayOf ?? null,
        checkpoint: input.checkpoint == null ? null : JSON.stringify(input.checkpoint),
        // The clock, not the transaction's start: a run created at the end of a long transaction
        // (a reset) must not look queued for that long to the reaper when it commits.
        queued_at: sql<Date>`clock_timestamp()`,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'sync_runs_one_active') {
      throw new AppError('conflict', `a sync of ${input.entity} is already queued or running for this connector`, { path: 'entity' });
    }
    throw e;
  }
}

export async function getRun(db: Db, id: string): Promise<SyncRunRow | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  return (await db.selectFrom('sync_runs').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The queued or running run of an entity (at most one: the database enforces it), or null. */
export async function findActiveRun(db: Db, connectorId: string, entity: string): Promise<SyncRunRow | null> {
  const row = await db.selectFrom('sync_runs').selectAll().where('connector_id', '=', connectorId).where('entity', '=', entity).where('status', 'in', ['queued', 'running']).executeTakeFirst();
  return row ?? null;
}

export async function setRunJob(db: Db, id: string, jobId: string): Promise<void> {
  await db.updateTable('sync_runs').set({ job_id: jobId }).where('id', '=', id).execute();
}

/** Marks a run running (again, after a crash) and counts the attempt; returns null when it is no longer active. */
export async function startRun(db: Db, id: string): Promise<SyncRunRow | null> {
  const row = await db
    .updateTable('sync_runs')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      started_at: sql<Date>`coalesce(started_at, now())`,
      heartbeat_at: sql<Date>`now()`,
      // Set once, when reading first starts (a replay inherits its original's); see migration 0004.
      seen_fence: sql<string>`coalesce(seen_fence, (select case when is_called then last_value else 0 end from record_version_seq))`,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** Outcome of claiming a run for execution. */
export type Claim = { readonly kind: 'started'; readonly run: SyncRunRow } | { readonly kind: 'throttled' } | { readonly kind: 'inactive' };

/**
 * Starts a run unless its connector already has `maxPerConnector` live runs (a run whose
 * heartbeat is older than `staleSec` belongs to a dead worker and does not count). The check
 * and the start share a per-connector lock, so two workers cannot both take the last slot.
 */
export async function claimRun(db: Kysely<DB>, id: string, maxPerConnector: number, staleSec: number): Promise<Claim> {
  return db.transaction().execute(async (tx) => {
    const run = await getRun(tx, id);
    if (run === null || (run.status !== 'queued' && run.status !== 'running')) return { kind: 'inactive' } as const;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`connector-runs/${run.connector_id}`}, 0))`.execute(tx);
    const busy = await tx
      .selectFrom('sync_runs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('connector_id', '=', run.connector_id)
      .where('status', '=', 'running')
      .where('id', '<>', id)
      .where('heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${staleSec})`)
      .executeTakeFirstOrThrow();
    // A redelivered run waiting here keeps its old beat on purpose: runs that refreshed it while
    // throttled would count as busy for each other and could wait on each other forever.
    if (Number(busy.n) >= maxPerConnector) return { kind: 'throttled' } as const;
    // A run queued (or a job redelivered) just before its connector was paused must not read.
    const connector = await tx.selectFrom('connectors').select('status').where('id', '=', run.connector_id).executeTakeFirst();
    if (connector?.status !== 'active') {
      await finishRun(tx, id, 'cancelled', { error: { code: 'conflict', message: 'connector is paused' } });
      return { kind: 'inactive' } as const;
    }
    const started = await startRun(tx, id);
    return started === null ? ({ kind: 'inactive' } as const) : ({ kind: 'started', run: started } as const);
  });
}

/** What a page write records about its run, besides its records. */
export interface PageWriteRecord {
  readonly id: string;
  readonly checkpoint: RunCheckpoint;
  readonly counters: PageCounters;
  /** The execution's claim: an execution that lost it (the job was redelivered) can no longer write. */
  readonly attempt?: number | undefined;
  /** The write key (records-repo.ts lockEntity) of the write before, while it may still be in flight: waited for, in Postgres, before the checkpoint. */
  readonly after?: string | null;
  /** Records the page made live (new or revived): added to the entity's record count. */
  readonly live?: { readonly connectorId: string; readonly entity: string; readonly delta: number };
}

/**
 * Saves a page write's checkpoint and adds its counters, with what else the write does after its
 * upsert, in one statement; part of the page's transaction. Returns false when the run is no
 * longer running (cancelled meanwhile): the caller rolls the page back. The statement: the
 * wait for the write before (its checkpoint must commit first; waited for where Postgres's
 * deadlock detector sees it), then the run row, then the entity's record count (every path that
 * ends or cancels a run locks them in that order). The count only once the run row is written:
 * it reads `page`. Two round trips per page write less than a statement each (bench/README.md,
 * session 47). The statement reads the run row as of its start, before the wait: Postgres
 * updates the row as the write before left it (read committed rechecks a row updated meanwhile).
 */
export async function recordPageWrite(db: Db, w: PageWriteRecord): Promise<boolean> {
  const c = w.counters;
  const live = w.live ?? null;
  const params = [JSON.stringify(w.checkpoint), c.pages ?? 1, c.seen, c.inserted, c.updated, c.unchanged, w.id, w.attempt ?? null, w.after == null ? null : `write/${w.after}`, live?.delta ?? 0, live?.connectorId ?? null, live?.entity ?? null];
  const { rows } = await executeStatement<{ recorded: number }>(db, RECORD_PAGE_WRITE, params);
  return (rows[0]?.recorded ?? 0) > 0;
}

const RECORD_PAGE_WRITE = `with turn as (
  select pg_advisory_xact_lock_shared(hashtextextended($9::text, 0)) where $9::text is not null
), page as (
  update sync_runs
     set checkpoint = $1, pages = pages + $2, seen = seen + $3, inserted = inserted + $4, updated = updated + $5,
         unchanged = unchanged + $6, heartbeat_at = now(), progressed_at = now()
   where id = $7 and status = 'running' and ($8::int is null or attempts = $8::int) and (select count(*) from turn) >= 0
  returning id
), counted as (
  update entity_state set record_count = greatest(record_count + $10::int, 0)
   where connector_id = $11::uuid and entity = $12::text and $10::int <> 0 and exists (select 1 from page)
)
select count(*)::int as recorded from page`;

/** Milliseconds since the run last wrote a page (or started, before its first), by the database's clock; null for an unknown run. */
export async function msSinceProgress(db: Db, id: string): Promise<number | null> {
  const row = await db
    .selectFrom('sync_runs')
    .select(sql<string>`extract(epoch from now() - coalesce(progressed_at, started_at, queued_at)) * 1000`.as('ms'))
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : Math.max(0, Number(row.ms));
}

/** Ends a run; only an active run can end (a cancelled run stays cancelled). */
export async function finishRun(db: Db, id: string, status: Exclude<RunStatus, 'queued' | 'running'>, extra: { deleted?: number; error?: RunError; attempt?: number } = {}): Promise<boolean> {
  const res = await db
    .updateTable('sync_runs')
    .set({
      status,
      finished_at: sql<Date>`now()`,
      deleted: sql<number>`deleted + ${extra.deleted ?? 0}`,
      error: extra.error === undefined ? null : JSON.stringify(extra.error),
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .$if(extra.attempt !== undefined, (q) => q.where('attempts', '=', extra.attempt as number))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Whether this execution still owns the run (running, at `attempt`), holding the row until the
 * caller's transaction ends: a cancel, which locks the run before the entity, waits for it.
 */
export async function lockOwnedRun(db: Db, id: string, attempt: number): Promise<boolean> {
  const row = await db.selectFrom('sync_runs').select('id').where('id', '=', id).where('status', '=', 'running').where('attempts', '=', attempt).forShare().executeTakeFirst();
  return row !== undefined;
}

/** Whether this execution still owns the run (running, at `attempt`); no lock, for polling. */
export async function ownsRun(db: Db, id: string, attempt: number): Promise<boolean> {
  const row = await db.selectFrom('sync_runs').select('id').where('id', '=', id).where('status', '=', 'running').where('attempts', '=', attempt).executeTakeFirst();
  return row !== undefined;
}

/** Proves an execution is alive while it waits (429s, backoffs, partition discovery) between pages. */
export async function touchRun(db: Db, id: string, attempt: number): Promise<void> {
  await db
    .updateTable('sync_runs')
    .set({ heartbeat_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('attempts', '=', attempt)
    .execute();
}

/** An active run that has shown no sign of life for a while, with its attempt. */
export interface SilentRun {
  readonly id: string;
  readonly status: 'queued' | 'running';
  /** Fences the reaping: a claim meanwhile takes the next attempt. */
  readonly attempts: number;
}

/**
 * Active runs of an entity silent for `staleSec`: queued for that long, or running without a
 * heartbeat for that long (every execution beats while it lives).
 */
export async function silentRuns(db: Db, connectorId: string, entity: string, staleSec: number): Promise<SilentRun[]> {
  const stale = sql<Date>`now() - make_interval(secs => ${staleSec})`;
  const rows = await db
    .selectFrom('sync_runs')
    .select(['id', 'status', 'attempts'])
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('queued_at', '<', stale)]),
        eb.and([eb('status', '=', 'running'), eb('heartbeat_at', '<', stale)]),
      ]),
    )
    .execute();
  return rows.map((r) => ({ id: r.id, status: r.status as SilentRun['status'], attempts: r.attempts }));
}

/**
 * Deletes a connector's runs that finished more than `keepDays` ago, keeping each entity's latest
 * finished run whatever its age (the last outcome stays visible). Seen-sets go with them (cascade).
 * Returns how many were deleted.
 */
export async function pruneRuns(db: Db, connectorId: string, keepDays: number): Promise<number> {
  const res = await sql`
    delete from sync_runs r
     where r.connector_id = ${connectorId}::uuid
       and r.finished_at < now() - make_interval(days => ${keepDays})
       and r.id <> (select max(l.id) from sync_runs l
                     where l.connector_id = r.connector_id and l.entity = r.entity and l.finished_at is not null)`.execute(db);
  return Number(res.numAffectedRows ?? 0n);
}

