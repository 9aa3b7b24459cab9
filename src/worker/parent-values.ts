/**
 * Partitions of an entity resolved through the runtime: parent values come from paging the
 * parent's own read (recursively for parents that are themselves partitioned), so an entity never
 * depends on its parent having been synced first. No store access: the sync runner and tests
 * (with an in-process sandbox) share it.
 */
import { getEntityDef } from '../connectors/catalog/index.js';
import type { ConnectorDef, EntityDef } from '../connectors/catalog/types.js';
import {
  checkPageMeta,
  firstPageParams,
  nextPageParams,
  parentDims,
  parentKey,
  parentValueOf,
  planPartitions,
  readCall,
  recordsOf,
  runtimeParams,
  type ParentDim,
  type ParentValue,
  type ParentValues,
  type Partition,
} from '../connectors/planner.js';
import type { ConnectorRuntime } from '../connectors/runtime-client.js';
import pLimit from 'p-limit';
import { AppError } from '../errors.js';
import { fetchPage, type CallGate, type RetryPolicy } from './fetch-page.js';

/** What reading through the runtime needs. */
export interface ReadContext {
  readonly runtime: ConnectorRuntime;
  readonly connector: ConnectorDef;
  readonly credentials: Record<string, unknown>;
  readonly config: Record<string, unknown>;
  readonly signal?: AbortSignal | undefined;
  readonly policy?: RetryPolicy;
  /** Page cap of one partition read (runaway guard). */
  readonly maxPages?: number;
  readonly onRetry?: (e: AppError, waitMs: number) => void;
  /** The connector's rate-limit hold, shared with every run of it. */
  readonly gate?: CallGate;
}

/** Nesting deeper than this is a catalog cycle, not data. */
const MAX_DEPTH = 8;

/** Resolution memo of one run: partitions per entity, values per parent key. */
type Memo = Map<string, Promise<Partition[] | ParentValue[]>>;

/** One page of an entity's read with `params`, under the context's retry policy. */
export async function fetchRecords(rc: ReadContext, entity: EntityDef, params: Record<string, unknown>): Promise<{ records: Record<string, unknown>[]; meta: Record<string, unknown> }> {
  const call = readCall(entity);
  const runtimeCall = { connectorType: rc.connector.key, credentials: rc.credentials, entity: call.entity, action: call.action, params: runtimeParams(rc.connector, entity, params) };
  const page = await fetchPage(rc.runtime, runtimeCall, {
    ...(rc.policy === undefined ? {} : { policy: rc.policy }),
    ...(rc.signal === undefined ? {} : { signal: rc.signal }),
    ...(rc.onRetry === undefined ? {} : { onRetry: rc.onRetry }),
    ...(rc.gate === undefined ? {} : { gate: rc.gate }),
    accept: (p) => checkPageMeta(entity, p.meta),
  });
  return { records: recordsOf(entity, page.data), meta: page.meta };
}

/** Pages through one partition of an entity's read (no incremental bound), yielding each page's records. */
export async function* readPartition(rc: ReadContext, entity: EntityDef, partition: Partition): AsyncGenerator<Record<string, unknown>[]> {
  let params: Record<string, unknown> | null = firstPageParams(entity, partition);
  for (let pages = 1; params !== null; pages++) {
    if (rc.signal?.aborted === true) throw new AppError('unavailable', 'worker shutting down; the run resumes from its checkpoint', { retryable: true });
    if (pages > (rc.maxPages ?? 100_000)) throw new AppError('upstream_error', `page cap reached while reading ${entity.name}; stopping a runaway read`);
    const page = await fetchRecords(rc, entity, params);
    params = nextPageParams(entity, params, page);
    yield page.records;
  }
}

/** Parent partitions read at once per dimension: bounded so a run never floods the third party. */
export const PARENT_READ_CONCURRENCY = 4;

async function readParentValues(rc: ReadContext, dim: ParentDim, memo: Memo, depth: number): Promise<ParentValue[]> {
  const parent = getEntityDef(rc.connector, dim.entity);
  const limit = pLimit(PARENT_READ_CONCURRENCY);
  const partitions = await partitionsOf(rc, parent, memo, depth + 1);
  // Promise.all keeps partition order, so the planned partition list stays deterministic.
  const perPartition = await Promise.all(
    partitions.map((partition) =>
      limit(async () => {
        const out: ParentValue[] = [];
        for await (const records of readPartition(rc, parent, partition)) {
          for (const r of records) {
            const value = parentValueOf(dim, parent, r);
            if (value !== null) out.push({ value, partition });
          }
        }
        return out;
      }),
    ),
  );
  return perPartition.flat();
}

function memoized<T extends Partition[] | ParentValue[]>(memo: Memo, key: string, make: () => Promise<T>): Promise<T> {
  let p = memo.get(key) as Promise<T> | undefined;
  if (p === undefined) {
    p = make();
    memo.set(key, p);
  }
  return p;
}

async function partitionsOf(rc: ReadContext, entity: EntityDef, memo: Memo, depth: number): Promise<Partition[]> {
  if (depth > MAX_DEPTH) throw new AppError('internal', `parents of ${entity.name} nest deeper than ${MAX_DEPTH}`);
  return memoized(memo, `partitions:${entity.name}`, async () => {
    const parents: Record<string, readonly ParentValue[]> = {};
    // Sequential on purpose: parent reads share the runtime's rate limit with the run itself.
    for (const dim of parentDims(entity)) {
      parents[parentKey(dim)] ??= await memoized(memo, `values:${parentKey(dim)}`, () => readParentValues(rc, dim, memo, depth));
    }
    return planPartitions(entity, rc.config, parents as ParentValues);
  });
}

/** The partitions of an entity, parent values read through the runtime. */
export function resolvePartitions(rc: ReadContext, entity: EntityDef): Promise<Partition[]> {
  return partitionsOf(rc, entity, new Map(), 0);
}
