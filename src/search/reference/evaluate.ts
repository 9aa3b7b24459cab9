/**
 * The REFERENCE EVALUATOR of the search contract (DESIGN §6): the obviously-correct oracle that
 * every backend (Postgres, OpenSearch) must agree with on hits, ORDER and scores. Clarity over
 * speed: it scans every record.
 *
 * Matching (`match.ts`, value model in `values.ts`):
 * - paths step through own keys of plain objects only; an array value means "any element"
 *   (one level); missing, null, [] and [null] are absent: `eq null` ≡ absent, `neq null` ≡ present,
 *   `neq x` ≡ not `eq x` (so it matches absent values).
 * - eq/in: same JSON type and value (strings case-sensitive, numbers numerically).
 * - gt/gte/lt/lte: only candidates of the bound's JSON type; numbers numerically, strings by code
 *   point; absent never matches.
 * - like: lower-cased both sides, `%` any run, `_` one code point, `\` escapes, no wildcard =
 *   substring (`like.ts`). fuzzy/keyword: see `text.ts`.
 * - contains: the value is an array with an element equal to the scalar.
 * - any: some OBJECT element of the array satisfies the inner filter (element-relative paths).
 *
 * Score (`score.ts`): 1 for every hit when the query is not `scored`. Otherwise, per hit:
 *   fuzzy node = best matching string's sum over terms of (exact word 1, prefix 0.5,
 *   d edits 2^-d); keyword node = number of terms found (best string); and = sum; or = sum of
 *   matching branches; not = 0; any = best matching element; other operators 0. All values are
 *   sums of powers of two, so every backend can compute them exactly.
 *
 * Order (`order.ts`): sort keys in turn; missing last in both directions; numbers < strings <
 * booleans across types; strings by code point; the id key (always last) breaks ties.
 */
import type { SearchQuery, SearchTarget } from '../dsl/ast.js';
import { matches } from './match.js';
import { compareForSort, compareSortValues, sortValuesOf, type RankedRecord } from './order.js';
import { scoreOf } from './score.js';

export { matches } from './match.js';
export { scoreOf } from './score.js';
export { compareCodePoints, compareForSort, compareScalars, compareSortValues, sortValuesOf } from './order.js';
export type { RankedRecord } from './order.js';
export { projectDoc } from './project.js';

/** A stored record: its id and document. */
export interface SearchRecord {
  readonly id: string;
  readonly doc: Readonly<Record<string, unknown>>;
}

/** A hit: the record with its score (`doc` is the record's whole document, not projected). */
export interface ReferenceHit extends RankedRecord {
  readonly id: string;
  readonly score: number;
  readonly doc: Readonly<Record<string, unknown>>;
}

/** ALL hits of `query` over `records`, in final order (no paging). Ids must be unique. */
export function evaluateSearch(
  _target: SearchTarget,
  query: SearchQuery,
  records: readonly SearchRecord[],
): ReferenceHit[] {
  const filter = query.filter;
  const hits = records
    .filter((r) => filter === null || matches(filter, r.doc))
    .map((r) => ({ id: r.id, score: query.scored && filter !== null ? scoreOf(filter, r.doc) : 1, doc: r.doc }));
  return hits.sort((a, b) => compareForSort(query.sort, a, b));
}

/**
 * One page with keyset paging: the hits strictly after `after` (a cursor's sort values, or null
 * for the first page), at most `query.limit` of them; `nextAfter` holds the last hit's sort values
 * when a further hit exists, else null (so `next_cursor` is null exactly at the end).
 */
export function evaluatePage(
  target: SearchTarget,
  query: SearchQuery,
  records: readonly SearchRecord[],
  after: readonly unknown[] | null,
): { hits: ReferenceHit[]; nextAfter: unknown[] | null } {
  const all = evaluateSearch(target, query, records);
  const rest = after === null ? all : all.filter((h) => compareSortValues(query.sort, sortValuesOf(query.sort, h), after) > 0);
  const hits = rest.slice(0, query.limit);
  const last = hits[hits.length - 1];
  const nextAfter = rest.length > hits.length && last !== undefined ? sortValuesOf(query.sort, last) : null;
  return { hits, nextAfter };
}
