/** Searchable fields copied up from deeper in a record (EntityDef.derived). Pure. */
import type { EntityDef } from '../catalog/types.js';

function valueAt(record: Readonly<Record<string, unknown>>, path: string): unknown {
  let cur: unknown = record;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * The record with its derived searchable fields at the top level. A field the record already
 * carries at the top level wins (the upstream's own value); a path that is absent adds nothing.
 * Returns the same object when nothing is added.
 */
export function withDerivedFields(entity: EntityDef, record: Record<string, unknown>): Record<string, unknown> {
  if (entity.derived === undefined) return record;
  let out: Record<string, unknown> | null = null;
  for (const [field, path] of Object.entries(entity.derived)) {
    if (Object.hasOwn(record, field)) continue;
    const value = valueAt(record, path);
    if (value !== undefined) (out ??= { ...record })[field] = value;
  }
  return out ?? record;
}
