/**
 * What operators do to connectors and runs (DESIGN §5): trigger, cancel, replay, pause/resume,
 * resync (cursor reset, data kept), reset (data tombstoned, then a full run). The admin API and
 * the CLI call these; each is one short transaction plus queue calls.
 */
import { sql, type Transaction } from 'kysely';
import { AppError, errorLog, isAppError } from '../errors.js';
import { findConnector, lockConnectorStatus, type Connector } from '../store/connectors-repo.js';
import { IDLE_STATUS } from '../store/entity-state-repo.js';
import { dropSupersededSeen, inheritSeen, lockEntity } from '../store/records-repo.js';
import { findActiveRun, getRun } from '../store/runs-repo.js';
import type { DB } from '../store/db.js';
import type { RunCheckpoint, RunMode, SyncRunRow } from '../store/schema.js';
import { syncJobId } from '../worker/jobs.js';
import { assertModeFits, assertNotPaused, createRequestedRun, enqueueRun, reapAbandonedRuns, requestSync } from '../worker/request-sync.js';
import { syncAsScheduled } from '../worker/schedule-processor.js';
import { readFromOf } from '../worker/saved-cursor.js';
import { within } from '../within.js';
import { applySchedule, QUEUE_CALL_MS } from './connector-schedule.js';
import { replicatedEntities, scheduleConnector } from './connector-service.js';
import type { Deps } from './deps.js';

async function mustRun(deps: Deps, runId: string): Promise<SyncRunRow> {
  const run = await getRun(deps.db, runId);
  if (run === null) throw new AppError('not_found', `run ${runId} not found`, { path: 'run_id' });
  return run;
}

async function mustConnector(deps: Deps, id: string): Promise<Connector> {
  const c = await findConnector(deps.db, id);
  if (c === null) throw new AppError('not_found', `connector ${id} not found`, { path: 'connector_id' });
  return c;
}

function entitiesOf(connector: Connector, entity?: string): string[] {
  const all = replicatedEntities(connector);
  if (entity === undefined) return all;
  if (!all.includes(entity)) throw new AppError('invalid_request', `${entity} is not replicated by this connector; one of: ${all.join(', ')}`, { path: 'entity' });
  return [entity];
}

/**
 * Starts a manual run of one entity (409 while it has one active), or of every replicated entity:
 * then an entity that already has an active run keeps it, and that run is returned in its place,
 * so the answer covers every entity instead of failing halfway with some runs queued.
 */
export async function triggerSync(deps: Deps, connectorId: string, opts: { entity?: string; mode?: RunMode | 'auto' } = {}): Promise<SyncRunRow[]> {
  const connector = await mustConnector(deps, connectorId);
  const entities = entitiesOf(connector, opts.entity);
  // Every entity first: an incremental request some entity cannot take must queue nothing.
  for (const entity of entities) assertModeFits(connector, entity, opts.mode ?? 'auto');
  const runs: SyncRunRow[] = [];
  for (const entity of entities) {
    try {
      runs.push(await requestSync(deps, connector, { entity, trigger: 'manual', mode: opts.mode ?? 'auto' }));
    } catch (e) {
      const active = opts.entity === undefined && isAppError(e) && e.code === 'conflict' ? await findActiveRun(deps.db, connector.id, entity) : null;
      if (active === null) throw e;
      runs.push(active);
    }
  }
  return runs;
}

const CANCELLED = JSON.stringify({ code: 'cancelled', message: 'cancelled by an operator' });

/**
 * Cancels the queued or running runs of one run id or of a whole connector in the caller's
 * transaction, returning them: run rows first, then entity states, the order of every path that
 * ends a run. Their executions stop before their next page commits (that page rolls back).
 */
async function cancelActive(tx: Transaction<DB>, which: { runId: string } | { connectorId: string }): Promise<{ id: string; connector_id: string; entity: string }[]> {
  const [column, value] = 'runId' in which ? (['id', which.runId] as const) : (['connector_id', which.connectorId] as const);
  return tx
    .updateTable('sync_runs')
    .set({ status: 'cancelled', finished_at: sql<Date>`now()`, error: CANCELLED })
    .where(column, '=', value)
    .where('status', 'in', ['queued', 'running'])
    .returning(['id', 'connector_id', 'entity'])
    .execute();
}

/** Drops cancelled runs' jobs from the queue; best effort, as a claim skips a cancelled run anyway. */
async function dropJobs(deps: Deps, runIds: readonly string[]): Promise<void> {
  const drop = Promise.all(runIds.map((id) => deps.syncQueue.remove(syncJobId(id)).catch(() => undefined)));
  await within(drop, QUEUE_CALL_MS, () => new Error('queue did not answer')).catch(() => undefined);
}

/** Cancels a queued or running run: the runner stops before its next page (that page rolls back). */
export async function cancelRun(deps: Deps, runId: string): Promise<SyncRunRow> {
  const run = await mustRun(deps, runId);
  // One transaction: nobody sees the run cancelled while its entity still says `updating`.
  await deps.db.transaction().execute(async (tx) => {
    const cancelled = await cancelActive(tx, { runId: run.id });
    if (cancelled.length === 0) throw new AppError('conflict', `run ${runId} is ${run.status}; only queued or running runs can be cancelled`, { path: 'run_id' });
    await tx
      .updateTable('entity_state')
      .set({ status: IDLE_STATUS })
      .where('connector_id', '=', run.connector_id)
      .where('entity', '=', run.entity)
      .where('status', '<>', 'paused')
      .execute();
  });
  await dropJobs(deps, [run.id]);
  return mustRun(deps, runId);
}

/**
 * Replays a run as a new run (`replay_of`), never editing the original: from its checkpoint, or
 * from the start. A full run replayed from its checkpoint inherits the ids the original saw and
 * its fence, so its deletions still cover the partitions read before the checkpoint and spare
 * records stored since; once a later full run succeeded, that seen-set is dropped and a replay
 * starts from the beginning.
 */
export async function replayRun(deps: Deps, runId: string, opts: { fromStart?: boolean } = {}): Promise<SyncRunRow> {
  const original = await mustRun(deps, runId);
  if (original.status === 'queued' || original.status === 'running') throw new AppError('conflict', `run ${runId} is still ${original.status}; cancel it or wait`, { path: 'run_id' });
  const connector = await mustConnector(deps, original.connector_id);
  // Once a later full run succeeded, the original's seen-set is gone: a replay starts over.
  const seenGone = original.mode === 'full' && original.seen_dropped_at !== null;
  const fromCheckpoint = opts.fromStart !== true && original.status !== 'succeeded' && original.checkpoint !== null && !seenGone;
  const run = await requestSync(deps, connector, {
    entity: original.entity,
    trigger: 'replay',
    mode: original.mode,
    replayOf: original.id,
    checkpoint: fromCheckpoint ? withReadFrom(original) : null,
    beforeEnqueue: fromCheckpoint && original.mode === 'full'
      ? (db, newRunId) =>
          // Under the entity lock, so a full run finishing right now cannot drop the seen-set
          // between the check and the copy; if it already did, the replay starts over.
          db.transaction().execute(async (tx) => {
            await lockEntity(tx, original.connector_id, original.entity);
            await inheritSeen(tx, original.id, newRunId);
          })
      : undefined,
  });
  // The checkpoint may have been cleared on the way (seen-set dropped meanwhile): show the truth.
  return fromCheckpoint ? ((await getRun(deps.db, run.id)) ?? run) : run;
}

/**
 * The original's checkpoint, saying when its pages began to be read: checkpoints written before
 * `readFrom` existed lack it, and the replay would otherwise cap its cursor at its own start.
 */
function withReadFrom(original: SyncRunRow): RunCheckpoint | null {
  const readFrom = readFromOf(original);
  return original.checkpoint === null || readFrom === null ? original.checkpoint : { ...original.checkpoint, readFrom };
}

/**
 * Pauses a connector in one transaction: connector paused, its active runs cancelled, its entities
 * shown as paused. The schedule is removed after (connector-schedule.ts); that may fail (logged):
 * a tick of a paused connector creates nothing, and resume upserts the schedule again.
 */
export async function pauseConnector(deps: Deps, connectorId: string): Promise<void> {
  const connector = await mustConnector(deps, connectorId);
  const cancelled = await deps.db.transaction().execute(async (tx) => {
    await lockConnectorStatus(tx, connector.id, 'update');
    await tx.updateTable('connectors').set({ status: 'paused', updated_at: sql<Date>`now()` }).where('id', '=', connector.id).execute();
    const runs = await cancelActive(tx, { connectorId: connector.id });
    await tx.updateTable('entity_state').set({ status: 'paused', next_run_at: null }).where('connector_id', '=', connector.id).execute();
    return runs;
  });
  await dropJobs(deps, cancelled.map((r) => r.id));
  await applySchedule(deps, connector).catch((e: unknown) =>
    deps.logger.warn({ connector: connector.id, err: errorLog(e) }, 'paused, but the schedule was not removed; its ticks create nothing while paused'),
  );
}

/**
 * Resumes a paused connector: schedule restored, its paused entities back to their idle status,
 * and a sync of each queued at once, as a tick would (the schedule's first tick is a whole
 * interval away, and a pause may have cancelled a reset's run, leaving the entity with no
 * records). The schedule comes first: a queue that does not take it leaves the connector paused
 * for the operator to retry, not active without a schedule that would ever sync it. Resuming a
 * connector that is not paused changes nothing (a running entity keeps saying `updating`).
 */
export async function resumeConnector(deps: Deps, connectorId: string): Promise<void> {
  const connector = await mustConnector(deps, connectorId);
  if (connector.status !== 'paused') return;
  await scheduleConnector(deps, { ...connector, status: 'active' });
  const resumed = await deps.db.transaction().execute(async (tx) => {
    if ((await lockConnectorStatus(tx, connector.id, 'update')) !== 'paused') return false;
    await tx.updateTable('connectors').set({ status: 'active', updated_at: sql<Date>`now()` }).where('id', '=', connector.id).execute();
    await tx.updateTable('entity_state').set({ status: IDLE_STATUS }).where('connector_id', '=', connector.id).where('status', '=', 'paused').execute();
    return true;
  });
  // A pause that committed since the upsert above removes the schedule again here, or in its own application.
  await applySchedule(deps, connector).catch((e: unknown) => deps.logger.warn({ connector: connector.id, err: errorLog(e) }, 'resumed; the schedule could not be checked again'));
  if (!resumed) return;
  await syncAsScheduled(deps, { ...connector, status: 'active' }).catch((e: unknown) =>
    deps.logger.warn({ connector: connector.id, err: errorLog(e) }, "resumed, but its syncs could not all be queued; the schedule's next tick queues them"),
  );
}

/**
 * Refuses (409) to reset or resync an entity with a run in flight or a paused connector, before
 * anything is changed: a running run would overwrite the forgotten cursor, or skip re-reading
 * the records tombstoned behind it. Holds the entity lock for the caller's transaction.
 */
async function assertIdle(tx: Transaction<DB>, connector: Connector, entity: string): Promise<void> {
  await assertNotPaused(tx, connector.id);
  await lockEntity(tx, connector.id, entity);
  const active = await findActiveRun(tx, connector.id, entity);
  if (active !== null) throw new AppError('conflict', `run ${active.id} of ${entity} is still active; cancel it or wait`, { path: 'entity' });
}

/**
 * A reset or resync: `change` in one transaction with the full run that follows, created last. A
 * schedule tick that created a run meanwhile (which reads the cursor the change forgets) makes
 * that insert a `conflict` and the whole change rolls back; from the commit on, the run's row
 * holds the entity's slot. Runs nobody will execute are reaped first, outside the transaction
 * (that asks the queue).
 *
 * The entity's state row (`state`) is updated after the run's insert: cancelling or failing a
 * run locks its run row, then the entity's state, and taking them the other way round here
 * could deadlock with a cancel of that tick's run.
 */
async function changeThenRunFull<T>(
  deps: Deps,
  connector: Connector,
  entity: string,
  change: (tx: Transaction<DB>) => Promise<T>,
  state: { sync_cursor: null; record_count?: number },
): Promise<{ result: T; run: SyncRunRow }> {
  await reapAbandonedRuns(deps.db, deps.syncQueue, connector.id, entity);
  const { result, created } = await deps.db.transaction().execute(async (tx) => {
    await assertIdle(tx, connector, entity);
    const changed = await change(tx);
    const run = await createRequestedRun(tx, connector, { entity, trigger: 'manual', mode: 'full' });
    await tx.updateTable('entity_state').set(state).where('connector_id', '=', connector.id).where('entity', '=', entity).execute();
    return { result: changed, created: run };
  });
  return { result, run: await enqueueRun(deps, created) };
}

/** Resync: forget the incremental cursor (data kept), then run full. */
export async function resyncEntity(deps: Deps, connectorId: string, entity: string): Promise<SyncRunRow> {
  const connector = await mustConnector(deps, connectorId);
  entitiesOf(connector, entity);
  const { run } = await changeThenRunFull(deps, connector, entity, async () => undefined, { sync_cursor: null });
  return run;
}

/** Reset: tombstone every record of the entity (so the index drops them), forget the cursor, run full. */
export async function resetEntity(deps: Deps, connectorId: string, entity: string): Promise<{ tombstoned: number; run: SyncRunRow }> {
  const connector = await mustConnector(deps, connectorId);
  entitiesOf(connector, entity);
  const { result: tombstoned, run } = await changeThenRunFull(deps, connector, entity, async (tx) => {
    const res = await sql`update records set deleted_at = now(), version = nextval('record_version_seq'), updated_at = now()
      where connector_id = ${connector.id}::uuid and entity = ${entity} and deleted_at is null`.execute(tx);
    await dropSupersededSeen(tx, connector.id, entity, null);
    return Number(res.numAffectedRows ?? 0n);
  }, { sync_cursor: null, record_count: 0 });
  return { tombstoned, run };
}
