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
