/**
 * Deterministic generated records typed by the catalog: record `ordinal` of a dataset always
 * looks the same for the same seed, and `revision` > 0 yields an updated version of it.
 */
import type { EntityDef, FieldSpec, FieldType } from '../connectors/catalog/types.js';
import { Rng } from './prng.js';
import * as w from './words.js';

/** 2026-01-01T00:00:00Z: creation times count back (and, for new records, forward) from here. */
export const BASE_TIME = 1_767_225_600;
const STEP = 37;

const CREATED_NAMES = new Set(['created', 'created_at', 'createdAt', 'created_time', 'create_time', 'create_date', 'date_created', 'creationDate', 'created_on']);

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
  /** Distinguishes datasets of one entity (partition values); part of ids. */
  readonly scope: string;
  /** Field carrying the creation time (incremental field when there is one). */
  readonly createdField: string | undefined;
}

export function creationField(entity: EntityDef): string | undefined {
  const inc = entity.read?.incremental?.field;
  if (inc !== undefined && entity.fields[inc] !== undefined) return inc;
  return Object.keys(entity.fields).find((k) => CREATED_NAMES.has(k));
}

export function createdSecFor(ordinal: number, extra: boolean): number {
  return extra ? BASE_TIME + (ordinal + 1) * STEP : BASE_TIME - ordinal * STEP;
}

/** The record id for an ordinal: ints count from 1; strings get an entity prefix (`cus_000042`). */
export function recordId(ctx: GenContext, ordinal: number): string | number {
  const spec = ctx.entity.fields[ctx.entity.idField];
  const scopeTag = ctx.scope === '' ? '' : `${ctx.scope.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}_`;
  if (spec?.type === 'int' || spec?.type === 'number') {
    return ctx.scope === '' ? ordinal + 1 : (Rng.for(ctx.scope).int(1, 999) * 10_000_000) + ordinal + 1;
  }
  const prefix = ctx.entity.name.replace(/[^a-z]/g, '').slice(0, 3) || 'rec';
  return `${prefix}_${scopeTag}${String(ordinal).padStart(6, '0')}`;
}

function timeValue(format: string | undefined, sec: number): string | number {
  if (format === 'unix') return sec;
  const iso = new Date(sec * 1000).toISOString();
  return format === 'date' ? iso.slice(0, 10) : iso;
}

function formatted(format: string, rng: Rng, ordinal: number): string | number {
  const first = rng.pick(w.FIRST_NAMES);
  const last = rng.pick(w.LAST_NAMES);
  switch (format) {
    case 'email': return `${first}.${last}${ordinal}@example.com`.toLowerCase();
    case 'name': return `${first} ${last}`;
    case 'first_name': return first;
    case 'last_name': return last;
    case 'company': return `${rng.pick(w.COMPANY_WORDS)} ${rng.pick(w.COMPANY_SUFFIXES)}`;
    case 'title': return `${rng.pick(w.TEXT_WORDS)} ${rng.pick(w.TEXT_WORDS)}`;
    case 'text': return Array.from({ length: rng.int(2, 7) }, () => rng.pick(w.TEXT_WORDS)).join(' ');
    case 'url': return `https://example.com/${rng.pick(w.TEXT_WORDS)}/${ordinal}`;
    case 'phone': return `+1-555-${String(rng.int(0, 9999)).padStart(4, '0')}`;
    case 'currency': return rng.pick(w.CURRENCIES);
    case 'country': return rng.pick(w.COUNTRIES);
    case 'timezone': return rng.pick(w.TIMEZONES);
    case 'color': return rng.pick(w.COLORS);
    case 'ip': return `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    case 'id': return `id_${rng.int(1, 1_000_000).toString(36)}`;
    default: return timeValue(format, BASE_TIME - rng.int(0, 365 * 86_400));
  }
}

function scalar(type: FieldType, rng: Rng): unknown {
  switch (type) {
    case 'int': return rng.int(0, 100_000);
    case 'number': return Math.round(rng.next() * 1_000_000) / 100;
    case 'boolean': return rng.chance(0.5);
    case 'object': return { note: rng.pick(w.TEXT_WORDS) };
    case 'array': return [];
    default: return `${rng.pick(w.TEXT_WORDS)}-${rng.int(1, 999)}`;
  }
}

function valueFor(spec: FieldSpec, rng: Rng, ordinal: number, depth: number): unknown {
  if (spec.const !== undefined) return spec.const;
  if (spec.nullable === true && rng.chance(0.15)) return null;
  if (spec.enum !== undefined && spec.enum.length > 0) return rng.pick(spec.enum);
  if (spec.format !== undefined && (spec.type === 'string' || spec.format === 'unix')) return formatted(spec.format, rng, ordinal);
  if (spec.type === 'object') {
    return spec.shape !== undefined && depth < 4 ? shapeValue(spec.shape, rng, ordinal, depth + 1) : scalar('object', rng);
  }
  if (spec.type === 'array') {
    const n = rng.int(0, 3);
    const items = spec.items ?? 'string';
    if (typeof items === 'string') return Array.from({ length: n }, () => scalar(items, rng));
    return depth < 4 ? Array.from({ length: n }, () => shapeValue(items, rng, ordinal, depth + 1)) : [];
  }
  return scalar(spec.type, rng);
}

function shapeValue(shape: Readonly<Record<string, FieldSpec>>, rng: Rng, ordinal: number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, spec] of Object.entries(shape)) out[k] = valueFor(spec, rng, ordinal, depth);
  return out;
}

/** Generates the record of a slot: fields typed by the catalog, id and creation time from the slot. */
export function generateRecord(ctx: GenContext, slot: RecordSlot): Record<string, unknown> {
  const rng = Rng.for(ctx.seed, ctx.entity.name, ctx.scope, slot.ordinal, slot.revision);
  const rec = shapeValue(ctx.entity.fields, rng, slot.ordinal, 0);
  rec[ctx.entity.idField] = recordId(ctx, slot.ordinal);
  if (ctx.createdField !== undefined) {
    rec[ctx.createdField] = timeValue(ctx.entity.fields[ctx.createdField]?.format, slot.createdSec);
  }
  return rec;
}
