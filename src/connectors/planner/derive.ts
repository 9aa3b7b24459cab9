/** What a record gains when stored: searchable fields copied up from deeper (EntityDef.derived) and a composed id (EntityDef.composedId). Pure. */
import type { EntityDef } from '../catalog/types.js';

function valueAt(record: Readonly<Record<string, unknown>>, path: string): unknown {
  let cur: unknown = record;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The id composed from the record's parts, or undefined when it has its own or lacks a part. */
function composedId(entity: EntityDef, record: Readonly<Record<string, unknown>>): string | undefined {
  const spec = entity.composedId;
  if (spec === undefined || record[entity.idField] !== undefined) return undefined;
  const parts = spec.from.map((field) => record[field]);
  return parts.every((p) => typeof p === 'string' || typeof p === 'number') ? parts.join(spec.separator) : undefined;
}

/** A record's id: its `idField`, or the id composed from its parts (EntityDef.composedId). */
export function recordIdOf(entity: EntityDef, record: Readonly<Record<string, unknown>>): unknown {
  return record[entity.idField] ?? composedId(entity, record);
}

/**
 * The record with its composed id and its derived searchable fields at the top level. A field the
 * record already carries at the top level wins (the upstream's own value); a path that is absent
 * adds nothing. Returns the same object when nothing is added.
 */
export function withDerivedFields(entity: EntityDef, record: Record<string, unknown>): Record<string, unknown> {
  if (entity.derived === undefined && entity.composedId === undefined) return record;
  const id = composedId(entity, record);
  let out: Record<string, unknown> | null = id === undefined ? null : { ...record, [entity.idField]: id };
  for (const [field, path] of Object.entries(entity.derived ?? {})) {
    if (Object.hasOwn(record, field)) continue;
    const value = valueAt(record, path);
    if (value !== undefined) (out ??= { ...record })[field] = value;
  }
  return out ?? record;
}
