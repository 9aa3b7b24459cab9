/**
 * Secrets at rest: AES-256-GCM envelopes under a key id, so keys can rotate (old ids still decrypt).
 * Envelope layout: 12-byte IV | 16-byte tag | ciphertext. The key id is stored beside it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';

/** A keyring: the first key encrypts, every key decrypts. */
export interface Keyring {
  readonly currentId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

/**
 * Id of a key given without one: derived from the key itself, so it stays the same wherever the
 * key sits in the list (rotating by prepending a new key must not rename the old one).
 */
export function bareKeyId(key: Buffer): string {
  return `k-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/** Parses `[id:]base64key[,[id:]base64key...]`; each key must decode to 32 bytes. */
export function parseKeyring(spec: string): Keyring {
  const keys = new Map<string, Buffer>();
  let currentId: string | undefined;
  for (const [i, part] of spec.split(',').map((p) => p.trim()).entries()) {
    const sep = part.indexOf(':');
    const key = Buffer.from(sep > 0 ? part.slice(sep + 1) : part, 'base64');
    const id = sep > 0 ? part.slice(0, sep) : bareKeyId(key);
    if (key.length !== 32) {
      throw new AppError('config_invalid', `CREDENTIALS_KEY entry ${i} ("${id}") must be 32 bytes, base64-encoded`, { path: 'CREDENTIALS_KEY' });
    }
    if (keys.has(id)) throw new AppError('config_invalid', `CREDENTIALS_KEY has two keys with the id "${id}"`, { path: 'CREDENTIALS_KEY' });
    keys.set(id, key);
    currentId ??= id;
  }
  if (currentId === undefined) throw new AppError('config_invalid', 'CREDENTIALS_KEY is empty', { path: 'CREDENTIALS_KEY' });
  return { currentId, keys };
}

/** A fresh random keyring for the embedded demo and tests. */
export function ephemeralKeyring(): Keyring {
  return { currentId: 'ephemeral', keys: new Map([['ephemeral', randomBytes(32)]]) };
}

/** Encrypts a JSON value; `aad` binds the ciphertext to its owner (e.g. the connector id). */
export function sealJson(ring: Keyring, value: unknown, aad: string): { keyId: string; ciphertext: Buffer } {
  const key = ring.keys.get(ring.currentId) as Buffer;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { keyId: ring.currentId, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]) };
}

/** Decrypts an envelope; a missing key id or a tampered envelope is an error, never garbage. */
export function openJson<T = unknown>(ring: Keyring, keyId: string, envelope: Buffer, aad: string): T {
  const key = ring.keys.get(keyId);
  if (key === undefined) {
    // Before bare keys got content ids they were named by position (`k0`, `k1`, ...), which a
    // rotation shifts. GCM authenticates, so trying each key finds the right one or none.
    if (/^k\d+$/.test(keyId)) for (const k of ring.keys.values()) {
      try {
        return openWith<T>(k, envelope, aad);
      } catch {
        // not this key
      }
    }
    throw new AppError('internal', `no credentials key with id "${keyId}" is configured`);
  }
  return openWith<T>(key, envelope, aad);
}

function openWith<T>(key: Buffer, envelope: Buffer, aad: string): T {
  const decipher = createDecipheriv('aes-256-gcm', key, envelope.subarray(0, 12));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(envelope.subarray(12, 28));
  try {
    const text = Buffer.concat([decipher.update(envelope.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new AppError('internal', 'stored credentials failed authentication (wrong key or tampered data)', { cause });
  }
}

/** SHA-256 of an API token: what the database stores. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A new API token: `sdx_` + 32 random bytes, base64url. */
export function newToken(): string {
  return `sdx_${randomBytes(32).toString('base64url')}`;
}
