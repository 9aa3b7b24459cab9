import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, newToken, openJson, parseKeyring, sealJson } from '../../../src/store/crypto.js';

const key = () => randomBytes(32).toString('base64');

describe('credential encryption', () => {
  it('round-trips and never contains the plaintext', () => {
    const ring = parseKeyring(`k1:${key()}`);
    const secret = { api_key: 'sk_live_very_secret_value' };
    const { keyId, ciphertext } = sealJson(ring, secret, 'connector-1');
    expect(ciphertext.includes(Buffer.from('sk_live_very_secret_value'))).toBe(false);
    expect(openJson(ring, keyId, ciphertext, 'connector-1')).toEqual(secret);
  });

  it('binds the ciphertext to its owner and detects tampering', () => {
    const ring = parseKeyring(`k1:${key()}`);
    const { keyId, ciphertext } = sealJson(ring, { a: 1 }, 'c1');
    expect(() => openJson(ring, keyId, ciphertext, 'c2')).toThrow(/authentication/);
    const tampered = Buffer.from(ciphertext);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 1, tampered.length - 1);
    expect(() => openJson(ring, keyId, tampered, 'c1')).toThrow(/authentication/);
  });

  it('rotates: new key encrypts, old key still decrypts', () => {
    const oldKey = key();
    const old = parseKeyring(`old:${oldKey}`);
    const sealed = sealJson(old, { v: 'x' }, 'c');
    const rotated = parseKeyring(`new:${key()},old:${oldKey}`);
    expect(rotated.currentId).toBe('new');
    expect(openJson(rotated, sealed.keyId, sealed.ciphertext, 'c')).toEqual({ v: 'x' });
    expect(sealJson(rotated, {}, 'c').keyId).toBe('new');
  });

  it('rotates a bare key (no id) as the README shows: prepending a new key keeps the old one readable', () => {
    const oldKey = key();
    const sealed = sealJson(parseKeyring(oldKey), { v: 'bare' }, 'c');
    const rotated = parseKeyring(`new:${key()},${oldKey}`);
    expect(openJson(rotated, sealed.keyId, sealed.ciphertext, 'c')).toEqual({ v: 'bare' });
    expect(parseKeyring(`${key()},${oldKey}`).keys.has(sealed.keyId)).toBe(true);
  });

  it('still opens envelopes sealed under the old positional ids (k0, k1) after a rotation', () => {
    const oldKey = Buffer.from(key(), 'base64');
    const legacy = { currentId: 'k0', keys: new Map([['k0', oldKey]]) };
    const sealed = sealJson(legacy, { v: 'legacy' }, 'c');
    expect(sealed.keyId).toBe('k0');
    const rotated = parseKeyring(`new:${key()},${oldKey.toString('base64')}`);
    expect(openJson(rotated, 'k0', sealed.ciphertext, 'c')).toEqual({ v: 'legacy' });
    expect(() => openJson(parseKeyring(`new:${key()}`), 'k0', sealed.ciphertext, 'c')).toThrow(/k0/);
  });

  it('refuses two keys with one id', () => {
    const k = key();
    expect(() => parseKeyring(`a:${key()},a:${key()}`)).toThrow(/two keys with the id "a"/);
    expect(() => parseKeyring(`${k},${k}`)).toThrow(/two keys/);
  });

  it('rejects keys of the wrong size, naming the entry', () => {
    expect(() => parseKeyring(`a:${randomBytes(16).toString('base64')}`)).toThrow(/"a".*32 bytes/);
  });

  it('tokens are random and stored as digests', () => {
    const t = newToken();
    expect(t).toMatch(/^sdx_[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(t);
    expect(hashToken(t)).toHaveLength(32);
  });
});
