/**
 * Replication planning (pure): partitions of an entity and the params of each page request,
 * obeying required params, the largest allowed page size and each paging style.
 */
import { AppError } from '../errors.js';
import type { EntityDef, IncrementalSpec, ReadSpec } from './catalog/types.js';

/** Params that select one partition (e.g. `{account_id: "123"}`); `{}` for unpartitioned entities. */
export type Partition = Readonly<Record<string, string>>;

/** Values of parent partitions, by parent entity name (resolved by the worker from the store). */
export type ParentValues = Readonly<Record<string, readonly string[]>>;

function readOf(entity: EntityDef): ReadSpec {
  if (entity.read === undefined) throw new AppError('invalid_request', `${entity.name} cannot be replicated: it has no list action`, { path: 'entity' });
  return entity.read;
}

/** Cartesian product of the entity's partition dimensions. */
export function planPartitions(entity: EntityDef, config: Record<string, unknown>, parents: ParentValues = {}): Partition[] {
  let out: Partition[] = [{}];
  for (const dim of readOf(entity).partitions ?? []) {
    let values: readonly string[];
    if (dim.kind === 'values') values = dim.values;
    else if (dim.kind === 'config') {
      const raw = config[dim.configField];
      values = (Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(',')).map((v) => v.trim()).filter((v) => v !== '');
      if (values.length === 0) throw new AppError('invalid_request', `${dim.configField} is required to replicate ${entity.name}`, { path: `replication_config.${dim.configField}` });
    } else values = parents[dim.entity] ?? [];
    out = out.flatMap((p) => values.map((v) => ({ ...p, [dim.param]: v })));
  }
  return out;
}

/** Formats an incremental lower bound in the param's encoding. */
export function formatBound(inc: IncrementalSpec, sec: number): string | number {
  if (inc.format === 'unix') return Math.floor(sec);
  const iso = new Date(Math.floor(sec) * 1000).toISOString();
  return inc.format === 'date' ? iso.slice(0, 10) : iso;
}

/** Parses a record's incremental field into epoch seconds (null when absent or unparseable). */
export function boundSeconds(inc: IncrementalSpec, value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return inc.format === 'unix' ? value : value / 1000;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms / 1000;
  }
  return null;
}

/** Params of the first page of a partition: fixed params, largest page size, optional lower bound. */
export function firstPageParams(entity: EntityDef, partition: Partition, sinceSec?: number): Record<string, unknown> {
  const read = readOf(entity);
  const params: Record<string, unknown> = { ...read.fixedParams, ...partition };
  if (read.pageSize !== undefined) params[read.pageSize.param] = read.pageSize.max;
  if (sinceSec !== undefined && read.incremental !== undefined) params[read.incremental.param] = formatBound(read.incremental, sinceSec);
  if (read.paging.style === 'page') params[read.paging.param] = read.paging.start ?? 1;
  if (read.paging.style === 'offset') params[read.paging.param] = 0;
  return params;
}

function metaAt(meta: Record<string, unknown>, path: string): unknown {
  let node: unknown = meta;
  for (const key of path.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** A fetched page as the planner needs it. */
export interface FetchedPage {
  readonly records: readonly Record<string, unknown>[];
  readonly meta: Record<string, unknown>;
}

/**
 * Params of the next page, or null when the partition is exhausted. Throws when paging would
 * not advance (the same cursor again), so a misbehaving upstream cannot loop forever.
 */
export function nextPageParams(entity: EntityDef, prev: Record<string, unknown>, page: FetchedPage): Record<string, unknown> | null {
  const read = readOf(entity);
  const paging = read.paging;
  const size = read.pageSize === undefined ? undefined : Number(prev[read.pageSize.param] ?? read.pageSize.max);
  let next: unknown;
  switch (paging.style) {
    case 'none':
      return null;
    case 'last_id': {
      const more = paging.hasMore === undefined ? page.records.length > 0 : metaAt(page.meta, paging.hasMore) === true;
      if (!more || page.records.length === 0) return null;
      next = page.records[page.records.length - 1]?.[entity.idField];
      break;
    }
    case 'token': {
      next = metaAt(page.meta, paging.from);
      if (paging.flag !== undefined && metaAt(page.meta, paging.flag.path) === paging.flag.doneWhen) return null;
      if (next === undefined || next === null || next === '') return null;
      break;
    }
    case 'page':
      if (page.records.length === 0 || (size !== undefined && page.records.length < size)) return null;
      next = Number(prev[paging.param] ?? paging.start ?? 1) + 1;
      break;
    case 'offset': {
      const offset = Number(prev[paging.param] ?? 0) + page.records.length;
      const total = paging.total === undefined ? undefined : Number(metaAt(page.meta, paging.total));
      if (page.records.length === 0 || (total !== undefined && offset >= total) || (size !== undefined && page.records.length < size)) return null;
      next = offset;
      break;
    }
  }
  if (next === undefined || next === null) return null;
  if (next === prev[paging.param]) {
    throw new AppError('upstream_error', `paging of ${entity.name} did not advance (${paging.param}=${String(next)}); stopping a runaway sync`, { path: paging.param });
  }
  return { ...prev, [paging.param]: next };
}

/** The records array of a runtime page (`data`, or a nested path for envelope-style results). */
export function recordsOf(entity: EntityDef, data: unknown): Record<string, unknown>[] {
  const path = entity.read?.recordsPath;
  const list = path === undefined ? data : metaAt(data as Record<string, unknown>, path);
  if (!Array.isArray(list)) throw new AppError('upstream_error', `runtime page of ${entity.name} has no record list`, { retryable: true });
  return list.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r));
}
