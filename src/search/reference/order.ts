/**
 * Ordering of the reference evaluator (DESIGN §6 "Sort").
 *
 * - Strings compare by Unicode code point (not UTF-16 unit, not locale): "Z" < "a" < "é" < "😀".
 *   This is byte order of UTF-8, i.e. Postgres `COLLATE "C"`.
 * - Values of one sort key form a total order across JSON types, for dynamic paths and for
 *   catalog fields holding an unexpected type: numbers < strings < booleans (false < true).
 * - Missing values (missing, null, and non-scalars: arrays and objects) sort LAST in both
 *   directions; `desc` reverses only the order of present values.
 * - `score` keys compare numerically, `id` keys by code point. The final id key makes the order
 *   total, so keyset paging on the list of sort values is exact.
 */
import type { Scalar, SortKey } from '../dsl/ast.js';
import { resolvePath } from './values.js';

/** What the sorter needs of a hit. */
export interface RankedRecord {
  readonly id: string;
  readonly score: number;
  readonly doc: Readonly<Record<string, unknown>>;
}

/** Compares two strings by Unicode code points: negative, 0 or positive. */
export function compareCodePoints(a: string, b: string): number {
  const ca = Array.from(a, (ch) => ch.codePointAt(0) ?? 0);
  const cb = Array.from(b, (ch) => ch.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(ca.length, cb.length); i += 1) {
    const d = (ca[i] ?? 0) - (cb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return Math.sign(ca.length - cb.length);
}

const TYPE_RANK = { number: 0, string: 1, boolean: 2 } as const;

/** Total order of non-null JSON scalars: numbers < strings < booleans, then by value. */
export function compareScalars(a: string | number | boolean, b: string | number | boolean): number {
  const ta = TYPE_RANK[typeof a as 'number' | 'string' | 'boolean'];
  const tb = TYPE_RANK[typeof b as 'number' | 'string' | 'boolean'];
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** The sortable form of a value: a scalar, or null for missing/null/array/object. */
export function sortable(value: unknown): Scalar {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return null;
}

/** One value per sort key (these are also the values a keyset cursor holds). */
export function sortValuesOf(sort: readonly SortKey[], rec: RankedRecord): Scalar[] {
  return sort.map((key) => {
    if (key.kind === 'score') return rec.score;
    if (key.kind === 'id') return rec.id;
    return sortable(resolvePath(rec.doc, key.path));
  });
}

/** Compares one key's values: missing last in both directions. */
function compareKeyValues(dir: 'asc' | 'desc', a: unknown, b: unknown): number {
  const sa = sortable(a);
  const sb = sortable(b);
  if (sa === null || sb === null) return sa === sb ? 0 : sa === null ? 1 : -1;
  const c = compareScalars(sa, sb);
  return dir === 'asc' ? c : -c;
}

/** Compares two lists of sort values key by key (also: a hit against a cursor's values). */
export function compareSortValues(sort: readonly SortKey[], a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < sort.length; i += 1) {
    const c = compareKeyValues((sort[i] as SortKey).dir, a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** Orders two hits by the query's sort keys (which always end with the id key). */
export function compareForSort(sort: readonly SortKey[], a: RankedRecord, b: RankedRecord): number {
  return compareSortValues(sort, sortValuesOf(sort, a), sortValuesOf(sort, b)) || compareCodePoints(a.id, b.id);
}
