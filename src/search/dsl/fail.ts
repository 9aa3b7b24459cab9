/** Small helpers shared by the search parsers: typed failure and JSON shape guards. */
import { AppError, type ErrorCode } from '../../errors.js';

/** Throws the one error family with the offending JSON path (relative to `params`). */
export function fail(code: ErrorCode, message: string, path?: string): never {
  throw new AppError(code, message, path === undefined ? {} : { path });
}

/** A JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Human name of a JSON value's type, for messages: `string`, `integer`, `array`, ... */
export function jsonTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer ${v}` : `the number ${v}`;
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return `the boolean ${v}`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

/** Number of Unicode code points (what the bounds call "chars"). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}
