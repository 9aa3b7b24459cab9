/**
 * Deterministic generated records typed by the catalog: record `ordinal` of a dataset always
 * looks the same for the same seed, and `revision` > 0 yields an updated version of it.
 */
import type { EntityDef, FieldSpec } from '../connectors/catalog/types.js';
import { hash32, Rng } from './prng.js';
import { formatted, scalar, timeFormatOf, timeValue, type Persona } from './values.js';
import * as w from './words.js';

/** 2026-01-01T00:00:00Z: creation times count back (and, for new records, forward) from here. */
export const BASE_TIME = 1_767_225_600;
const STEP = 37;
/** Ordinals of records created by mutations start here, so they never collide with base ones. */
export const EXTRA_BASE = 1_000_000_000;
/** Int ids of a scoped dataset: `(tag + 1) * SLOT + local + 1`; mutation-created ones from `SCOPED_EXTRA`. */
const SLOT = 1_000_000;
const SCOPED_EXTRA = 500_000;

const CREATED_NAMES = new Set(['created', 'created_at', 'createdAt', 'created_time', 'create_time', 'create_date', 'date_created', 'creationDate', 'created_on', 'createdTime']);
const UPDATED_NAME = /updat|modif|^last_|^last[A-Z]/;

/** Where a record sits in its dataset: its ordinal (unique, stable) and creation second. */
export interface RecordSlot {
  readonly ordinal: number;
  readonly createdSec: number;
  readonly revision: number;
}

/** Context shared by every record of one dataset. */
export interface GenContext {
  readonly entity: EntityDef;
  readonly seed: number;
  /** Distinguishes datasets of one entity (partition values joined by `|`); part of ids. */
  readonly scope: string;
  /** Field carrying the creation time (incremental field when there is one). */
  readonly createdField: string | undefined;
  /** Partition values by param; a record field of the same name carries its partition's value. */
  readonly partition?: Readonly<Record<string, string>>;
  /** Fields other entities are partitioned by (a parent dimension's `from`): unique per record. */
  readonly uniqueFields?: ReadonlySet<string>;
  /** Entity-specific finishing touches (see realism.ts). */
  readonly decorate?: (rec: Record<string, unknown>, slot: RecordSlot, ctx: GenContext) => void;
}

export function creationField(entity: EntityDef): string | undefined {
  const inc = entity.read?.incremental?.field;
  if (inc !== undefined && entity.fields[inc] !== undefined) return inc;
  return Object.keys(entity.fields).find((k) => CREATED_NAMES.has(k));
}

export function createdSecFor(ordinal: number, extra: boolean): number {
  return extra ? BASE_TIME + (ordinal + 1) * STEP : BASE_TIME - ordinal * STEP;
}

const isNumeric = (spec: FieldSpec | undefined): boolean => spec?.type === 'int' || spec?.type === 'number';

/**
 * The record id for an ordinal: ints count from 1; strings get an entity prefix (`cus_000042`).
 * Ids of a scoped dataset carry a hash of the scope, so ids never repeat across partitions.
 */
export function recordId(ctx: GenContext, ordinal: number): string | number {
  if (isNumeric(ctx.entity.fields[ctx.entity.idField])) {
    if (ctx.scope === '') return ordinal + 1;
    const local = ordinal >= EXTRA_BASE ? SCOPED_EXTRA + (ordinal - EXTRA_BASE) : ordinal;
    return (hash32(ctx.scope) + 1) * SLOT + local + 1;
  }
  const prefix = ctx.entity.name.replace(/[^a-z]/g, '').slice(0, 3) || 'rec';
  const tag = ctx.scope === '' ? '' : `${hash32(ctx.scope).toString(36)}_`;
  return `${prefix}_${tag}${String(ordinal).padStart(6, '0')}`;
}

/** The ordinal of one of this dataset's ids, or null when the id is not one of ours. */
export function ordinalOfId(ctx: GenContext, id: unknown): number | null {
  let ordinal: number;
  if (isNumeric(ctx.entity.fields[ctx.entity.idField])) {
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n < 1) return null;
    const local = ctx.scope === '' ? n - 1 : (n % SLOT) - 1;
    ordinal = ctx.scope !== '' && local >= SCOPED_EXTRA ? EXTRA_BASE + local - SCOPED_EXTRA : local;
  } else {
    const m = /(\d+)$/.exec(String(id));
    if (m === null) return null;
    ordinal = Number(m[1]);
  }
  return ordinal >= 0 && String(recordId(ctx, ordinal)) === String(id) ? ordinal : null;
}

interface Gen {
  readonly ctx: GenContext;
  readonly slot: RecordSlot;
  readonly rng: Rng;
}

function persona(g: Gen, path: string): Persona {
  const r = Rng.for(g.ctx.seed, 'persona', g.ctx.entity.name, g.ctx.scope, g.slot.ordinal, path);
  return { first: r.pick(w.FIRST_NAMES), last: r.pick(w.LAST_NAMES), n: g.slot.ordinal };
}

/** Update-like times follow creation and move forward with each revision. */
function timeFor(g: Gen, name: string): number {
  if (UPDATED_NAME.test(name) && g.ctx.createdField !== undefined) {
    return g.slot.createdSec + g.rng.int(0, 30 * 86_400) + g.slot.revision * 3_600;
  }
  return BASE_TIME - g.rng.int(0, 365 * 86_400);
}

function valueFor(g: Gen, name: string, spec: FieldSpec, depth: number, who: Persona, path: string): unknown {
  if (spec.const !== undefined) return spec.const;
  if (spec.nullable === true && g.rng.chance(0.15)) return null;
  if (spec.enum !== undefined && spec.enum.length > 0) return g.rng.pick(spec.enum);
  const time = timeFormatOf(name, spec);
  if (time !== undefined) return timeValue(time, timeFor(g, name));
  const text = formatted(name, spec, g.rng, who);
  if (text !== undefined) return text;
  if (spec.type === 'object') {
    return spec.shape !== undefined && depth < 4 ? shapeValue(g, spec.shape, depth + 1, `${path}.${name}`) : scalar('object', g.rng);
  }
  if (spec.type === 'array') {
    const n = g.rng.int(0, 3);
    const items = spec.items ?? 'string';
    if (typeof items === 'string') return Array.from({ length: n }, () => scalar(items, g.rng));
    return depth < 4 ? Array.from({ length: n }, (_, i) => shapeValue(g, items, depth + 1, `${path}.${name}.${i}`)) : [];
  }
  return scalar(spec.type, g.rng);
}

/** An object of a shape; its person-like fields (name, email, ...) describe one persona. */
function shapeValue(g: Gen, shape: Readonly<Record<string, FieldSpec>>, depth: number, path: string): Record<string, unknown> {
  const who = persona(g, path);
  const out: Record<string, unknown> = {};
  for (const [k, spec] of Object.entries(shape)) out[k] = valueFor(g, k, spec, depth, who, path);
  return out;
}

/** Fields named like a partition param carry its value (`account_id`, a `parent` ref's `gid`). */
function echoPartition(ctx: GenContext, rec: Record<string, unknown>): void {
  for (const [param, value] of Object.entries(ctx.partition ?? {})) {
    const spec = ctx.entity.fields[param];
    if (spec === undefined || param === ctx.entity.idField) continue;
    if (spec.type === 'string') rec[param] = value;
    else if (isNumeric(spec) && /^\d+$/.test(value)) rec[param] = Number(value);
    else if (spec.type === 'object' && typeof rec[param] === 'object' && rec[param] !== null) {
      const key = spec.shape?.gid !== undefined ? 'gid' : spec.shape?.id !== undefined ? 'id' : undefined;
      if (key !== undefined) (rec[param] as Record<string, unknown>)[key] = value;
    }
  }
}

/** Generates the record of a slot: fields typed by the catalog, id and creation time from the slot. */
export function generateRecord(ctx: GenContext, slot: RecordSlot): Record<string, unknown> {
  const g: Gen = { ctx, slot, rng: Rng.for(ctx.seed, ctx.entity.name, ctx.scope, slot.ordinal, slot.revision) };
  const rec = shapeValue(g, ctx.entity.fields, 0, '');
  const id = recordId(ctx, slot.ordinal);
  rec[ctx.entity.idField] = id;
  // A vendor row with no id of its own (EntityDef.composedId) is served without one; a last id
  // part that is an id carries the slot's identity (a time part is the slot's creation time below).
  const parts = ctx.entity.composedId?.from;
  const last = parts?.[parts.length - 1];
  if (last !== undefined && ctx.entity.fields[last]?.format === 'id') rec[last] = String(id);
  if (parts !== undefined) delete rec[ctx.entity.idField];
  if (ctx.createdField !== undefined) {
    const spec = ctx.entity.fields[ctx.createdField];
    rec[ctx.createdField] = timeValue(spec === undefined ? 'iso_datetime' : timeFormatOf(ctx.createdField, spec, true) ?? 'iso_datetime', slot.createdSec);
  }
  // Parents hand these values to their children's calls, so two records must never share one.
  for (const field of ctx.uniqueFields ?? []) if (field !== ctx.entity.idField) rec[field] = String(id).toUpperCase().replace(/[^A-Z0-9]/g, '');
  echoPartition(ctx, rec);
  ctx.decorate?.(rec, slot, ctx);
  return rec;
}
