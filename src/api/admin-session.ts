/**
 * The short-lived admin session cookie that lets a browser open bull-board at /admin/queues:
 * bull-board's UI cannot send `Authorization` headers, so the dashboard, once logged in with an
 * admin token, asks for this cookie. It carries the token's id (never the token) and an expiry,
 * HMAC-signed with a key derived from CURSOR_SECRET (shared by every API process). It is
 * HttpOnly (scripts cannot read it), SameSite=Strict (no cross-site requests carry it: bull-board's
 * POST actions are not CSRF-able) and scoped to Path=/admin/queues. A revoked token or one that
 * lost admin stops working at the next request, because the token row is checked every time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { findPrincipalById, type Principal } from '../store/tokens-repo.js';

export const SESSION_COOKIE = 'sdx_admin';
export const SESSION_PATH = '/admin/queues';
export const SESSION_TTL_SEC = 15 * 60;

function sign(secret: string, payload: string): string {
  const key = createHmac('sha256', secret).update('syncdex admin session v1').digest();
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** The cookie value for a token id, valid for the TTL. */
export function sessionValue(secret: string, tokenId: string, nowMs = Date.now()): string {
  const payload = `${tokenId}.${Math.floor(nowMs / 1000) + SESSION_TTL_SEC}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The token id of a valid, unexpired cookie value, else null. */
export function verifySession(secret: string, value: string, nowMs = Date.now()): string | null {
  const parts = value.split('.');
  if (parts.length !== 3) return null;
  const [tokenId, exp, mac] = parts as [string, string, string];
  const expected = Buffer.from(sign(secret, `${tokenId}.${exp}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!/^\d+$/.test(exp) || Number(exp) * 1000 <= nowMs) return null;
  return tokenId;
}

/** A cookie of the request header, or undefined. */
export function cookieOf(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined; // a malformed cookie is no session, not a server error
      }
    }
  }
  return undefined;
}

/** The principal of the request's session cookie, or null when absent, forged, expired or revoked. */
export async function sessionPrincipal(db: Kysely<DB>, secret: string, req: FastifyRequest): Promise<Principal | null> {
  const value = cookieOf(req, SESSION_COOKIE);
  const tokenId = value === undefined ? null : verifySession(secret, value);
  return tokenId === null ? null : findPrincipalById(db, tokenId);
}

/**
 * Sets (or, with null, clears) the session cookie. `alwaysSecure` (production) marks it Secure
 * even when the request looks like plain http: behind a TLS-terminating proxy it always does,
 * unless TRUST_PROXY lets Fastify read X-Forwarded-Proto.
 */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, value: string | null, alwaysSecure = false): void {
  const attrs = [`Path=${SESSION_PATH}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${value === null ? 0 : SESSION_TTL_SEC}`];
  if (alwaysSecure || req.protocol === 'https') attrs.push('Secure');
  void reply.header('set-cookie', `${SESSION_COOKIE}=${value ?? ''}; ${attrs.join('; ')}`);
}
