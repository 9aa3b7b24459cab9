/**
 * Serves one list/api_search call from a dataset in the action's own paging style: last id,
 * opaque tokens at the catalog's meta path, page numbers, offsets with totals, whole lists, and
 * the incremental export whose cursor is its own time bound. Params are checked before this.
 */
import type { PagingSpec } from '../connectors/catalog/types.js';
import { formatTime } from '../connectors/planner.js';
import { AppError } from '../errors.js';
import { bad } from './check-params.js';
import type { Dataset } from './dataset.js';
import { metaFor } from './meta.js';
import type { ServeSpec } from './serve-spec.js';

/** The runtime protocol's success body. */
export interface ListResponse {
  data: Record<string, unknown>[];
  meta: Record<string, unknown>;
}

/** The runtime protocol's success body for a get: the record itself. */
export interface GetResponse {
  data: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/** Answers a get from a one-record dataset; a deleted record is a 404, as the vendor's would be. */
export function serveGet(entity: string, ds: Dataset): GetResponse {
  const record = ds.all()[0];
  if (record === undefined) throw new AppError('not_found', `${entity} does not exist (deleted)`, { path: 'params' });
  return { data: record, meta: {} };
}

/** One call to serve. */
export interface ServeCall {
  readonly kind: string;
  readonly entity: string;
  readonly spec: ServeSpec;
  readonly ds: Dataset;
  readonly params: Record<string, unknown>;
  /** Pre-rendered records may be served as their JSON text alone (dataset.ts `RENDERED`). */
  readonly textOnly?: boolean;
}

/** Pages without a size param are capped the way such APIs cap them. */
const DEFAULT_CAP = 100;

function pageSizeOf(spec: ServeSpec, params: Record<string, unknown>): number {
  if (spec.paging.style === 'none') return Number.MAX_SAFE_INTEGER;
  if (spec.pageSize === undefined) return DEFAULT_CAP;
  const raw = params[spec.pageSize.param];
  return typeof raw === 'number' ? raw : spec.pageSize.default ?? spec.pageSize.max;
}

/** Opaque tokens for token-style paging: the raw position, base64url. */
const encodeToken = (pos: number): string => Buffer.from(`p:${pos}`).toString('base64url');
function decodeToken(token: unknown, param: string): number {
  const m = typeof token === 'string' ? /^p:(\d+)$/.exec(Buffer.from(token, 'base64url').toString()) : null;
  if (m === null) throw bad(`${param} is not a valid page token`, param);
  return Number(m[1]);
}

function startOf(paging: PagingSpec, ds: Dataset, params: Record<string, unknown>, size: number): number {
  switch (paging.style) {
    case 'last_id': {
      const after = params[paging.param];
      if (after === undefined) return 0;
      const pos = ds.positionAfterId(after);
      if (pos < 0) throw bad(`no such object: ${String(after)}`, paging.param);
      return pos;
    }
    case 'token':
      return params[paging.param] === undefined ? 0 : decodeToken(params[paging.param], paging.param);
    case 'page':
      return ds.rawPositionOfLive((Number(params[paging.param] ?? paging.start ?? 1) - (paging.start ?? 1)) * size);
    case 'offset':
      return ds.rawPositionOfLive(Number(params[paging.param] ?? 0));
    case 'none':
      return 0;
  }
}

/** A time bound param (the incremental lower bound, or its exclusive upper bound) in seconds. */
function timeBound(spec: ServeSpec, params: Record<string, unknown>, which: 'param' | 'upperParam'): number | undefined {
  const inc = spec.incremental;
  const name = inc?.[which];
  const raw = name === undefined ? undefined : params[name];
  if (inc === undefined || name === undefined || raw === undefined) return undefined;
  const sec = (inc.paramFormat ?? inc.format) === 'unix' ? Number(raw) : Date.parse(String(raw)) / 1000;
  if (!Number.isFinite(sec)) throw bad(`${name} is not a valid ${inc.paramFormat ?? inc.format} value`, name);
  return sec;
}

const isTimeExport = (spec: ServeSpec): boolean =>
  spec.paging.style === 'token' && spec.incremental !== undefined && spec.paging.param === spec.incremental.param;

/**
 * The export: records at or after the bound, oldest first; `next_page` is just past the last one
 * returned, or the bound itself when nothing is left (the token stops advancing: the end).
 */
function serveExport(c: ServeCall, size: number, since: number): ListResponse {
  const inc = c.spec.incremental;
  const { records, lastSec } = c.ds.sliceSince(since, size, c.textOnly);
  const next = formatTime(inc?.paramFormat ?? inc?.format ?? 'unix', lastSec === null ? since : lastSec + 1);
  const from = c.spec.paging.style === 'token' ? c.spec.paging.from : 'next_page';
  // The reference types the export's `next_page` as a string (its `start_time` param as an int).
  return { data: records, meta: { [from]: String(next), count: records.length } };
}

/** Answers one list call from the call's dataset. */
export function serveList(c: ServeCall): ListResponse {
  const { spec, ds, params } = c;
  const size = pageSizeOf(spec, params);
  const since = timeBound(spec, params, 'param');
  if (isTimeExport(spec)) return serveExport(c, size, since ?? 0);
  const end = since === undefined ? ds.rawLength : ds.rawLengthSince(since);
  // Newest first: records created before an upper bound start where the newer ones end.
  const upper = timeBound(spec, params, 'upperParam');
  const start = Math.max(startOf(spec.paging, ds, params, size), upper === undefined ? 0 : ds.rawLengthSince(upper));
  const { records, next } = ds.slice(start, size, end, c.textOnly);
  const more = ds.hasLiveFrom(next, end);
  const meta = metaFor({
    kind: c.kind,
    entity: c.entity,
    spec,
    more,
    token: more ? encodeToken(next) : null,
    returned: records.length,
    skipped: ds.liveBefore(Math.min(start, end)),
    size,
    total: () => ds.liveBefore(end),
  });
  return { data: records, meta };
}
