/**
 * Request validation helpers of the admin API. Every failure is an `invalid_request` naming the
 * field, so the error mapper stays the one source of 400 bodies (route schemas only document).
 */
import { AppError } from '../errors.js';
import { parseIsoInstant } from '../iso-instant.js';
import type { ConnectorsKey } from '../store/connectors-repo.js';

type Bag = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Entity and connector-type keys of the catalog: lower snake case (anything else cannot exist). */
const KEY = /^[a-z][a-z0-9_]{0,63}$/;

function bad(path: string, message: string): never {
  throw new AppError('invalid_request', message, { path });
}

/** The query string or body as a plain object; anything else is a 400. */
export function objectOf(value: unknown, path = ''): Bag {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) bad(path, 'body must be a JSON object');
  return value as Bag;
}

/** Rejects keys the route does not know (a typo must not be silently ignored). */
export function onlyKeys(bag: Bag, allowed: readonly string[]): void {
  for (const key of Object.keys(bag)) if (!allowed.includes(key)) bad(key, `unknown field "${key.slice(0, 64)}"; allowed: ${allowed.join(', ') || '(none)'}`);
}

/** An optional single string (a repeated query parameter is an error, not a silent pick). */
export function optString(bag: Bag, key: string, max = 256): string | undefined {
  const v = bag[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') bad(key, `${key} must be a single string`);
  if (v.length > max) bad(key, `${key} must be at most ${max} characters`);
  return v;
}

/** An optional catalog key (entity, connector type). */
export function optKey(bag: Bag, key: string): string | undefined {
  const v = optString(bag, key, 64);
  if (v !== undefined && !KEY.test(v)) bad(key, `${key} must be a lower-case catalog key like "customers"`);
  return v;
}

/** A required catalog key. */
export function reqKey(bag: Bag, key: string): string {
  const v = optKey(bag, key);
  if (v === undefined) bad(key, `${key} is required`);
  return v;
}

/** An optional connector id (a uuid). */
export function optUuid(bag: Bag, key: string): string | undefined {
  const v = optString(bag, key, 64);
  if (v !== undefined && !UUID.test(v)) bad(key, `${key} must be a connector id (uuid)`);
  return v;
}

/** An optional ISO-8601 instant. */
export function optInstant(bag: Bag, key: string): Date | undefined {
  const v = optString(bag, key, 64);
  if (v === undefined) return undefined;
  const d = parseIsoInstant(v);
  if (d === 'not_iso') bad(key, `${key} must be an ISO-8601 timestamp like 2024-05-01T00:00:00Z`);
  if (d === 'not_real') bad(key, `${key} "${v.slice(0, 64)}" is not a real date/time`);
  return d;
}

/** An optional integer within bounds (query strings arrive as text). */
export function optInt(bag: Bag, key: string, min: number, max: number): number | undefined {
  const raw = bag[key];
  if (raw === undefined || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) bad(key, `${key} must be an integer from ${min} to ${max}`);
  return n;
}

/** An optional boolean (JSON true/false; "true"/"false" in a query string). */
export function optBool(bag: Bag, key: string): boolean | undefined {
  const v = bag[key];
  if (v === undefined) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  return bad(key, `${key} must be true or false`);
}

/** A comma-separated list of allowed values. */
export function optEnumList<T extends string>(bag: Bag, key: string, allowed: readonly T[]): T[] | undefined {
  const v = optString(bag, key, 256);
  if (v === undefined) return undefined;
  const items = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const item of items) if (!(allowed as readonly string[]).includes(item)) bad(key, `${key} must be one or more of ${allowed.join(', ')} (comma-separated)`);
  return items as T[];
}

/** An optional value out of a fixed set. */
export function optEnum<T extends string>(bag: Bag, key: string, allowed: readonly T[]): T | undefined {
  const v = optString(bag, key, 64);
  if (v !== undefined && !(allowed as readonly string[]).includes(v)) bad(key, `${key} must be one of ${allowed.join(', ')}`);
  return v as T | undefined;
}

/** The numeric id of a run in a path. */
export function runIdParam(value: string): string {
  if (!/^\d{1,18}$/.test(value)) throw new AppError('not_found', `run ${JSON.stringify(value.slice(0, 40))} not found`, { path: 'run_id' });
  return value;
}

/** Opaque keyset cursor of the runs list: the last id of the previous page. */
export function encodeRunsCursor(lastId: string): string {
  return Buffer.from(`runs:${lastId}`).toString('base64url');
}

export function decodeRunsCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const m = /^runs:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (m === null) throw new AppError('invalid_cursor', 'cursor is not a runs-list cursor; pass next_cursor from the previous page', { path: 'cursor' });
  return m[1];
}

/** Opaque keyset cursor of a connectors list: the last connector of the previous page. */
export function encodeConnectorsCursor(key: ConnectorsKey): string {
  return Buffer.from(`connectors:${key.createdUs}:${key.id}`).toString('base64url');
}

export function decodeConnectorsCursor(cursor: string | undefined): ConnectorsKey | undefined {
  if (cursor === undefined) return undefined;
  const m = /^connectors:(-?\d{1,19}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (m === null) throw new AppError('invalid_cursor', 'cursor is not a connectors-list cursor; pass next_cursor from the previous page', { path: 'cursor' });
  return { createdUs: m[1]!, id: m[2]! };
}

/** The `limit` and `cursor` of a connectors list; every problem names its parameter. */
export function parseConnectorsPage(bag: Bag, defaultLimit: number): { limit: number; after: ConnectorsKey | undefined } {
  onlyKeys(bag, ['limit', 'cursor']);
  return { limit: optInt(bag, 'limit', 1, 1000) ?? defaultLimit, after: decodeConnectorsCursor(optString(bag, 'cursor', 256)) };
}
