/**
 * Keyset cursors (DESIGN §6): opaque strings holding the last hit's sort values (one per sort
 * key, score and id included), bound to a query fingerprint and signed with HMAC-SHA256.
 *
 * Format v1: `1.<payload>.<mac>` where payload = base64url(JSON {"f": fingerprint, "a": values})
 * and mac = base64url(HMAC-SHA256(secret, "1." + payload)). The leading version is covered by the
 * MAC; a future format gets a new version and `decodeCursor` can dispatch on it. The MAC is
 * compared in constant time. Any forged, foreign (other secret), mismatched (other fingerprint),
 * truncated or malformed cursor is `invalid_cursor` at path `cursor`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';
import { SEARCH_LIMITS } from './dsl/ast.js';

const VERSION = '1';
/**
 * A cursor holds the last hit's own sort values, which are as long as the record's strings (not
 * the query's 1024-char ones): as long as fits in a search request with room for the query.
 */
export const MAX_CURSOR_CHARS = SEARCH_LIMITS.maxBodyBytes - 64 * 1024;
const B64URL = /^[A-Za-z0-9_-]+$/;

function invalid(message: string): AppError {
  return new AppError('invalid_cursor', message, { path: 'cursor' });
}

function mac(secret: string, signed: string): Buffer {
  if (secret === '') throw new AppError('internal', 'cursor secret is empty');
  return createHmac('sha256', secret).update(signed, 'utf8').digest();
}

function cursorValue(v: unknown): string | number | boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new AppError('internal', `cursor values must be JSON scalars, got ${typeof v}`);
}

/** A signed cursor after the hit whose sort values are `after` (undefined is stored as null). */
export function encodeCursor(secret: string, fingerprint: string, after: readonly unknown[]): string {
  const payloadJson = JSON.stringify({ f: fingerprint, a: after.map(cursorValue) });
  const payload = Buffer.from(payloadJson, 'utf8').toString('base64url');
  const signed = `${VERSION}.${payload}`;
  const cursor = `${signed}.${mac(secret, signed).toString('base64url')}`;
  // Never hand out a cursor decodeCursor would refuse (with the query, the next request must
  // still fit the body limit: a query near 1 MiB and a cursor near this cap do not).
  if (cursor.length > MAX_CURSOR_CHARS) {
    throw new AppError('invalid_request', `the last hit's values of the sort fields are too long to page after (a ${cursor.length}-character cursor; at most ${MAX_CURSOR_CHARS}); sort by shorter fields or narrow the filter`, { path: 'sort' });
  }
  return cursor;
}

/** Verifies a cursor and returns its sort values (frozen), or throws `invalid_cursor`. */
export function decodeCursor(secret: string, fingerprint: string, cursor: string): readonly unknown[] {
  if (typeof cursor !== 'string' || cursor === '' || cursor.length > MAX_CURSOR_CHARS) {
    throw invalid('cursor is malformed; pass next_cursor exactly as returned');
  }
  const parts = cursor.split('.');
  const [version, payload, sig] = parts;
  if (parts.length !== 3 || version === undefined || payload === undefined || sig === undefined) {
    throw invalid('cursor is malformed; pass next_cursor exactly as returned');
  }
  if (version !== VERSION) throw invalid(`cursor format version "${version.slice(0, 8)}" is not supported; restart without cursor`);
  verifyMac(secret, `${version}.${payload}`, sig);
  const body = parsePayload(payload);
  if (body.f !== fingerprint) {
    throw invalid('cursor belongs to a different search (connector, entity, filter, sort or fields changed); restart without cursor');
  }
  return Object.freeze([...body.a]);
}

function verifyMac(secret: string, signed: string, sig: string): void {
  const expected = mac(secret, signed);
  const given = B64URL.test(sig) ? Buffer.from(sig, 'base64url') : Buffer.alloc(0);
  // Canonical encoding only: otherwise unused trailing bits would let altered text verify.
  const canonical = given.toString('base64url') === sig;
  if (!canonical || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalid('cursor signature does not verify (altered, truncated, or issued by another service)');
  }
}

function parsePayload(payload: string): { f: string; a: unknown[] } {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor payload is malformed');
  }
  const ok =
    typeof body === 'object' && body !== null &&
    typeof (body as { f?: unknown }).f === 'string' &&
    Array.isArray((body as { a?: unknown }).a) &&
    ((body as { a: unknown[] }).a).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (!ok) throw invalid('cursor payload is malformed');
  return body as { f: string; a: unknown[] };
}
