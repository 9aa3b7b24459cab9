/**
 * How the sandbox serves one (entity, action): params, page size, paging, incremental filter and
 * the dimensions that pick a dataset. The entity's read spec where the action is its read; the
 * reference's api_search shapes (payments, CRM) otherwise; lists without a read page like their
 * siblings and are keyed by their query.
 */
import type { ConnectorDef, EntityDef, IncrementalSpec, PageSizeSpec, PagingSpec, ParamSpec, PartitionSpec } from '../connectors/catalog/types.js';
import { AppError } from '../errors.js';

export interface ServeSpec {
  readonly action: 'list' | 'api_search' | 'get';
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly pageSize?: PageSizeSpec;
  readonly paging: PagingSpec;
  readonly incremental?: IncrementalSpec;
  /** Dimensions whose values select the dataset (none: one dataset, or one per query). */
  readonly partitions: readonly PartitionSpec[];
  /** A search or filtered list: each distinct set of filter params gets its own result set. */
  readonly keyedByQuery: boolean;
}

type SearchShape = Pick<ServeSpec, 'params' | 'pageSize' | 'paging'>;

/** Reference 4.3: payments `api_search` (`query` req, `limit` 1–100 default 10, `page` ← meta `next_page`, `has_more`). */
const paymentsSearch: SearchShape = {
  params: { query: { type: 'string', required: true }, limit: { type: 'int', min: 1, max: 100, default: 10 }, page: { type: 'string' } },
  pageSize: { param: 'limit', max: 100, default: 10 },
  paging: { style: 'token', param: 'page', from: 'next_page', flag: { path: 'has_more', doneWhen: false } },
};

/** Reference 4.11: CRM `api_search` (≤ 6 filter groups, `query` ≤ 3000 chars; the vendor caps search pages at 200). */
const crmSearch: SearchShape = {
  params: {
    filterGroups: { type: 'array' },
    properties: { type: 'array' },
    limit: { type: 'int', min: 1, max: 200 },
    after: { type: 'string' },
    sorts: { type: 'array' },
    query: { type: 'string', maxLength: 3000 },
  },
  pageSize: { param: 'limit', max: 200 },
  paging: { style: 'token', param: 'after', from: 'next_cursor' },
};

const SEARCH_SHAPES: Readonly<Record<string, SearchShape>> = { payments: paymentsSearch, crm: crmSearch };

/** Paging of a list without a read: a sibling read whose paging params this list also declares. */
function siblingPaging(kind: ConnectorDef, entity: EntityDef): Pick<ServeSpec, 'pageSize' | 'paging'> {
  const params = entity.params ?? {};
  for (const other of Object.values(kind.entities)) {
    const read = other.read;
    if (read === undefined || read.paging.style === 'none' || params[read.paging.param] === undefined) continue;
    const size = read.pageSize === undefined ? undefined : params[read.pageSize.param];
    if (read.pageSize !== undefined && size === undefined) continue;
    const pageSize = read.pageSize === undefined ? undefined : { ...read.pageSize, max: size?.max ?? read.pageSize.max };
    return { paging: read.paging, ...(pageSize === undefined ? {} : { pageSize }) };
  }
  return { paging: { style: 'none' } };
}

export function serveSpecOf(kind: ConnectorDef, entity: EntityDef, action: string): ServeSpec {
  const read = entity.read;
  if (action === 'get' && read?.action === 'get') {
    return { action, params: entity.params ?? {}, paging: { style: 'none' }, partitions: read.partitions ?? [], keyedByQuery: false };
  }
  if (action !== 'list' && action !== 'api_search') {
    const why = action === 'search' ? '`search` runs in hosted mode only (overview §7 rule 6)' : `the sandbox serves list and api_search (and get where replication reads by get), not ${action}`;
    throw new AppError('invalid_request', why, { path: 'action' });
  }
  if (read !== undefined && read.action === action) {
    const { pageSize, incremental } = read;
    return { action, params: entity.params ?? {}, paging: read.paging, partitions: read.partitions ?? [], keyedByQuery: false, ...(pageSize === undefined ? {} : { pageSize }), ...(incremental === undefined ? {} : { incremental }) };
  }
  const shape = action === 'api_search' ? SEARCH_SHAPES[kind.key] : undefined;
  if (shape !== undefined) return { action, ...shape, partitions: [], keyedByQuery: false };
  if (action === 'api_search' && read !== undefined) {
    // A search the reference does not describe: it pages like the entity's list.
    const { pageSize } = read;
    return { action, params: entity.params ?? {}, paging: read.paging, partitions: [], keyedByQuery: (read.partitions ?? []).length > 0, ...(pageSize === undefined ? {} : { pageSize }) };
  }
  return { action, params: entity.params ?? {}, ...siblingPaging(kind, entity), partitions: [], keyedByQuery: true };
}
