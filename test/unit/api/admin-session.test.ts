import { describe, expect, it } from 'vitest';
import { SESSION_TTL_SEC, sessionValue, verifySession } from '../../../src/api/admin-session.js';

const SECRET = 'a-cursor-secret-of-some-length';
const TOKEN_ID = '3f1c2b9e-8a7d-4c6b-9e5f-0a1b2c3d4e5f';

describe('admin session cookie', () => {
  it('round-trips a token id until it expires', () => {
    const now = Date.now();
    const value = sessionValue(SECRET, TOKEN_ID, now);
    expect(value).not.toContain(SECRET);
    expect(verifySession(SECRET, value, now)).toBe(TOKEN_ID);
    expect(verifySession(SECRET, value, now + (SESSION_TTL_SEC - 1) * 1000)).toBe(TOKEN_ID);
    expect(verifySession(SECRET, value, now + (SESSION_TTL_SEC + 1) * 1000)).toBeNull();
  });

  it('refuses forged, re-signed, extended or malformed values', () => {
    const value = sessionValue(SECRET, TOKEN_ID);
    const [id, exp, mac] = value.split('.') as [string, string, string];
    expect(verifySession('another-secret-entirely', value)).toBeNull();
    expect(verifySession(SECRET, `${id}.${Number(exp) + 3600}.${mac}`)).toBeNull();
    expect(verifySession(SECRET, `00000000-0000-0000-0000-000000000000.${exp}.${mac}`)).toBeNull();
    // Tamper with the first character: the last one of base64url carries padding bits, and
    // swapping it for the same character (1 in 64) would not tamper at all.
    const tampered = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect(verifySession(SECRET, `${id}.${exp}.${tampered}`)).toBeNull();
    for (const bad of ['', '...', 'a.b', `${id}.${exp}`, `${id}.${exp}.${mac}.x`]) expect(verifySession(SECRET, bad)).toBeNull();
  });
});
