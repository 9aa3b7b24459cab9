/**
 * Page requests of one partition: the first page's params and, from a fetched page, the next
 * page's params (or null at the end), in each paging style the catalog names.
 */
import { AppError } from '../../errors.js';
import { pageSpans, type Span } from '../record-spans.js';
import type { EntityDef, PagingSpec, ReadSpec } from '../catalog/types.js';
import { formatBound } from './incremental.js';
import type { Partition } from './partitions.js';
import { readOf } from './read.js';

/** A fetched page as the planner needs it. */
export interface FetchedPage {
  readonly records: readonly Record<string, unknown>[];
  readonly meta: Record<string, unknown>;
}

/** The value at a dot path (`pagination.cursor`, `next_page.offset`); undefined when absent. */
export function metaAt(meta: unknown, path: string): unknown {
  let node: unknown = meta;
  for (const key of path.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** An export whose cursor is its own incremental bound (live-chat `start_time`). */
function isTimeExport(read: ReadSpec): boolean {
  return read.paging.style === 'token' && read.incremental !== undefined && read.incremental.param === read.paging.param;
}

/**
 * Params of the first page of a partition: fixed params, the partition, the largest allowed page
 * size and, in incremental runs, the lower bound. A time export starts at epoch 0 in full runs,
 * because its cursor param is required by such APIs and "from the beginning" is what a full run means.
 */
export function firstPageParams(entity: EntityDef, partition: Partition, sinceSec?: number): Record<string, unknown> {
  const read = readOf(entity);
  const params: Record<string, unknown> = { ...read.fixedParams, ...partition };
  if (read.pageSize !== undefined) params[read.pageSize.param] = read.pageSize.max;
  // A time slice carries its own lower bound (already at or after the run's): keep it.
  if (read.incremental !== undefined && sinceSec !== undefined && !(read.incremental.param in partition)) params[read.incremental.param] = formatBound(read.incremental, sinceSec);
  else if (read.incremental !== undefined && isTimeExport(read)) params[read.incremental.param] = formatBound(read.incremental, 0);
  if (read.paging.style === 'page') params[read.paging.param] = read.paging.start ?? 1;
  if (read.paging.style === 'offset') params[read.paging.param] = 0;
  return params;
}

/**
 * A token as the next request carries it. Runtimes that hand back the vendor's next-page URL
 * carry the token in its query string; numeric tokens stay numbers when the previous one was
 * (the reference types live-chat's `next_page` as a string, its `start_time` param as an int).
 */
function tokenValue(raw: unknown, param: string, prev: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const value = /^https?:\/\//.test(raw) ? new URL(raw).searchParams.get(param) : raw;
  if (value === null) return undefined;
  return typeof prev === 'number' && /^\d+$/.test(value) ? Number(value) : value;
}

type Step = { readonly next: unknown } | null;

/**
 * A page whose own flag says more remain (`hasNextPage: true`, `isLast: false`) but whose cursor
 * is null, absent or empty: the reference types both `T?`, so the shape is allowed, but it is no
 * end. Reading on is impossible and stopping would take every record after it as deleted, so the
 * page is answered as a retryable upstream failure: asked again, and the run fails if it stays so.
 * Without such a flag a null cursor is the end of the list (overview: "null when no further page").
 */
export function checkPageMeta(entity: EntityDef, meta: Record<string, unknown>): void {
  const paging = entity.read?.paging;
  if (paging?.style !== 'token' || paging.flag === undefined) return;
  const flag = metaAt(meta, paging.flag.path);
  const token = metaAt(meta, paging.from);
  if (flag !== !paging.flag.doneWhen || (token !== undefined && token !== null && token !== '')) return;
  const shown = token === undefined ? 'absent' : JSON.stringify(token);
  throw new AppError('upstream_error', `${entity.name}: the page says more remain (meta.${paging.flag.path} = ${String(flag)}) but gives no cursor (meta.${paging.from} ${shown}); reading on is impossible, and ending here would take the rest of the list as deleted`, { retryable: true, path: `meta.${paging.from}` });
}

function nextToken(entity: EntityDef, paging: Extract<PagingSpec, { style: 'token' }>, prev: Record<string, unknown>, page: FetchedPage): Step {
  if (paging.flag !== undefined && metaAt(page.meta, paging.flag.path) === paging.flag.doneWhen) return null;
  checkPageMeta(entity, page.meta);
  const next = tokenValue(metaAt(page.meta, paging.from), paging.param, prev[paging.param]);
  if (next === undefined || next === null || next === '') return null;
  if (paging.endWhenUnchanged === true && String(next) === String(prev[paging.param])) return null;
  return { next };
}

function nextLastId(entity: EntityDef, paging: Extract<PagingSpec, { style: 'last_id' }>, page: FetchedPage): Step {
  const more = paging.hasMore === undefined ? page.records.length > 0 : metaAt(page.meta, paging.hasMore) === true;
  if (!more || page.records.length === 0) return null;
  return { next: page.records[page.records.length - 1]?.[entity.idField] };
}

/** Offset paging ends at the reported total; without one, at an empty or short page. */
function nextOffset(paging: Extract<PagingSpec, { style: 'offset' }>, prev: Record<string, unknown>, page: FetchedPage, size: number | undefined): Step {
  if (page.records.length === 0) return null;
  const offset = Number(prev[paging.param] ?? 0) + page.records.length;
  if (paging.total !== undefined) {
    const total = Number(metaAt(page.meta, paging.total));
    if (Number.isFinite(total)) return offset >= total ? null : { next: offset };
  }
  return size !== undefined && page.records.length < size ? null : { next: offset };
}

/** The number of records the list holds, where its paging reports one (offset paging's `total`); else null. */
export function reportedTotal(paging: PagingSpec, meta: Record<string, unknown>): number | null {
  if (paging.style !== 'offset' || paging.total === undefined) return null;
  const total = Number(metaAt(meta, paging.total));
  return Number.isSafeInteger(total) && total >= 0 ? total : null;
}

/** Meta paths by which runtimes announce another page (the paging styles of the catalog's kinds). */
const MORE_PATHS = ['has_more', 'next_page', 'next_cursor', 'next', 'nextPageToken', 'next_page_token', 'next_link', 'pagination.cursor', 'links.next'];

/** The meta path announcing another page, or null. */
function announcedMore(meta: Record<string, unknown>): string | null {
  for (const path of MORE_PATHS) {
    const v = metaAt(meta, path);
    if (v === true || typeof v === 'number' || (typeof v === 'string' && v !== '') || (typeof v === 'object' && v !== null)) return path;
  }
  return null;
}

/**
 * A list read whole (the reference shows no paging for it) whose answer announces another page:
 * reading on is impossible (no paging spec) and stopping would store page 1 as the whole list,
 * which a full run then reconciles by tombstoning the rest. Fail the run loudly instead.
 */
function assertWhole(entity: EntityDef, page: FetchedPage): void {
  const path = announcedMore(page.meta);
  if (path === null) return;
  throw new AppError('upstream_error', `${entity.name} is read in one call, but the runtime announced another page (meta.${path}); the catalog's read of it needs paging, so the run stops before taking one page for the whole list`, { path: `meta.${path}` });
}

function step(entity: EntityDef, read: ReadSpec, prev: Record<string, unknown>, page: FetchedPage): Step {
  const paging = read.paging;
  const size = read.pageSize === undefined ? undefined : Number(prev[read.pageSize.param] ?? read.pageSize.max);
  switch (paging.style) {
    case 'none':
      if (read.action !== 'get') assertWhole(entity, page);
      return null;
    case 'last_id':
      return nextLastId(entity, paging, page);
    case 'token':
      return nextToken(entity, paging, prev, page);
    case 'page':
      if (page.records.length === 0 || (size !== undefined && page.records.length < size)) return null;
      return { next: Number(prev[paging.param] ?? paging.start ?? 1) + 1 };
    case 'offset':
      return nextOffset(paging, prev, page, size);
  }
}

/**
 * Params of the next page, or null when the partition is exhausted. Throws when paging would
 * not advance (the same cursor again), so a misbehaving upstream cannot loop forever; a token
 * paging with `endWhenUnchanged` ends there instead.
 */
export function nextPageParams(entity: EntityDef, prev: Record<string, unknown>, page: FetchedPage): Record<string, unknown> | null {
  const read = readOf(entity);
  const s = step(entity, read, prev, page);
  if (s === null || s.next === undefined || s.next === null || read.paging.style === 'none') return null;
  const param = read.paging.param;
  if (s.next === prev[param]) {
    throw new AppError('upstream_error', `paging of ${entity.name} did not advance (${param}=${String(s.next)}); stopping a runaway sync`, { path: param });
  }
  return { ...prev, [param]: s.next };
}

const isRecord = (r: unknown): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r);

/** Where a list read's records lie in the runtime's `data`, and that value (an array when the page is whole). */
function recordList(entity: EntityDef, data: unknown): { readonly path: readonly string[]; readonly list: unknown } {
  const path = entity.read?.recordsPath;
  return path === undefined ? { path: [], list: data } : { path: path.split('.'), list: metaAt(data, path) };
}

/**
 * The records array of a runtime page (`data`, or a nested path for envelope-style results); a
 * `get` read's `data` is the one record.
 */
export function recordsOf(entity: EntityDef, data: unknown): Record<string, unknown>[] {
  if (entity.read?.action === 'get') {
    // null: the record does not exist (the worker turns a get's 404 into that).
    if (data === null) return [];
    if (typeof data === 'object' && !Array.isArray(data)) return [data as Record<string, unknown>];
    throw new AppError('upstream_error', `runtime answer to ${entity.name} get is not a record`, { retryable: true });
  }
  const { list } = recordList(entity, data);
  if (!Array.isArray(list)) throw new AppError('upstream_error', `runtime page of ${entity.name} has no record list`, { retryable: true });
  return list.filter(isRecord);
}

/**
 * Where {@link recordsOf}'s records lie in the page's bytes (`body`, the JSON the runtime sent),
 * in the same order; null when the bytes cannot tell them apart (then each record is serialized
 * again from its parsed form).
 */
export function recordSpans(entity: EntityDef, data: unknown, body: Uint8Array): Span[] | null {
  if (entity.read?.action === 'get') return isRecord(data) ? pageSpans(body, ['data'], false) : null;
  const { path, list } = recordList(entity, data);
  if (!Array.isArray(list)) return null;
  const spans = pageSpans(body, ['data', ...path], true);
  return spans === null || spans.length !== list.length ? null : spans.filter((_, i) => isRecord(list[i]));
}
