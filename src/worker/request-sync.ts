/** Creating runs and enqueuing their jobs: the one way a sync starts (API, CLI, scheduler, replay). */
import type { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { getConnectorDef, getEntityDef } from '../connectors/catalog/index.js';
import type { EntityDef } from '../connectors/catalog/types.js';
import { AppError, errorLog } from '../errors.js';
import { lockConnectorStatus, type Connector } from '../store/connectors-repo.js';
import type { DB, Db } from '../store/db.js';
import { isTransientDbError } from '../store/db-errors.js';
import { ensureEntityStates, getEntityState } from '../store/entity-state-repo.js';
import { createRun, finishRun, setRunJob, silentRuns, type SilentRun } from '../store/runs-repo.js';
import type { RunCheckpoint, RunMode, RunTrigger, SyncRunRow } from '../store/schema.js';
import { within } from '../within.js';
import { sleep } from './fetch-page.js';
import { SYNC_RETRY, syncJobId, type SyncJob } from './jobs.js';
import { failRun } from './run-failure.js';

/**
 * An active run with no sign of life for this long may be abandoned (see reapAbandonedRuns). Far
 * above the worker's heartbeat period and BullMQ's stalled-job redelivery.
 */
export const ABANDONED_AFTER_SEC = 600;

/** What enqueuing needs. */
export interface EnqueueDeps {
  readonly db: Kysely<DB>;
  readonly syncQueue: Queue<SyncJob>;
}

/** A sync request; `auto` picks incremental when the entity has a filter and a saved cursor. */
export interface SyncRequest {
  readonly entity: string;
  readonly trigger: RunTrigger;
  readonly mode?: RunMode | 'auto';
  readonly replayOf?: string;
  readonly checkpoint?: RunCheckpoint | null;
  /** Runs after the run row exists and before its job is queued (e.g. to seed its seen-set). */
  readonly beforeEnqueue?: ((db: Kysely<DB>, runId: string) => Promise<void>) | undefined;
}

/** Refuses a mode the entity cannot run: no list action at all, or `incremental` without a filter. */
export function assertModeFits(connector: Connector, entityName: string, mode: RunMode | 'auto'): EntityDef & { read: NonNullable<EntityDef['read']> } {
  const entity = getEntityDef(getConnectorDef(connector.connectorType), entityName);
  if (entity.read === undefined) throw new AppError('invalid_request', `${entityName} cannot be replicated: it has no list action`, { path: 'entity' });
  if (mode === 'incremental' && entity.read.incremental === undefined) {
    throw new AppError('invalid_request', `${entityName} has no incremental filter; use mode "full"`, { path: 'mode' });
  }
  return entity as EntityDef & { read: NonNullable<EntityDef['read']> };
}

async function resolveMode(db: Db, connector: Connector, req: SyncRequest): Promise<RunMode> {
  const entity = assertModeFits(connector, req.entity, req.mode ?? 'auto');
  if (req.mode === 'full' || req.mode === 'incremental') return req.mode;
  const state = await getEntityState(db, connector.id, req.entity);
  return entity.read.incremental !== undefined && state?.sync_cursor != null ? 'incremental' : 'full';
}

/**
 * Refuses (409) to act for a paused connector, reading its committed status under a share lock
 * (to the end of the caller's transaction): a pause that commits meanwhile waits for the caller,
 * and a status read before the caller's transaction could be stale by the time it writes.
 */
export async function assertNotPaused(db: Db, connectorId: string): Promise<void> {
  if ((await lockConnectorStatus(db, connectorId, 'share')) === 'paused') throw new AppError('conflict', 'connector is paused; resume it first', { path: 'connector_id' });
}

/** Pauses before the second and third try of an enqueue. */
const ENQUEUE_BACKOFF_MS = [100, 500];

/**
 * Adds the run's job. A pooled connection the database or Redis dropped (a restart, a failover)
 * fails its first command; a later try takes a live one, and the job id makes a repeat a no-op.
 */
async function enqueueSync(deps: EnqueueDeps, runId: string, jobId: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.syncQueue.add('sync', { runId }, { jobId, ...SYNC_RETRY, removeOnComplete: { count: 1000 }, removeOnFail: { count: 5000 } });
      return;
    } catch (e) {
      const pause = ENQUEUE_BACKOFF_MS[attempt];
      if (pause === undefined || !isTransientDbError(e)) throw e;
      await sleep(pause);
    }
  }
}

/** Job states in which the queue will never deliver the job again. */
const FINISHED_JOB_STATES = new Set(['completed', 'failed', 'unknown']);

function abandonedMessage(run: SilentRun, jobState: string): string {
  const job = jobState === 'missing' ? 'its queue job is gone' : `its queue job is ${jobState}`;
  const why = run.status === 'running' ? `no worker executed it for ${ABANDONED_AFTER_SEC} s and ${job}` : `${job} and nothing will execute it`;
  return `abandoned: ${why}; replay it to resume from its checkpoint`;
}

/**
 * Fails the active runs of an entity that nobody will execute any more, each of which would
 * hold the entity's one active slot forever: silent for ABANDONED_AFTER_SEC (queued that long,
 * or running without a heartbeat that long) and with no job the queue will deliver again (a
 * crash between creating the run and queuing its job; a last attempt that could not record the
 * failure while the database was down; Redis that lost its data). A job the queue still holds
 * unfinished keeps its run, whatever its state: a backlog, a redelivered run waiting at its
 * connector's run limit (it keeps the dead execution's old beat there, see claimRun, and is
 * `active` while it tries). Checkpoints stay for a replay. Returns the reaped ids. Asks the
 * queue: never call it inside a transaction that holds locks.
 */
export async function reapAbandonedRuns(db: Db, syncQueue: Queue<SyncJob>, connectorId: string, entity: string): Promise<string[]> {
  const reaped: string[] = [];
  for (const run of await silentRuns(db, connectorId, entity, ABANDONED_AFTER_SEC)) {
    const job = await syncQueue.getJob(syncJobId(run.id));
    const state = job === undefined ? 'missing' : await job.getState();
    if (state !== 'missing' && !FINISHED_JOB_STATES.has(state)) continue;
    // Fenced: a claim since the read took the next attempt. The entity says so too, instead of
    // `updating` for a run nobody executes.
    if (await failRun({ db }, { id: run.id, connectorId, entity, attempt: run.attempts }, new AppError('unavailable', abandonedMessage(run, state)))) reaped.push(run.id);
  }
  return reaped;
}

/** Creates a queued run and its job. A second active run of the same entity is a `conflict`. */
export async function requestSync(deps: EnqueueDeps, connector: Connector, req: SyncRequest): Promise<SyncRunRow> {
  await reapAbandonedRuns(deps.db, deps.syncQueue, connector.id, req.entity);
  return enqueueRun(deps, await createRequestedRun(deps.db, connector, req), req.beforeEnqueue);
}

/**
 * The database half of {@link requestSync}: resolves the mode and creates the queued run on `db`,
 * which may be the caller's transaction (the caller reaps abandoned runs first, outside it, and
 * queues the job with {@link enqueueRun} after committing).
 */
export async function createRequestedRun(db: Db, connector: Connector, req: SyncRequest): Promise<SyncRunRow> {
  await assertNotPaused(db, connector.id);
  const mode = await resolveMode(db, connector, req);
  await ensureEntityStates(db, connector.id, [req.entity]);
  return createRun(db, { connectorId: connector.id, entity: req.entity, trigger: req.trigger, mode, replayOf: req.replayOf ?? null, checkpoint: req.checkpoint ?? null });
}

/**
 * How long a caller waits for the queue to take a job. A Redis that is down makes `add` wait for
 * the reconnect, not fail; an API request or a reset must not hang on it. An `add` that lands
 * after this is harmless: its run is failed by then, and the worker skips a run it cannot claim.
 */
export const ENQUEUE_TIMEOUT_MS = 10_000;

/**
 * Queues a created run's job. A run that cannot be prepared or queued is failed, with its entity
 * in `error` saying so, never left holding the slot or looking fine (a reset whose run was not
 * queued has tombstoned everything: the entity must not read `ready` with no records).
 */
export async function enqueueRun(deps: EnqueueDeps, run: SyncRunRow, beforeEnqueue?: SyncRequest['beforeEnqueue']): Promise<SyncRunRow> {
  const jobId = syncJobId(run.id);
  const ref = { id: run.id, connectorId: run.connector_id, entity: run.entity };
  try {
    if (beforeEnqueue !== undefined) await beforeEnqueue(deps.db, run.id);
  } catch (e) {
    await failRun(deps, ref, new AppError('internal', 'could not prepare the run', { detail: errorLog(e).message }));
    throw e;
  }
  try {
    await within(enqueueSync(deps, run.id, jobId), ENQUEUE_TIMEOUT_MS, () => new Error(`the sync queue did not answer within ${ENQUEUE_TIMEOUT_MS / 1000} s`));
  } catch (e) {
    const detail = errorLog(e).message;
    await failRun(deps, ref, new AppError('unavailable', 'the run could not be queued (queue unavailable); trigger a sync to retry', { detail }));
    throw new AppError('unavailable', 'the queue is unavailable; try again', { retryable: true, retryAfterSec: 5, cause: e });
  }
  await setRunJob(deps.db, run.id, jobId);
  return { ...run, job_id: jobId };
}
