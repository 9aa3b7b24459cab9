/**
 * A validated search → the `_search` request body and its routing (DESIGN §6).
 *
 * - Tenant: `sx.c` = connector id in `bool.filter`, always, plus `routing` = connector id (the
 *   documents were indexed with it, so the search touches one shard).
 * - Filter: compile-filter.ts; text operators match words behind the connector's tag when the
 *   index's documents carry tags (format 2). When the query is scored, the compiled filter is
 *   the only `must` clause and `_score` is the reference score; otherwise everything is filter
 *   context and the backend reports 1 for every hit, as the reference does.
 * - Sort: each field key sorts on ONE keyword sort key (derive.ts `sortKeyOf`) whose byte order
 *   is the reference order across JSON types (numbers < strings < booleans), with `missing` set
 *   to a key beyond every present value in the key's direction: missing last both ways, and a
 *   cursor's "missing" maps to that same key. No script sort is needed. Object sub-paths sort
 *   through the nested entry of that path. `score` sorts on `_score`; the id key on `sx.id`.
 * - search_after: the cursor's values (reference sort values) translated key by key the same way,
 *   so paging needs nothing that OpenSearch returned.
 */
import type { BackendSearch } from '../backend.js';
import type { SearchTarget, SortKey } from '../dsl/ast.js';
import { sortable } from '../reference/order.js';
import { compileFilter, RECORD_SCOPE, slotRef } from './compile-filter.js';
import { MISSING_SORT_KEY, sortKeyOf } from './derive.js';
import { checkTarget, DOC_FORMAT, ROOT, wordTag } from './names.js';
import { bool, term, type Query } from './query-dsl.js';

/** A compiled search: what `client.search` gets besides the index. */
export interface CompiledSearch {
  readonly body: Record<string, unknown>;
  readonly routing: string;
}

export const ID_FIELD = `${ROOT}.id`;
export const CONNECTOR_FIELD = `${ROOT}.c`;

/** One sort clause. */
export function sortClause(key: SortKey): Record<string, unknown> {
  if (key.kind === 'score') return { _score: { order: 'desc' } };
  if (key.kind === 'id') return { [ID_FIELD]: { order: 'asc' } };
  const missing = MISSING_SORT_KEY[key.dir];
  const ref = slotRef(RECORD_SCOPE, key.path);
  // unmapped_type: a field not mapped yet (added to the catalog since the index was created) sorts
  // as missing everywhere instead of failing the search with "No mapping found".
  if (ref.keyTerm === null) return { [`${ref.prefix}.o`]: { order: key.dir, missing, unmapped_type: 'keyword' } };
  // Only scalars have a sort key and a path has one entry: `mode` never has two values to pick.
  return { [`${ref.prefix}.o`]: { order: key.dir, missing, unmapped_type: 'keyword', mode: 'min', nested: { path: ref.prefix, filter: ref.keyTerm } } };
}

/** The search_after value of one key for a cursor value (a reference sort value). */
export function searchAfterValue(key: SortKey, v: unknown): string | number {
  if (key.kind === 'score') return Number(v);
  if (key.kind === 'id') return String(v);
  return sortKeyOf(sortable(v)) ?? MISSING_SORT_KEY[key.dir];
}

/** The `_search` body of one page, for an index holding documents of `format` (names.ts `DOC_FORMAT`). */
export function compileSearchBody(target: SearchTarget, req: BackendSearch, format = DOC_FORMAT): CompiledSearch {
  checkTarget(target);
  const { query, after, size, connectorId } = req;
  const tenant = term(CONNECTOR_FIELD, connectorId);
  const filter = query.filter === null ? null : compileFilter(query.filter, { ...RECORD_SCOPE, wordTag: wordTag(format, connectorId) });
  const scored = query.scored && filter !== null && filter.scored;
  let q: Query;
  if (filter === null) q = bool({ filter: [tenant] });
  else if (scored) q = bool({ filter: [tenant], must: [filter.query] });
  else q = bool({ filter: [tenant, filter.query] });
  const body: Record<string, unknown> = {
    size,
    track_total_hits: false,
    query: q,
    sort: query.sort.map(sortClause),
    docvalue_fields: [{ field: ID_FIELD }],
  };
  // Field sorts skip scoring unless asked; a scored query still owes each hit its score.
  if (scored && !query.sort.some((k) => k.kind === 'score')) body.track_scores = true;
  if (after !== null) body.search_after = query.sort.map((key, i) => searchAfterValue(key, after[i]));
  return { body, routing: connectorId };
}
