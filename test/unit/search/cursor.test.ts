import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { decodeCursor, encodeCursor, MAX_CURSOR_CHARS } from '../../../src/search/cursor.js';
import { queryFingerprint } from '../../../src/search/fingerprint.js';
import { expectAppError, parse } from './fixtures.js';

const SECRET = 'test-secret-1';
const FP = queryFingerprint('conn-1', 'customers', parse({ query: { filter: { fuzzy: { name: 'ann' } } } }));
const AFTER = [0.75, 'Åsa 😀 "quoted"', null, true, -3, 'cus_0042'];

describe('cursor', () => {
  it('round-trips the sort values', () => {
    const c = encodeCursor(SECRET, FP, AFTER);
    expect(c).toMatch(/^1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(SECRET, FP, c)).toEqual(AFTER);
    expect(Object.isFrozen(decodeCursor(SECRET, FP, c))).toBe(true);
    expect(decodeCursor(SECRET, FP, encodeCursor(SECRET, FP, []))).toEqual([]);
  });
  it('stores undefined as null and refuses non-scalars', () => {
    expect(decodeCursor(SECRET, FP, encodeCursor(SECRET, FP, [undefined, 1]))).toEqual([null, 1]);
    expect(() => encodeCursor(SECRET, FP, [{}])).toThrow(AppError);
    expect(() => encodeCursor(SECRET, FP, [Number.NaN])).toThrow(AppError);
  });
  it('round-trips the long values a hit can carry (its own strings, not the query\'s 1024-char ones)', () => {
    const long = ['x'.repeat(50_000), '漢'.repeat(20_000), 'cus_1'];
    expect(decodeCursor(SECRET, FP, encodeCursor(SECRET, FP, long))).toEqual(long);
  });
  it('refuses to issue a cursor it could not take back, naming the sort', () => {
    expectAppError(() => encodeCursor(SECRET, FP, ['x'.repeat(MAX_CURSOR_CHARS), 'cus_1']), 'invalid_request', 'sort', 'too long');
  });
  it('is deterministic', () => {
    expect(encodeCursor(SECRET, FP, AFTER)).toBe(encodeCursor(SECRET, FP, AFTER));
  });
  it('rejects a cursor from another secret (foreign)', () => {
    const c = encodeCursor('other-secret', FP, AFTER);
    expectAppError(() => decodeCursor(SECRET, FP, c), 'invalid_cursor', 'cursor', 'signature');
  });
  it('rejects a cursor of another query (mismatched fingerprint)', () => {
    const other = queryFingerprint('conn-1', 'customers', parse({ query: { filter: { fuzzy: { name: 'bob' } } } }));
    const c = encodeCursor(SECRET, other, AFTER);
    expectAppError(() => decodeCursor(SECRET, FP, c), 'invalid_cursor', 'cursor', 'different search');
  });
  it('rejects any single-character change (payload, signature or version)', () => {
    const c = encodeCursor(SECRET, FP, AFTER);
    for (let i = 0; i < c.length; i += 1) {
      const ch = c[i] === 'A' ? 'B' : 'A';
      const tampered = c.slice(0, i) + ch + c.slice(i + 1);
      if (tampered === c) continue;
      expect(() => decodeCursor(SECRET, FP, tampered), `position ${i}`).toThrow(/cursor/);
      try {
        decodeCursor(SECRET, FP, tampered);
      } catch (e) {
        expect((e as AppError).code).toBe('invalid_cursor');
        expect((e as AppError).path).toBe('cursor');
      }
    }
  });
  it('rejects a forged payload signed with a guessed key', () => {
    const c = encodeCursor(SECRET, FP, AFTER);
    const [v, , sig] = c.split('.');
    const forged = Buffer.from(JSON.stringify({ f: FP, a: [9, 'zzz'] })).toString('base64url');
    expectAppError(() => decodeCursor(SECRET, FP, `${v}.${forged}.${sig}`), 'invalid_cursor', 'cursor', 'signature');
  });
  it('rejects truncated cursors', () => {
    const c = encodeCursor(SECRET, FP, AFTER);
    for (const cut of [1, 5, c.length / 2, c.length - 1]) {
      expectAppError(() => decodeCursor(SECRET, FP, c.slice(0, Math.floor(cut))), 'invalid_cursor', 'cursor', 'cursor');
    }
  });
  it('rejects garbage', () => {
    for (const junk of ['', 'abc', 'a.b', '1.a.b', '1..', '2.x.y', '1.!!.??', 'x'.repeat(MAX_CURSOR_CHARS + 1)]) {
      expectAppError(() => decodeCursor(SECRET, FP, junk), 'invalid_cursor', 'cursor', 'cursor');
    }
    expectAppError(() => decodeCursor(SECRET, FP, 5 as unknown as string), 'invalid_cursor', 'cursor', 'malformed');
  });
  it('rejects a correctly signed but malformed payload', () => {
    // Sign a bad payload with the real scheme to prove the shape check runs after the MAC check.
    const good = encodeCursor(SECRET, FP, []);
    expect(decodeCursor(SECRET, FP, good)).toEqual([]);
    for (const body of ['not json', JSON.stringify({ f: FP, a: {} }), JSON.stringify({ f: 1, a: [] }), JSON.stringify({ f: FP, a: [[1]] })]) {
      const payload = Buffer.from(body).toString('base64url');
      const mac = createHmac('sha256', SECRET).update(`1.${payload}`).digest('base64url');
      expectAppError(() => decodeCursor(SECRET, FP, `1.${payload}.${mac}`), 'invalid_cursor', 'cursor', 'malformed');
    }
  });
});
