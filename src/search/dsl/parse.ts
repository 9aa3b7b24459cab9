/**
 * `parseSearchParams`: validates the `params` of a `search` call (DESIGN §6, overview §4.2) into
 * an immutable SearchQuery. Every rejection is an AppError with a code (`invalid_query`,
 * `unknown_field`, `type_mismatch`, `invalid_cursor`) and the JSON path of the offending part,
 * relative to `params` (e.g. `query.filter.and[2].like.email`, `query.sort[0].created`, `limit`).
 *
 * `query` is required (overview: "required: yes"); absent/null `params` therefore fails at
 * `query`. Optional members that are null count as absent. `filter: {}` means "no filter".
 */
import { joinPath } from '../../errors.js';
import type { SearchQuery, SearchTarget } from './ast.js';
import { SEARCH_LIMITS } from './ast.js';
import { fail, isPlainObject, jsonTypeName } from './fail.js';
import { parseFields } from './fields.js';
import { hasTextNode, parseFilter } from './filter.js';
import { deepFreeze } from './freeze.js';
import { resolveDotPath } from './paths.js';
import { parseSort } from './sort.js';

const PARAM_KEYS = ['query', 'limit', 'cursor', 'fields'] as const;
const QUERY_KEYS = ['filter', 'sort'] as const;

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], base: string, what: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      fail('invalid_query', `unknown ${what} "${key}"; expected: ${allowed.join(', ')}`, joinPath(base, key));
    }
  }
}

function parseLimit(raw: unknown): number {
  if (raw === undefined || raw === null) return SEARCH_LIMITS.defaultLimit;
  const { minLimit, maxLimit } = SEARCH_LIMITS;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < minLimit || raw > maxLimit) {
    fail('invalid_query', `limit must be an integer from ${minLimit} to ${maxLimit}, got ${JSON.stringify(raw) ?? jsonTypeName(raw)}`, 'limit');
  }
  return raw;
}

function parseCursor(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    fail('invalid_cursor', `cursor must be the next_cursor string of a previous response, got ${jsonTypeName(raw)}`, 'cursor');
  }
  if (raw === '') fail('invalid_cursor', 'cursor is empty; omit it to start from the first page', 'cursor');
  return raw;
}

/** Validates `params` of a search on `target`; the result is deeply frozen. */
export function parseSearchParams(target: SearchTarget, params: unknown): SearchQuery {
  const p = params === undefined || params === null ? {} : params;
  if (!isPlainObject(p)) fail('invalid_query', `search params must be an object, got ${jsonTypeName(p)}`, 'params');
  checkKeys(p, PARAM_KEYS, '', 'search parameter');
  const query = p['query'];
  if (query === undefined || query === null) {
    fail('invalid_query', 'query is required; send {"query":{}} to match every record', 'query');
  }
  if (!isPlainObject(query)) fail('invalid_query', `query must be an object with filter and sort, got ${jsonTypeName(query)}`, 'query');
  checkKeys(query, QUERY_KEYS, 'query', 'query key');

  const rawFilter = query['filter'];
  const emptyFilter = rawFilter === undefined || rawFilter === null || (isPlainObject(rawFilter) && Object.keys(rawFilter).length === 0);
  const resolve = (raw: string, errPath: string) => resolveDotPath(target, raw, errPath);
  const filter = emptyFilter ? null : parseFilter(rawFilter, 'query.filter', resolve);
  const scored = filter !== null && hasTextNode(filter);
  const sort = parseSort(target, query['sort'], 'query.sort', scored);
  const result: SearchQuery = {
    filter,
    sort,
    limit: parseLimit(p['limit']),
    cursor: parseCursor(p['cursor']),
    fields: parseFields(target, p['fields'], 'fields'),
    scored,
  };
  return deepFreeze(result);
}
