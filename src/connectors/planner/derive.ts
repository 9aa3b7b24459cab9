/** What a record gains when stored: searchable fields copied up from deeper (EntityDef.derived) and a composed id (EntityDef.composedId). Pure. */
import { createHash } from 'node:crypto';
import type { EntityDef } from '../catalog/types.js';

function valueAt(record: Readonly<Record<string, unknown>>, path: string): unknown {
  let cur: unknown = record;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** JSON with object keys sorted at every depth: a row digests the same whatever its key order. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null';
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/** What stands in for a null id part: `~` (never the start of a real part) and 64 bits of the row's digest. */
const rowDigest = (record: Readonly<Record<string, unknown>>): string => `~${createHash('sha256').update(canonicalJson(record)).digest('hex').slice(0, 16)}`;

/**
 * The id composed from the record's parts, or undefined when it has its own or lacks a part.
 * A part the catalog types nullable (the reference's `T?`: a timeline row's `start_time`) that is
 * null or absent is replaced by a digest of the whole row: the row is kept, under an id that is
 * the same at every read while the row is unchanged. A part that may not be null and is missing
 * makes a malformed row, which the worker skips, saying so.
 */
function composedId(entity: EntityDef, record: Readonly<Record<string, unknown>>): string | undefined {
  const spec = entity.composedId;
  if (spec === undefined || record[entity.idField] !== undefined) return undefined;
  const parts = spec.from.map((field) => {
    const v = record[field];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    return (v === null || v === undefined) && entity.fields[field]?.nullable === true ? rowDigest(record) : undefined;
  });
  return parts.every((p) => p !== undefined) ? parts.join(spec.separator) : undefined;
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
