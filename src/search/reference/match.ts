/**
 * `matches(filter, doc)`: does a document satisfy a filter? One case per operator, written to be
 * read next to DESIGN §6. Value model (paths, candidates, presence): see `values.ts`.
 */
import type { CompareOp, FilterNode } from '../dsl/ast.js';
import { likeMatches } from './like.js';
import { compareCodePoints } from './order.js';
import { fuzzyStringScore, keywordStringScore } from './text.js';
import { candidates, eqHolds, equalsScalar, isJsonObject, resolvePath } from './values.js';

/** `gt`..`lte` on one candidate: same JSON type as the bound only (numbers or strings). */
export function compareHolds(op: CompareOp, candidate: unknown, bound: string | number): boolean {
  let c: number;
  if (typeof bound === 'number' && typeof candidate === 'number') c = Math.sign(candidate - bound);
  else if (typeof bound === 'string' && typeof candidate === 'string') c = compareCodePoints(candidate, bound);
  else return false;
  if (op === 'gt') return c > 0;
  if (op === 'gte') return c >= 0;
  if (op === 'lt') return c < 0;
  return c <= 0;
}

/** The string candidates of a value (text operators ignore everything else). */
export function stringCandidates(value: unknown): string[] {
  return candidates(value).filter((c): c is string => typeof c === 'string');
}

/** The elements of an array of objects that `any` looks at (non-objects are skipped). */
export function objectElements(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** True when `doc` satisfies `filter`. */
export function matches(filter: FilterNode, doc: unknown): boolean {
  switch (filter.op) {
    case 'and':
      return filter.filters.every((f) => matches(f, doc));
    case 'or':
      return filter.filters.some((f) => matches(f, doc));
    case 'not':
      return !matches(filter.filter, doc);
    case 'any':
      return objectElements(resolvePath(doc, filter.path)).some((el) => matches(filter.filter, el));
    default:
      return leafMatches(filter, doc);
  }
}

type Leaf = Exclude<FilterNode, { op: 'and' | 'or' | 'not' | 'any' }>;

function leafMatches(filter: Leaf, doc: unknown): boolean {
  const value = resolvePath(doc, filter.path);
  switch (filter.op) {
    case 'eq':
      return eqHolds(value, filter.value);
    case 'neq':
      return !eqHolds(value, filter.value);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return candidates(value).some((c) => compareHolds(filter.op, c, filter.value));
    case 'in':
      return filter.values.some((v) => eqHolds(value, v));
    case 'like':
      return stringCandidates(value).some((s) => likeMatches(filter.pattern, s));
    case 'fuzzy':
      return stringCandidates(value).some((s) => fuzzyStringScore(filter.terms, s) !== null);
    case 'keyword':
      return stringCandidates(value).some((s) => keywordStringScore(filter.terms, s) !== null);
    case 'contains': {
      const expected = filter.value;
      return Array.isArray(value) && expected !== null && value.some((e) => equalsScalar(e, expected));
    }
  }
}
