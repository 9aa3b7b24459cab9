/** Creating runs and enqueuing their jobs: the one way a sync starts (API, CLI, scheduler, replay). */
import type { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { getConnectorDef, getEntityDef } from '../connectors/catalog/index.js';
import { AppError } from '../errors.js';
import type { Connector } from '../store/connectors-repo.js';
import type { DB, Db } from '../store/db.js';
import { isTransientDbError } from '../store/db-errors.js';
import { ensureEntityStates, getEntityState } from '../store/entity-state-repo.js';
import { createRun, finishRun, reapAbandonedRuns, setRunJob, staleQueuedRuns } from '../store/runs-repo.js';
import type { RunCheckpoint, RunMode, RunTrigger, SyncRunRow } from '../store/schema.js';
import { sleep } from './fetch-page.js';
import { SYNC_RETRY, syncJobId, type SyncJob } from './jobs.js';

/**
 * An active run with no sign of life for this long is abandoned (see reapAbandonedRuns). Far
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

async function resolveMode(db: Db, connector: Connector, req: SyncRequest): Promise<RunMode> {
  const entity = getEntityDef(getConnectorDef(connector.connectorType), req.entity);
  if (entity.read === undefined) throw new AppError('invalid_request', `${req.entity} cannot be replicated: it has no list action`, { path: 'entity' });
  if (req.mode === 'full' || req.mode === 'incremental') {
    if (req.mode === 'incremental' && entity.read.incremental === undefined) {
      throw new AppError('invalid_request', `${req.entity} has no incremental filter; use mode "full"`, { path: 'mode' });
    }
    return req.mode;
  }
  const state = await getEntityState(db, connector.id, req.entity);
  return entity.read.incremental !== undefined && state?.sync_cursor != null ? 'incremental' : 'full';
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

/** Job states in which the queue will never execute the job again. */
const FINISHED_JOB_STATES = new Set(['completed', 'failed', 'unknown']);

/**
 * Fails runs queued for ABANDONED_AFTER_SEC whose job the queue no longer holds, or holds as
 * finished: the job's last attempt could not record the run's failure (the database was down
 * then), or the queue lost its data (Redis restarted without persistence). Nothing would ever
 * execute them, and each holds its entity's one active slot. A job still waiting or delayed
 * (a backlog, a throttled connector) keeps its run. Returns the reaped ids.
 */
export async function reapOrphanedRuns(db: Db, syncQueue: Queue<SyncJob>, connectorId: string, entity: string): Promise<string[]> {
  const reaped: string[] = [];
  for (const run of await staleQueuedRuns(db, connectorId, entity, ABANDONED_AFTER_SEC)) {
    const job = await syncQueue.getJob(run.jobId);
    const state = job === undefined ? 'missing' : await job.getState();
    if (state !== 'missing' && !FINISHED_JOB_STATES.has(state)) continue;
    const message = `abandoned: its queue job is ${state === 'missing' ? 'gone' : state} and nothing will execute it; replay it to resume from its checkpoint`;
    if (await finishRun(db, run.id, 'failed', { error: { code: 'unavailable', message }, onlyIfQueued: true })) reaped.push(run.id);
  }
  return reaped;
}

/** Creates a queued run and its job. A second active run of the same entity is a `conflict`. */
export async function requestSync(deps: EnqueueDeps, connector: Connector, req: SyncRequest): Promise<SyncRunRow> {
  return enqueueRun(deps, await createRequestedRun(deps.db, deps.syncQueue, connector, req), req.beforeEnqueue);
}

/**
 * The first half of {@link requestSync}: resolves the mode, frees the slot of runs nobody will
 * execute, and creates the queued run on `db`. In a caller's transaction the run's row holds the
 * entity's one active slot from then on: a concurrent request waits on the unique index and
 * then gets its `conflict`. The caller queues the job with {@link enqueueRun} after committing.
 */
export async function createRequestedRun(db: Db, syncQueue: Queue<SyncJob>, connector: Connector, req: SyncRequest): Promise<SyncRunRow> {
  if (connector.status === 'paused') throw new AppError('conflict', 'connector is paused; resume it first', { path: 'connector' });
  const mode = await resolveMode(db, connector, req);
  await ensureEntityStates(db, connector.id, [req.entity]);
  await reapAbandonedRuns(db, connector.id, req.entity, ABANDONED_AFTER_SEC);
  await reapOrphanedRuns(db, syncQueue, connector.id, req.entity);
  return createRun(db, { connectorId: connector.id, entity: req.entity, trigger: req.trigger, mode, replayOf: req.replayOf ?? null, checkpoint: req.checkpoint ?? null });
}

/** Queues a created run's job; a run that cannot be prepared or queued is failed, never left holding the slot. */
export async function enqueueRun(deps: EnqueueDeps, run: SyncRunRow, beforeEnqueue?: SyncRequest['beforeEnqueue']): Promise<SyncRunRow> {
  const jobId = syncJobId(run.id);
  try {
    if (beforeEnqueue !== undefined) await beforeEnqueue(deps.db, run.id);
  } catch (e) {
    await finishRun(deps.db, run.id, 'failed', { error: { code: 'internal', message: `could not prepare the run: ${(e as Error).message}` } });
    throw e;
  }
  try {
    await enqueueSync(deps, run.id, jobId);
  } catch (e) {
    await finishRun(deps.db, run.id, 'failed', { error: { code: 'unavailable', message: `could not enqueue the run: ${(e as Error).message}` } });
    throw new AppError('unavailable', 'the queue is unavailable; try again', { retryable: true, cause: e });
  }
  await setRunJob(deps.db, run.id, jobId);
  return { ...run, job_id: jobId };
}
