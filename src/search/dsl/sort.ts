/**
 * Parses `query.sort`: `[{"path":"asc"|"desc"}, ...]`, at most 8 keys, each element exactly one
 * key. Sortable: string/int/number/boolean fields and `.key` sub-paths of object fields (typed
 * `dynamic`); object and array fields themselves are `type_mismatch`. Absent, null or `[]` sort
 * means the default: score desc when the filter is scored, else id asc. The record id ascending is
 * ALWAYS appended as the last key: it makes the order total (ids are unique), which is what keyset
 * paging needs. A caller's explicit key on the id field stays a field key with the caller's
 * direction; the appended id key then never decides but keeps the order total by construction.
 */
import { joinPath } from '../../errors.js';
import type { FieldPath, SearchTarget, SortKey } from './ast.js';
import { SEARCH_LIMITS } from './ast.js';
import { fail, isPlainObject, jsonTypeName } from './fail.js';
import { pathSegments, resolveDotPath } from './paths.js';

const ID_KEY: SortKey = { kind: 'id', dir: 'asc' };

/** The sort keys for `raw` (already containing the final id key). */
export function parseSort(target: SearchTarget, raw: unknown, errPath: string, scored: boolean): SortKey[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    return scored ? [{ kind: 'score', dir: 'desc' }, ID_KEY] : [ID_KEY];
  }
  if (!Array.isArray(raw)) fail('invalid_query', `sort takes an array like [{"created":"desc"}], got ${jsonTypeName(raw)}`, errPath);
  if (raw.length > SEARCH_LIMITS.maxSortKeys) {
    fail('invalid_query', `sort takes at most ${SEARCH_LIMITS.maxSortKeys} keys, got ${raw.length}`, errPath);
  }
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const key = parseSortKey(target, item, joinPath(errPath, i));
    const identity = JSON.stringify(pathSegments(key.path));
    if (seen.has(identity)) {
      fail('invalid_query', `sort names "${pathSegments(key.path).join('.')}" more than once`, joinPath(errPath, i));
    }
    seen.add(identity);
    keys.push(key);
  });
  return [...keys, ID_KEY];
}

function parseSortKey(target: SearchTarget, item: unknown, itemPath: string): SortKey & { kind: 'field' } {
  const entries = isPlainObject(item) ? Object.entries(item) : [];
  const entry = entries[0];
  if (entries.length !== 1 || entry === undefined) {
    fail('invalid_query', 'a sort element maps exactly one field path to "asc" or "desc", like {"created":"desc"}', itemPath);
  }
  const [rawPath, dir] = entry;
  const valuePath = joinPath(itemPath, rawPath);
  if (dir !== 'asc' && dir !== 'desc') {
    fail('invalid_query', `sort direction must be "asc" or "desc", got ${JSON.stringify(dir) ?? jsonTypeName(dir)}`, valuePath);
  }
  const path = resolveDotPath(target, rawPath, valuePath);
  checkSortable(path, valuePath);
  return { kind: 'field', path, dir };
}

function checkSortable(path: FieldPath, valuePath: string): void {
  if (path.type === 'object' || path.type === 'array') {
    const hint = path.type === 'object' ? `; sort by one of its keys, like "${path.field}.key"` : '';
    fail('type_mismatch', `cannot sort by ${path.type} field "${path.field}"; only scalar fields are sortable${hint}`, valuePath);
  }
}
