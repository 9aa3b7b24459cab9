/**
 * The search AST: the validated, immutable form of `params` (DESIGN §6). Parsers build it,
 * the reference evaluator and every backend compiler consume it. Pure types only.
 */
import type { FieldType } from '../../connectors/catalog/types.js';

export type Scalar = string | number | boolean | null;

/**
 * A validated field path. `field` is a searchable field (or, inside `any`, a key of the array
 * element); `sub` are `.key` segments into an object value. `type` is the catalog type of the
 * root field, or `dynamic` where the value's JSON type decides (object sub-paths, `any` elements).
 */
export interface FieldPath {
  readonly field: string;
  readonly sub: readonly string[];
  readonly type: FieldType | 'dynamic';
}

export type CompareOp = 'gt' | 'gte' | 'lt' | 'lte';
export type TextOp = 'fuzzy' | 'keyword';

/** A filter node; several keys in one JSON object become an `and` node. */
export type FilterNode =
  | { readonly op: 'eq' | 'neq'; readonly path: FieldPath; readonly value: Scalar }
  | { readonly op: CompareOp; readonly path: FieldPath; readonly value: string | number }
  | { readonly op: 'in'; readonly path: FieldPath; readonly values: readonly Scalar[] }
  /** `pattern` is the caller's pattern verbatim (with `%`, `_`, `\`); compilers translate it. */
  | { readonly op: 'like'; readonly path: FieldPath; readonly pattern: string }
  /** `terms`: the query's words, lower-cased, split on anything that is not a letter or digit. */
  | { readonly op: TextOp; readonly path: FieldPath; readonly text: string; readonly terms: readonly string[] }
  | { readonly op: 'contains'; readonly path: FieldPath; readonly value: Scalar }
  /** `filter` paths are relative to one element of the array at `path`. */
  | { readonly op: 'any'; readonly path: FieldPath; readonly filter: FilterNode }
  | { readonly op: 'not'; readonly filter: FilterNode }
  | { readonly op: 'and' | 'or'; readonly filters: readonly FilterNode[] };

/** One sort key; `score` sorts by relevance, `id` by the record id. */
export type SortKey =
  | { readonly kind: 'field'; readonly path: FieldPath; readonly dir: 'asc' | 'desc' }
  | { readonly kind: 'score'; readonly dir: 'desc' }
  | { readonly kind: 'id'; readonly dir: 'asc' };

/** A fully validated search: defaults applied, id tie-breaker appended to `sort`. */
export interface SearchQuery {
  readonly filter: FilterNode | null;
  /** Always ends with `{kind:'id', dir:'asc'}`. */
  readonly sort: readonly SortKey[];
  readonly limit: number;
  /** Raw cursor string as sent; verified against the fingerprint by the cursor module. */
  readonly cursor: string | null;
  /** Projection as path segment arrays; null means "all searchable fields". */
  readonly fields: readonly (readonly string[])[] | null;
  /** True when the filter contains `fuzzy` or `keyword` (scores are then meaningful). */
  readonly scored: boolean;
}

/** What a search runs against: the entity's id field and searchable field types. */
export interface SearchTarget {
  readonly connectorType: string;
  readonly entity: string;
  readonly idField: string;
  readonly searchable: Readonly<Record<string, FieldType>>;
  /** Top-level string fields worth an exact-match index (emails, names, foreign ids); see target.ts. */
  readonly lookup?: readonly string[];
}

/** Limits of DESIGN §6. */
export const SEARCH_LIMITS = Object.freeze({
  maxDepth: 16,
  maxNodes: 500,
  maxString: 1024,
  maxIn: 1000,
  maxSortKeys: 8,
  minLimit: 1,
  maxLimit: 10000,
  defaultLimit: 1000,
  maxBodyBytes: 1024 * 1024,
});
