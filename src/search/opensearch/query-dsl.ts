/**
 * Tiny constructors for the OpenSearch query DSL the compiler emits, so the compiler reads as
 * the contract and the golden tests compare plain JSON. No logic beyond shaping objects.
 */

export type Query = Record<string, unknown>;

/** A compiled filter node: the query and whether its score carries relevance. */
export interface Compiled {
  readonly query: Query;
  /** False: the query sits in filter context (score ignored); true: its score is the oracle's. */
  readonly scored: boolean;
}

export const MATCH_NONE: Query = { match_none: {} };

export const term = (field: string, value: string | number | boolean): Query => ({ term: { [field]: value } });

export const terms = (field: string, values: readonly (string | number | boolean)[]): Query => ({ terms: { [field]: [...values] } });

export const range = (field: string, op: 'gt' | 'gte' | 'lt' | 'lte', value: string | number): Query => ({ range: { [field]: { [op]: value } } });

export const wildcard = (field: string, value: string): Query => ({ wildcard: { [field]: { value } } });

export const prefix = (field: string, value: string): Query => ({ prefix: { [field]: { value } } });

/**
 * Levenshtein (no transpositions) within `edits`, after `prefixLength` code points that must
 * match exactly (a word tag). `constant_score` rewrite visits EVERY matching term: the default
 * top-terms rewrite keeps only `max_expansions` (50) terms of the whole shared index and would
 * silently drop matches.
 */
export const fuzzy = (field: string, value: string, edits: number, prefixLength = 0): Query => ({
  fuzzy: { [field]: { value, fuzziness: edits, prefix_length: prefixLength, transpositions: false, rewrite: 'constant_score' } },
});

/** A query whose score is exactly `boost` when it matches. */
export const constantScore = (filter: Query, boost: number): Query => ({ constant_score: { filter, boost } });

/** The best (max) score of the matching queries (tie_breaker 0). */
export const disMax = (queries: readonly Query[]): Query => ({ dis_max: { queries: [...queries] } });

// ignore_unmapped: a searchable field added to the catalog is unmapped in an index until the
// worker next maps it; such a nested query must match nothing, not fail the search with a 400.
export const nested = (path: string, query: Query, scoreMode: 'max' | 'none'): Query => ({ nested: { path, query, score_mode: scoreMode, ignore_unmapped: true } });

interface BoolClauses {
  must?: readonly Query[];
  filter?: readonly Query[];
  should?: readonly Query[];
  must_not?: readonly Query[];
}

/** A bool query with the non-empty clause lists; `should` always needs one match. */
export function bool(clauses: BoolClauses): Query {
  const out: Record<string, unknown> = {};
  for (const key of ['must', 'filter', 'should', 'must_not'] as const) {
    const list = clauses[key];
    if (list !== undefined && list.length > 0) out[key] = [...list];
  }
  if (out.should !== undefined) out.minimum_should_match = 1;
  return { bool: out };
}

/** Puts a scoreless query where a score is summed: it then adds 0 (filter-only bool). */
export function scoreZero(c: Compiled): Query {
  return c.scored ? c.query : bool({ filter: [c.query] });
}
