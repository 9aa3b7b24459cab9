/**
 * Parses `fields` (the projection): at most 100 entries, each a dot path (`"address.city"`) or a
 * segment array (`["address","city"]`, whose first element is the searchable field verbatim).
 * The root must be searchable; `.key` segments only go into object fields (as in filters).
 * Result: segment arrays, exact duplicates dropped (first occurrence kept); null when absent.
 */
import { joinPath } from '../../errors.js';
import type { SearchTarget } from './ast.js';
import { fail, jsonTypeName } from './fail.js';
import { pathSegments, resolveDotPath, resolveSegments } from './paths.js';
import { checkStringBound } from './values.js';

export const MAX_FIELDS = 100;

export function parseFields(target: SearchTarget, raw: unknown, errPath: string): string[][] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) fail('invalid_query', `fields takes an array of field paths, got ${jsonTypeName(raw)}`, errPath);
  if (raw.length > MAX_FIELDS) fail('invalid_query', `fields takes at most ${MAX_FIELDS} paths, got ${raw.length}`, errPath);
  const out: string[][] = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const segments = parseOne(target, item, joinPath(errPath, i));
    const identity = JSON.stringify(segments);
    if (!seen.has(identity)) out.push(segments);
    seen.add(identity);
  });
  return out;
}

function parseOne(target: SearchTarget, item: unknown, itemPath: string): string[] {
  if (typeof item === 'string') return pathSegments(resolveDotPath(target, item, itemPath));
  if (!Array.isArray(item) || item.length === 0) {
    fail('invalid_query', `a field path is a dot path string or a non-empty array of keys, got ${jsonTypeName(item)}`, itemPath);
  }
  item.forEach((seg, j) => {
    if (typeof seg !== 'string' || seg === '') {
      fail('invalid_query', `a path segment must be a non-empty string, got ${jsonTypeName(seg)}`, joinPath(itemPath, j));
    }
    checkStringBound(seg, joinPath(itemPath, j));
  });
  return pathSegments(resolveSegments(target, item as string[], itemPath));
}
