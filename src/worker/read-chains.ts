/**
 * The read loop of a run: its remaining partitions, each a chain of pages read one ahead of the
 * run's batch writer, up to `partitionConcurrency` chains at once.
 */
import pLimit from 'p-limit';
import { boundSeconds, checkPageMeta, firstPageParams, nextPageParams, readCall, recordsOf, reportedTotal, runtimeParams, type Partition } from '../connectors/planner.js';
import type { RuntimePage } from '../connectors/runtime-client.js';
import { AppError, errorLog, isAppError } from '../errors.js';
import type { RunCheckpoint } from '../store/schema.js';
import { BatchWriter } from './batch-writer.js';
import { fetchPage } from './fetch-page.js';
import { listMissing, type GonePartitions } from './gone-partitions.js';
import { PageCycleGuard, pageFingerprint } from './page-cycle.js';
import { prepareRecords, RunNotRunning, writePage } from './page-writer.js';
import { toPageRecords } from './page-records.js';
import { statsKeeper } from '../store/table-stats.js';
import type { RunContext, SyncDeps } from './run-context.js';
import type { PartitionClaim, RunProgress } from './run-progress.js';

function trackCursor(ctx: RunContext, records: readonly Record<string, unknown>[]): void {
  const inc = ctx.entity.read?.incremental;
  if (inc === undefined) return;
  for (const r of records) {
    const s = boundSeconds(inc, r[inc.field]);
    if (s !== null && (ctx.maxCursor === null || s > ctx.maxCursor)) ctx.maxCursor = s;
  }
}

/**
 * A page's 404: a get read answers for one record, so it says the record is gone (a full run then
 * tombstones it); a child list answers it when its parent was deleted since the run planned its
 * partitions (null: an empty partition, see gone-partitions.ts). Any other 404 fails the run.
 */
/** Keeps the list's reported size when the run reads one list: several partitions' totals would each be a part. */
function noteTotal(ctx: RunContext, page: RuntimePage | null): void {
  const paging = ctx.entity.read?.paging;
  if (page === null || paging === undefined || ctx.partitions.length > 1) return;
  const total = reportedTotal(paging, page.meta);
  if (total !== null) ctx.reportedTotal = total;
}

async function on404(ctx: RunContext, state: ChainState, partition: Partition, e: AppError): Promise<RuntimePage | null> {
  if (readCall(ctx.entity).action === 'get') return { data: null, meta: {} };
  if (!(await state.gone.isGone(partition))) throw listMissing(e, ctx.entity, partition);
  ctx.log.warn({ partition, err: errorLog(e) }, 'child list answered 404 and its parent is no longer listed: read as an empty partition');
  return null;
}

/** Before a page waits out a 429 or a backoff: a cancel or pause meanwhile must end the wait. */
function onWait(ctx: RunContext, e: AppError, waitMs: number): void {
  ctx.stop.waiting(waitMs);
  ctx.log.warn({ err: errorLog(e), waitMs }, e.message);
}

/** A page of `partition`, or null when the partition is gone with its parent. */
function fetchOne(deps: SyncDeps, ctx: RunContext, state: ChainState, partition: Partition, params: Record<string, unknown>): Promise<RuntimePage | null> {
  const call = { connectorType: ctx.connector.connectorType, credentials: ctx.credentials, ...readCall(ctx.entity), params: runtimeParams(ctx.connectorDef, ctx.entity, params) };
  const fetched = fetchPage(deps.runtime, call, {
    ...(deps.retryPolicy === undefined ? {} : { policy: deps.retryPolicy }),
    signal: ctx.signal,
    gate: ctx.gate,
    onRetry: (e, waitMs) => onWait(ctx, e, waitMs),
    accept: (page) => checkPageMeta(ctx.entity, page.meta),
  });
  const p = fetched.catch((e: unknown) => {
    if (isAppError(e) && e.upstreamStatus === 404) return on404(ctx, state, partition, e);
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
  // The Postgres search structures (lookup keys, text, words) cost writes only where Postgres answers searches.
  const searchesHere = deps.backend.kind === 'postgres';
  const run = { id: ctx.run.id, connectorId: ctx.connector.id, entity: ctx.run.entity, mode: ctx.run.mode, attempt: ctx.run.attempts, searchable: ctx.entity.searchable, lookup: searchesHere ? ctx.lookup : [], overlapWrites, text: searchesHere };
  return new BatchWriter(async (batch, previous, turn) => {
    const written = await writePage(deps.db, run, batch.records, batch.checkpoint, batch.pages, previous, turn);
    ctx.shipper.poke();
    const stats = statsKeeper(deps.db, deps.logger);
    stats.wrote(written.inserted + written.updated, { connectorId: run.connectorId, entity: run.entity });
    stats.poke();
  }, deps.maxBatchRecords, overlapWrites ? 2 : 1);
}

/** Shared by the chains of one run: pages read so far, the first failure, partitions gone with their parent. */
interface ChainState {
  pages: number;
  failure: { error: unknown } | null;
  readonly gone: GonePartitions;
}

/**
 * Pages through one partition, from its claimed page, into the run's batch writer. Fetching runs
 * one page ahead of the writer. Stops after the page in hand when another chain failed.
 */
async function readChain(deps: SyncDeps, ctx: RunContext, progress: RunProgress, writer: BatchWriter, claim: PartitionClaim, since: number | undefined, state: ChainState): Promise<void> {
  const cap = deps.maxPagesPerRun ?? 1_000_000;
  const partition = ctx.partitions[claim.index] ?? {};
  let params: Record<string, unknown> = claim.page ?? firstPageParams(ctx.entity, partition, since);
  let pending: Promise<RuntimePage | null> | null = fetchOne(deps, ctx, state, partition, params);
  const cycle = new PageCycleGuard();
  while (pending !== null && state.failure === null) {
    if (ctx.signal?.aborted === true) throw new AppError('unavailable', 'worker shutting down; the run resumes from its checkpoint', { retryable: true });
    if (++state.pages > cap) throw new AppError('upstream_error', `page cap of ${cap} reached; stopping a runaway sync`);
    const page: RuntimePage | null = await pending;
    const raw: Record<string, unknown>[] = page === null ? [] : recordsOf(ctx.entity, page.data);
    const records = toPageRecords(ctx.entity, page, raw, ctx.log);
    const fingerprint = pageFingerprint(records);
    if (fingerprint !== null && cycle.repeats(fingerprint)) {
      throw new AppError('upstream_error', `paging of ${ctx.entity.name} returned a page it had returned before (at ${JSON.stringify(params).slice(0, 200)}); stopping a runaway sync`);
    }
    const next: Record<string, unknown> | null = page === null ? null : nextPageParams(ctx.entity, params, { records: raw, meta: page.meta });
    pending = next === null ? null : fetchOne(deps, ctx, state, partition, next);
    trackCursor(ctx, raw);
    progress.advance(claim.index, next);
    noteTotal(ctx, page);
    const checkpoint: RunCheckpoint = { ...progress.snapshot(), maxCursor: ctx.maxCursor, partitions: ctx.partitions, ...(ctx.readFrom === null ? {} : { readFrom: ctx.readFrom }), ...(ctx.reportedTotal === undefined ? {} : { reportedTotal: ctx.reportedTotal }) };
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
export async function readPartitions(deps: SyncDeps, ctx: RunContext, progress: RunProgress, since: number | undefined, pagesSoFar: number, gone: GonePartitions): Promise<number | false> {
  const writer = batchWriter(deps, ctx);
  const state: ChainState = { pages: pagesSoFar, failure: null, gone };
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
