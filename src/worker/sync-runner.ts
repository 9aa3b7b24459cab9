/**
 * Executes one sync run: pages through the runtime partition by partition from the run's
 * checkpoint, writes each page with its checkpoint in one transaction, ships changes to the
 * index page by page, and at the successful end of a full run tombstones what it did not see.
 */
import { getConnectorDef, getEntityDef } from '../connectors/catalog/index.js';
import { readLowerBound } from '../connectors/planner.js';
import { AppError, errorLog } from '../errors.js';
import { BackgroundShipper, shipAll } from '../search/indexer.js';
import { lookupFields, searchTarget } from '../search/target.js';
import { loadSealedSecret, findConnector } from '../store/connectors-repo.js';
import { openJson } from '../store/crypto.js';
import { getEntityState, markRunEnded, markRunStarted } from '../store/entity-state-repo.js';
import { clearSeen, countLive, dropSupersededSeen, lockEntity, tombstoneUnseen } from '../store/records-repo.js';
import { claimRun, finishRun, getRun, lockOwnedRun, touchRun } from '../store/runs-repo.js';
import type { SyncRunRow } from '../store/schema.js';
import { ConnectorHold } from './connector-hold.js';
import { DEFAULT_RETRY } from './fetch-page.js';
import { GonePartitions } from './gone-partitions.js';
import { RunNotRunning } from './page-writer.js';
import { readPartitions } from './read-chains.js';
import type { RunContext, SyncDeps } from './run-context.js';
import { readContextOf, runPartitions } from './run-partitions.js';
import { readFromOf, savedCursor } from './saved-cursor.js';
import { RunProgress } from './run-progress.js';
import { RunStop } from './run-stop.js';
import { statsKeeper } from '../store/table-stats.js';
import { ensureRecordPartition } from '../store/record-partitions.js';

export type { SyncDeps } from './run-context.js';

/** How a run ended, for the job wrapper. */
/** `stopped`: cancelled by an operator, or superseded by a newer execution of the same run. */
export type RunOutcome = 'succeeded' | 'stopped' | 'skipped' | 'throttled';

async function sinceFor(deps: SyncDeps, ctx: RunContext): Promise<number | undefined> {
  if (ctx.entity.read?.incremental === undefined) return undefined;
  const state = ctx.run.mode === 'incremental' ? await getEntityState(deps.db, ctx.connector.id, ctx.run.entity) : null;
  const startDate = ctx.connector.replicationConfig.start_date;
  return readLowerBound({
    mode: ctx.run.mode,
    cursorSec: typeof state?.sync_cursor === 'number' ? state.sync_cursor : null,
    lookbackSec: deps.lookbackSec ?? 300,
    startDateSec: typeof startDate === 'string' ? Date.parse(startDate) / 1000 : null,
  });
}

async function finishSuccess(deps: SyncDeps, ctx: RunContext): Promise<void> {
  const { run, connector } = ctx;
  await deps.db.transaction().execute(async (tx) => {
    await lockEntity(tx, connector.id, run.entity);
    const deleted = run.mode === 'full' ? await tombstoneUnseen(tx, connector.id, run.entity, run.id, run.seen_fence) : 0;
    await clearSeen(tx, run.id);
    if (run.mode === 'full') await dropSupersededSeen(tx, connector.id, run.entity, run.id);
    // Page writes keep the count; a full run, which has just walked every live record to find the
    // unseen ones, also recounts them, so a count that drifted (a run resumed across an upgrade
    // from before per-write counting) heals at the next full run. Counted before the run row is
    // locked (the entity lock keeps it exact): heartbeats, cancels and claims wait on that row.
    const count = run.mode === 'full' ? { recordCount: await countLive(tx, connector.id, run.entity) } : { tombstoned: deleted };
    // A superseded execution (its job was redelivered) must not end the run, nor tombstone.
    if (!(await finishRun(tx, run.id, 'succeeded', { deleted, attempt: run.attempts }))) throw new RunNotRunning(run.id);
    const cursor = savedCursor(ctx.maxCursor, ctx.readFrom);
    await markRunEnded(tx, connector.id, run.entity, { ok: true, ...count, ...(cursor === null ? {} : { cursor }) });
  });
  await shipAll(deps, connector.id, searchTarget(connector.connectorType, run.entity));
}

async function loadContext(deps: SyncDeps, run: SyncRunRow, stop: RunStop): Promise<RunContext> {
  const connector = await findConnector(deps.db, run.connector_id);
  if (connector === null) throw new AppError('not_found', `connector ${run.connector_id} no longer exists`);
  const connectorDef = getConnectorDef(connector.connectorType);
  const entity = getEntityDef(connectorDef, run.entity);
  const sealed = await loadSealedSecret(deps.db, connector.id);
  const credentials = openJson<Record<string, unknown>>(deps.keyring, sealed.keyId, sealed.ciphertext, connector.id);
  const log = deps.logger.child({ connector: connector.id, entity: run.entity, runId: run.id });
  const maxCursor = typeof run.checkpoint?.maxCursor === 'number' ? run.checkpoint.maxCursor : null;
  const shipper = new BackgroundShipper(deps, connector.id, searchTarget(connector.connectorType, run.entity));
  const gate = new ConnectorHold(deps.db, connector.id, stop, deps.retryPolicy ?? DEFAULT_RETRY, log);
  return { run, connector, connectorDef, entity, credentials, log, signal: stop.signal, stop, gate, maxCursor, readFrom: readFromOf(run), partitions: [], shipper, lookup: lookupFields(entity) };
}

function partitionSource(deps: SyncDeps, ctx: RunContext, since: number | undefined): Parameters<typeof runPartitions>[0] {
  const { connectorDef, entity, credentials, log, signal, gate } = ctx;
  const cap = deps.maxPagesPerRun === undefined ? {} : { maxPages: deps.maxPagesPerRun };
  const slicing = { timeSlices: deps.timeSlices ?? 1, mode: ctx.run.mode, since };
  const onWait = (ms: number): void => ctx.stop.waiting(ms);
  return { db: deps.db, runtime: deps.runtime, connector: connectorDef, entity, credentials, config: ctx.connector.replicationConfig, log, signal, onWait, gate, ...cap, ...slicing };
}

/** Runs (or resumes) a sync run to its end. Throws AppErrors; the job wrapper decides retries. */
export async function executeRun(deps: SyncDeps, runId: string, signal?: AbortSignal, claimed: { attempt?: number } = {}): Promise<RunOutcome> {
  const claim = await claimRun(deps.db, runId, deps.maxRunsPerConnector ?? 2, deps.staleRunSec ?? 120);
  if (claim.kind === 'inactive') {
    await shipFinished(deps, runId);
    return 'skipped';
  }
  if (claim.kind === 'throttled') return 'throttled';
  const run = claim.run;
  claimed.attempt = run.attempts;
  const beat = heartbeat(deps, run);
  const stop = new RunStop(deps.db, run, signal);
  try {
    return await executeClaimed(deps, run, stop);
  } finally {
    clearInterval(beat);
    stop.close();
  }
}

/**
 * A retried job of a run that already succeeded: its commit stands, but shipping to the index
 * after it failed (the job's error). Ship now, or the run's changes and tombstones would wait for
 * the entity's next run, which a paused connector never gets.
 */
async function shipFinished(deps: SyncDeps, runId: string): Promise<void> {
  if (!deps.backend.shipsChanges) return;
  const run = await getRun(deps.db, runId);
  if (run?.status !== 'succeeded') return;
  const connector = await findConnector(deps.db, run.connector_id);
  if (connector !== null) await shipAll(deps, connector.id, searchTarget(connector.connectorType, run.entity));
}

/** Beats while the execution lives, so waits between pages never make it look dead. */
function heartbeat(deps: SyncDeps, run: SyncRunRow): NodeJS.Timeout {
  // At most a minute apart: an active run without a beat for ABANDONED_AFTER_SEC (10 min) is reaped.
  const periodMs = Math.min(((deps.staleRunSec ?? 120) * 1000) / 4, 60_000);
  const t = setInterval(() => {
    touchRun(deps.db, run.id, run.attempts).catch((e: unknown) => deps.logger.warn({ runId: run.id, err: { message: (e as Error).message } }, 'run heartbeat failed'));
  }, periodMs);
  t.unref();
  return t;
}

/** Reads every partition of the run from its checkpoint; false when the run stopped meanwhile. */
async function readRun(deps: SyncDeps, ctx: RunContext, run: SyncRunRow): Promise<number | false> {
  // Before the first page: rows written before their entity has a partition stay in the default one.
  await ensureRecordPartition(deps.db, run.entity);
  await deps.backend.ensureIndex(deps.db, searchTarget(ctx.connector.connectorType, run.entity));
  // Versions already waiting go out even if this run fails before its first page: a reset's
  // tombstones (its run failing on a 401 while resolving parents) or a ship that failed before.
  ctx.shipper.poke();
  const cp = run.checkpoint ?? { partition: 0, page: null };
  const since = await sinceFor(deps, ctx);
  const source = partitionSource(deps, ctx, since);
  const partitions = await runPartitions(source, run, cp);
  ctx.partitions = partitions;
  ctx.log.info({ mode: run.mode, partitions: partitions.length, resumeAt: { partition: cp.partition, page: cp.page }, attempt: run.attempts }, 'sync run started');
  const gone = new GonePartitions(readContextOf(source), ctx.entity);
  return readPartitions(deps, ctx, new RunProgress(cp, partitions.length), since, run.pages, gone);
}

async function executeClaimed(deps: SyncDeps, run: SyncRunRow, stop: RunStop): Promise<RunOutcome> {
  const ctx = await loadContext(deps, run, stop);
  // Cancelled since the claim: the entity must not be left saying `updating` for a dead run.
  const owned = await deps.db.transaction().execute(async (tx) => {
    if (!(await lockOwnedRun(tx, run.id, run.attempts))) return false;
    await markRunStarted(tx, ctx.connector.id, run.entity, run.id);
    return true;
  });
  if (!owned) return 'stopped';
  let pages: number | false;
  try {
    pages = await readRun(deps, ctx, run);
    if (pages === false) return 'stopped';
  } catch (e) {
    // Stopped while it waited: what the cut wait threw (a 429 to park, a 503) is moot.
    if (stop.stopped) return 'stopped';
    throw e;
  } finally {
    // Whatever happened, pages already written reach the index before the job ends.
    await ctx.shipper.drain().catch((e: unknown) => ctx.log.warn({ err: errorLog(e) }, 'index shipping failed; the next run ships it'));
  }
  // Before the run says succeeded: a search right after it is planned on statistics that hold its rows.
  await statsKeeper(deps.db, deps.logger).current();
  try {
    await finishSuccess(deps, ctx);
  } catch (e) {
    if (e instanceof RunNotRunning) return 'stopped';
    throw e;
  }
  ctx.log.info({ pages }, 'sync run succeeded');
  return 'succeeded';
}
