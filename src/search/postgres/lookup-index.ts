/**
 * Exact matches on lookup fields. Each record carries `keys`, the object of its entity's lookup
 * fields (target.ts), written with the record and indexed by one GIN (migration 0002).
 * Containment on `keys` equals containment on the document for those fields, so `eq`/`in`/
 * `contains` on them use the index; other fields are checked on the rows the rest of the query
 * selects.
 */
import type { SearchTarget } from '../dsl/ast.js';

/** The lookup fields of a target (none for targets built without the catalog). */
export function lookupOf(target: SearchTarget): readonly string[] {
  return target.lookup ?? [];
}

/** The `keys` object of a record: its lookup fields that are present; null when none is. */
export function lookupKeys(lookup: readonly string[], data: Record<string, unknown>): Record<string, unknown> | null {
  let keys: Record<string, unknown> | null = null;
  for (const field of lookup) {
    if (Object.hasOwn(data, field) && data[field] !== undefined) (keys ??= {})[field] = data[field];
  }
  return keys;
}
