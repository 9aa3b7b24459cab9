/**
 * Executes one sync run: pages through the runtime partition by partition from the run's
 * checkpoint, writes each page with its checkpoint in one transaction, ships changes to the
 * index page by page, and at the successful end of a full run tombstones what it did not see.
 */
import type { Kysely } from 'kysely';
import pLimit from 'p-limit';
import { getConnectorDef, getEntityDef } from '../connectors/catalog/index.js';
import type { ConnectorDef, EntityDef } from '../connectors/catalog/types.js';
import { boundSeconds, firstPageParams, nextPageParams, readCall, readLowerBound, recordsOf, runtimeParams, withDerivedFields, type Partition } from '../connectors/planner.js';
import type { ConnectorRuntime, RuntimePage } from '../connectors/runtime-client.js';
import { AppError, errorLog, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { SearchBackend } from '../search/backend.js';
import { BackgroundShipper, shipAll } from '../search/indexer.js';
import { lookupFields, searchTarget } from '../search/target.js';
import { loadSealedSecret, findConnector, type Connector } from '../store/connectors-repo.js';
import { openJson, type Keyring } from '../store/crypto.js';
import type { DB } from '../store/db.js';
import { getEntityState, markRunEnded, markRunStarted } from '../store/entity-state-repo.js';
import { clearSeen, countLive, dropSupersededSeen, lockEntity, tombstoneUnseen, type PageRecord } from '../store/records-repo.js';
import { claimRun, finishRun, getRun, lockOwnedRun, touchRun } from '../store/runs-repo.js';
import type { RunCheckpoint, SyncRunRow } from '../store/schema.js';
import { BatchWriter } from './batch-writer.js';
import { fetchPage, type RetryPolicy } from './fetch-page.js';
import { PageCycleGuard, pageFingerprint } from './page-cycle.js';
import { prepareRecords, RunNotRunning, writePage } from './page-writer.js';
import { runPartitions } from './run-partitions.js';
import { readFromOf, savedCursor } from './saved-cursor.js';
import { RunProgress, type PartitionClaim } from './run-progress.js';

/** What a run needs. */
export interface SyncDeps {
  readonly db: Kysely<DB>;
  readonly backend: SearchBackend;
  readonly runtime: ConnectorRuntime;
  readonly keyring: Keyring;
  readonly logger: Logger;
  /** Safety net against runaway paging. */
  readonly maxPagesPerRun?: number;
  /** Seconds subtracted from the saved incremental cursor. */
  readonly lookbackSec?: number;
  /** Runs of one connector at once (across all workers); more wait in the queue. Default 2. */
  readonly maxRunsPerConnector?: number;
  /** Most records one page-batch transaction holds (pages arriving during a write wait in it). Default 200. */
  readonly maxBatchRecords?: number;
  /** Partitions of one run read at once (p-limit). Default 2. */
  readonly partitionConcurrency?: number;
  /** Time slices a full read of one long list is split into, where the list allows it. Default 1 (off). */
  readonly timeSlices?: number;
  /** A running run without a heartbeat for this long belongs to a dead worker. Default 120. */
  readonly staleRunSec?: number;
  /** Waits and retries of one page fetch inside a run. Default DEFAULT_RETRY. */
  readonly retryPolicy?: RetryPolicy;
}

/** How a run ended, for the job wrapper. */
/** `stopped`: cancelled by an operator, or superseded by a newer execution of the same run. */
export type RunOutcome = 'succeeded' | 'stopped' | 'skipped' | 'throttled';

interface RunContext {
  readonly run: SyncRunRow;
  readonly connector: Connector;
  readonly connectorDef: ConnectorDef;
  readonly entity: EntityDef;
  readonly credentials: Record<string, unknown>;
  readonly log: Logger;
  readonly signal: AbortSignal | undefined;
  maxCursor: number | null;
  /** The saved cursor never passes this (unix seconds): when the pages behind the checkpoint began to be read. */
  readonly readFrom: number | null;
  /** Fixed for the whole run (and its resumes); see run-partitions.ts. */
  partitions: Partition[];
  readonly shipper: BackgroundShipper;
  /** The entity's lookup fields (their `keys` are written with each record). */
  readonly lookup: readonly string[];
}

function toPageRecords(entity: EntityDef, raw: readonly Record<string, unknown>[], log: Logger): PageRecord[] {
  const out: PageRecord[] = [];
  for (const record of raw) {
    const data = withDerivedFields(entity, record);
    const id = data[entity.idField];
    if (typeof id === 'string' || typeof id === 'number') out.push({ id: String(id), data });
    else log.warn({ idField: entity.idField }, 'record without an id skipped');
  }
  return out;
}

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

function trackCursor(ctx: RunContext, records: readonly Record<string, unknown>[]): void {
  const inc = ctx.entity.read?.incremental;
  if (inc === undefined) return;
  for (const r of records) {
    const s = boundSeconds(inc, r[inc.field]);
    if (s !== null && (ctx.maxCursor === null || s > ctx.maxCursor)) ctx.maxCursor = s;
  }
}

function fetchOne(deps: SyncDeps, ctx: RunContext, params: Record<string, unknown>): Promise<RuntimePage> {
  const call = { connectorType: ctx.connector.connectorType, credentials: ctx.credentials, ...readCall(ctx.entity), params: runtimeParams(ctx.connectorDef, ctx.entity, params) };
  const fetched = fetchPage(deps.runtime, call, { ...(deps.retryPolicy === undefined ? {} : { policy: deps.retryPolicy }), signal: ctx.signal, onRetry: (e, waitMs) => ctx.log.warn({ err: errorLog(e), waitMs }, e.message) });
  // A get read answers for one record: a 404 says it is gone, which a full run then tombstones.
  const p = call.action !== 'get' ? fetched : fetched.catch((e: unknown) => {
    if (isAppError(e) && e.upstreamStatus === 404) return { data: null, meta: {} };
    throw e;
  });
  // Prefetched pages may fail while the current page is written; the failure surfaces when awaited.
  p.catch(() => undefined);
  return p;
}

function batchWriter(deps: SyncDeps, ctx: RunContext): BatchWriter {
  // Shipping needs versions committed in sequence order, so one write at a time; the Postgres
  // backend ships nothing, and two overlapping writes keep both Postgres and the worker busy.
  const overlapWrites = !deps.backend.shipsChanges;
  const run = { id: ctx.run.id, connectorId: ctx.connector.id, entity: ctx.run.entity, mode: ctx.run.mode, attempt: ctx.run.attempts, searchable: ctx.entity.searchable, lookup: ctx.lookup, overlapWrites };
  return new BatchWriter(async (batch, previous, turn) => {
    await writePage(deps.db, run, batch.records, batch.checkpoint, batch.pages, previous, turn);
    ctx.shipper.poke();
  }, deps.maxBatchRecords, overlapWrites ? 2 : 1);
}

/** Shared by the chains of one run: pages read so far and the first failure. */
interface ChainState {
  pages: number;
  failure: { error: unknown } | null;
}

/**
 * Pages through one partition, from its claimed page, into the run's batch writer. Fetching runs
 * one page ahead of the writer. Stops after the page in hand when another chain failed.
 */
async function readChain(deps: SyncDeps, ctx: RunContext, progress: RunProgress, writer: BatchWriter, claim: PartitionClaim, since: number | undefined, state: ChainState): Promise<void> {
  const cap = deps.maxPagesPerRun ?? 1_000_000;
  let params: Record<string, unknown> = claim.page ?? firstPageParams(ctx.entity, ctx.partitions[claim.index] ?? {}, since);
  let pending: Promise<RuntimePage> | null = fetchOne(deps, ctx, params);
  const cycle = new PageCycleGuard();
  while (pending !== null && state.failure === null) {
    if (ctx.signal?.aborted === true) throw new AppError('unavailable', 'worker shutting down; the run resumes from its checkpoint', { retryable: true });
    if (++state.pages > cap) throw new AppError('upstream_error', `page cap of ${cap} reached; stopping a runaway sync`);
    const page = await pending;
    const raw = recordsOf(ctx.entity, page.data);
    const records = toPageRecords(ctx.entity, raw, ctx.log);
    const fingerprint = pageFingerprint(records);
    if (fingerprint !== null && cycle.repeats(fingerprint)) {
      throw new AppError('upstream_error', `paging of ${ctx.entity.name} returned a page it had returned before (at ${JSON.stringify(params).slice(0, 200)}); stopping a runaway sync`);
    }
    const next = nextPageParams(ctx.entity, params, { records: raw, meta: page.meta });
    pending = next === null ? null : fetchOne(deps, ctx, next);
    trackCursor(ctx, raw);
    progress.advance(claim.index, next);
    const checkpoint: RunCheckpoint = { ...progress.snapshot(), maxCursor: ctx.maxCursor, partitions: ctx.partitions, ...(ctx.readFrom === null ? {} : { readFrom: ctx.readFrom }) };
    await writer.add(prepareRecords(records), checkpoint);
    if (next !== null) params = next;
  }
}

/**
 * Reads the run's remaining partitions, up to `partitionConcurrency` at once (p-limit), into one
 * batch writer; returns the pages read so far, or false when the run was cancelled. Pages already
 * read are written with their checkpoint even when a fetch fails or the worker shuts down, so a
 * retry never reads them again.
 */
async function readPartitions(deps: SyncDeps, ctx: RunContext, progress: RunProgress, since: number | undefined, pagesSoFar: number): Promise<number | false> {
  const writer = batchWriter(deps, ctx);
  const state: ChainState = { pages: pagesSoFar, failure: null };
  const limit = pLimit(deps.partitionConcurrency ?? 2);
  const chains = Array.from({ length: progress.remaining() }, () =>
    limit(async () => {
      const claim = state.failure === null ? progress.claim() : null;
      if (claim === null) return;
      await readChain(deps, ctx, progress, writer, claim, since, state).catch((error: unknown) => {
        state.failure ??= { error };
      });
    }),
  );
  await Promise.all(chains);
  try {
    // Keep what was read: write the buffered pages, then fail (a write failure wins).
    await writer.drain();
  } catch (w) {
    if (w instanceof RunNotRunning) return false;
    throw w;
  }
  if (state.failure === null) return state.pages;
  if (state.failure.error instanceof RunNotRunning) return false;
  throw state.failure.error;
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

async function loadContext(deps: SyncDeps, run: SyncRunRow, signal?: AbortSignal): Promise<RunContext> {
  const connector = await findConnector(deps.db, run.connector_id);
  if (connector === null) throw new AppError('not_found', `connector ${run.connector_id} no longer exists`);
  const connectorDef = getConnectorDef(connector.connectorType);
  const entity = getEntityDef(connectorDef, run.entity);
  const sealed = await loadSealedSecret(deps.db, connector.id);
  const credentials = openJson<Record<string, unknown>>(deps.keyring, sealed.keyId, sealed.ciphertext, connector.id);
  const log = deps.logger.child({ connector: connector.id, entity: run.entity, runId: run.id });
  const maxCursor = typeof run.checkpoint?.maxCursor === 'number' ? run.checkpoint.maxCursor : null;
  const shipper = new BackgroundShipper(deps, connector.id, searchTarget(connector.connectorType, run.entity));
  return { run, connector, connectorDef, entity, credentials, log, signal, maxCursor, readFrom: readFromOf(run), partitions: [], shipper, lookup: lookupFields(entity) };
}

function partitionSource(deps: SyncDeps, ctx: RunContext, since: number | undefined): Parameters<typeof runPartitions>[0] {
  const { connectorDef, entity, credentials, log, signal } = ctx;
  const cap = deps.maxPagesPerRun === undefined ? {} : { maxPages: deps.maxPagesPerRun };
  const slicing = { timeSlices: deps.timeSlices ?? 1, mode: ctx.run.mode, since };
  return { db: deps.db, runtime: deps.runtime, connector: connectorDef, entity, credentials, config: ctx.connector.replicationConfig, log, signal, ...cap, ...slicing };
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
  try {
    return await executeClaimed(deps, run, signal);
  } finally {
    clearInterval(beat);
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
  await deps.backend.ensureIndex(deps.db, searchTarget(ctx.connector.connectorType, run.entity));
  // Versions already waiting go out even if this run fails before its first page: a reset's
  // tombstones (its run failing on a 401 while resolving parents) or a ship that failed before.
  ctx.shipper.poke();
  const cp = run.checkpoint ?? { partition: 0, page: null };
  const since = await sinceFor(deps, ctx);
  const partitions = await runPartitions(partitionSource(deps, ctx, since), run, cp);
  ctx.partitions = partitions;
  ctx.log.info({ mode: run.mode, partitions: partitions.length, resumeAt: { partition: cp.partition, page: cp.page }, attempt: run.attempts }, 'sync run started');
  return readPartitions(deps, ctx, new RunProgress(cp, partitions.length), since, run.pages);
}

async function executeClaimed(deps: SyncDeps, run: SyncRunRow, signal?: AbortSignal): Promise<RunOutcome> {
  const ctx = await loadContext(deps, run, signal);
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
  } finally {
    // Whatever happened, pages already written reach the index before the job ends.
    await ctx.shipper.drain().catch((e: unknown) => ctx.log.warn({ err: errorLog(e) }, 'index shipping failed; the next run ships it'));
  }
  try {
    await finishSuccess(deps, ctx);
  } catch (e) {
    if (e instanceof RunNotRunning) return 'stopped';
    throw e;
  }
  ctx.log.info({ pages }, 'sync run succeeded');
  return 'succeeded';
}
