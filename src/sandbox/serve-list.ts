/**
 * Serves one list/api_search call from a dataset, in the entity's own paging style, enforcing
 * its page-size limits and required params the way the third party would (400s).
 */
import type { EntityDef, PagingSpec, ReadSpec } from '../connectors/catalog/types.js';
import { AppError } from '../errors.js';
import type { Dataset } from './dataset.js';

/** The runtime protocol's success body. */
export interface ListResponse {
  data: Record<string, unknown>[];
  meta: Record<string, unknown>;
}

const bad = (message: string, path: string): AppError => new AppError('invalid_request', message, { path: `params.${path}` });

function pageSize(read: ReadSpec, params: Record<string, unknown>): number {
  const spec = read.pageSize;
  if (spec === undefined) return 100;
  const raw = params[spec.param];
  if (raw === undefined) return spec.default ?? spec.max;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > spec.max) {
    throw bad(`${spec.param} must be an integer between 1 and ${spec.max}`, spec.param);
  }
  return raw;
}

function checkRequired(entity: EntityDef, params: Record<string, unknown>): void {
  for (const [name, p] of Object.entries(entity.params ?? {})) {
    if (p.required === true && (params[name] === undefined || params[name] === '')) throw bad(`${name} is required`, name);
  }
}

/** Opaque tokens for token-style paging: the raw position, base64url. */
const encodeToken = (pos: number): string => Buffer.from(`p:${pos}`).toString('base64url');
function decodeToken(token: unknown, param: string): number {
  const m = typeof token === 'string' ? /^p:(\d+)$/.exec(Buffer.from(token, 'base64url').toString()) : null;
  if (m === null) throw bad(`${param} is not a valid page token`, param);
  return Number(m[1]);
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const key of parts.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
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
    case 'page': {
      const page = params[paging.param] ?? (paging.start ?? 1);
      if (typeof page !== 'number' || !Number.isInteger(page) || page < 1) throw bad(`${paging.param} must be a positive integer`, paging.param);
      return ds.rawPositionOfLive((page - (paging.start ?? 1)) * size);
    }
    case 'offset': {
      const off = params[paging.param] ?? 0;
      if (typeof off !== 'number' || !Number.isInteger(off) || off < 0) throw bad(`${paging.param} must be a non-negative integer`, paging.param);
      return ds.rawPositionOfLive(off);
    }
    case 'none':
      return 0;
  }
}

function metaFor(paging: PagingSpec, more: boolean, next: number, ds: Dataset): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  switch (paging.style) {
    case 'last_id':
      meta[paging.hasMore ?? 'has_more'] = more;
      break;
    case 'token':
      setPath(meta, paging.from, more ? encodeToken(next) : null);
      if (paging.flag !== undefined) setPath(meta, paging.flag.path, more ? !paging.flag.doneWhen : paging.flag.doneWhen);
      break;
    case 'offset':
      if (paging.total !== undefined) setPath(meta, paging.total, ds.liveCount);
      break;
    default:
      break;
  }
  return meta;
}

function sinceBound(entity: EntityDef, params: Record<string, unknown>): number | undefined {
  const inc = entity.read?.incremental;
  const raw = inc === undefined ? undefined : params[inc.param];
  if (inc === undefined || raw === undefined) return undefined;
  const sec = inc.format === 'unix' ? Number(raw) : Date.parse(String(raw)) / 1000;
  if (!Number.isFinite(sec)) throw bad(`${inc.param} is not a valid ${inc.format} value`, inc.param);
  return sec;
}

/** Answers one list call from `ds` per the entity's read spec. */
export function serveList(entity: EntityDef, ds: Dataset, params: Record<string, unknown>): ListResponse {
  const read = entity.read;
  if (read === undefined) throw new AppError('invalid_request', `${entity.name} cannot be listed`, { path: 'action' });
  checkRequired(entity, params);
  const size = read.paging.style === 'none' ? Number.MAX_SAFE_INTEGER : pageSize(read, params);
  const since = sinceBound(entity, params);
  const end = since === undefined ? ds.rawLength : ds.rawLengthSince(since);
  const start = startOf(read.paging, ds, params, size);
  const { records, next } = ds.slice(start, size, end);
  const more = ds.hasLiveFrom(next, end);
  return { data: records, meta: metaFor(read.paging, more, next, ds) };
}
