/** Bearer-token authentication: 401 without a valid token, 403 for a wrong scope. */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { DB } from '../store/db.js';
import { findPrincipal, type Principal } from '../store/tokens-repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Routes anyone may call (probes, metrics, the API description). */
export const PUBLIC_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);

/** Resolves the principal of a request; throws 401 when the token is missing or unknown. */
export async function authenticate(db: Kysely<DB>, req: FastifyRequest): Promise<Principal> {
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (m === null) throw new AppError('unauthorized', 'missing bearer token: send Authorization: Bearer <token>');
  const principal = await findPrincipal(db, m[1] as string);
  if (principal === null) throw new AppError('unauthorized', 'invalid or revoked token');
  return principal;
}

/** The request's principal; only routes behind the auth hook call this. */
export function principalOf(req: FastifyRequest): Principal {
  if (req.principal === null) throw new AppError('unauthorized', 'missing bearer token');
  return req.principal;
}

/** Admin routes: 403 for a user token. */
export function requireAdmin(req: FastifyRequest): Principal {
  const p = principalOf(req);
  if (!p.isAdmin) throw new AppError('forbidden', 'this route needs an admin token');
  return p;
}
