/** Bearer-token authentication: 401 without a valid token, 403 for a wrong scope. */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { DB } from '../store/db.js';
import { findCallerConnector, type Connector } from '../store/connectors-repo.js';
import { hashToken } from '../store/crypto.js';
import { findPrincipal, type Principal } from '../store/tokens-repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The connector the route names, when authentication read it too (null: not read here). */
    namedConnector: { readonly connector: Connector | null } | null;
  }
}

/**
 * Routes anyone may call: probes, metrics, the API description and its reference page (/docs),
 * and the dashboard's static page and assets (they hold no data; everything they show comes from
 * /admin/api with a token).
 */
export const PUBLIC_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/admin', '/admin/', '/docs']);
const PUBLIC_PREFIXES = ['/admin/assets/', '/docs/'];
/** bull-board: the admin session cookie (or a Bearer admin token). */
const QUEUES_PREFIX = '/admin/queues';

/** How a path is authenticated. */
export function accessOf(path: string): 'public' | 'session' | 'bearer' {
  if (PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((p) => path.startsWith(p))) return 'public';
  if (path === QUEUES_PREFIX || path.startsWith(`${QUEUES_PREFIX}/`)) return 'session';
  return 'bearer';
}

function bearerToken(req: FastifyRequest): string {
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (m === null) throw new AppError('unauthorized', 'missing bearer token: send Authorization: Bearer <token>');
  return m[1] as string;
}

/** Resolves the principal of a request; throws 401 when the token is missing or unknown. */
export async function authenticate(db: Kysely<DB>, req: FastifyRequest): Promise<Principal> {
  const principal = await findPrincipal(db, bearerToken(req));
  if (principal === null) throw new AppError('unauthorized', 'invalid or revoked token');
  return principal;
}

/**
 * {@link authenticate} for a route naming a connector of the caller's organization (a uuid):
 * reads the connector in the same round trip, into `req.namedConnector`.
 */
export async function authenticateNaming(db: Kysely<DB>, req: FastifyRequest, connectorId: string): Promise<Principal> {
  const found = await findCallerConnector(db, hashToken(bearerToken(req)), connectorId);
  if (found === null) throw new AppError('unauthorized', 'invalid or revoked token');
  req.namedConnector = { connector: found.connector };
  return found.principal;
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
