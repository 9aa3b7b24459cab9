/** The one place AppError codes become HTTP statuses. No stack trace ever leaves the process. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorLog, isAppError, type ErrorCode } from '../errors.js';
import { isTransientDbError } from '../store/db-errors.js';

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_query: 400,
  unknown_field: 400,
  type_mismatch: 400,
  invalid_cursor: 400,
  entity_not_searchable: 400,
  action_not_supported: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  upstream_error: 502,
  config_invalid: 500,
  internal: 500,
};

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/**
 * The code a bad request body gets: `invalid_query` on the search endpoint (its errors name paths
 * relative to `params`), `invalid_request` elsewhere. The path decides, never the query string.
 */
export function badBodyCode(url: string): 'invalid_query' | 'invalid_request' {
  return url.split('?', 1)[0]!.endsWith('/execute') ? 'invalid_query' : 'invalid_request';
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) as AppErrors. */
function fromFastify(e: FastifyError, url: string): AppError {
  const code = badBodyCode(url);
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError(code, 'request body exceeds 1 MiB', { path: '' });
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError('invalid_request', 'Content-Type must be application/json', { path: '' });
  if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new AppError('invalid_request', 'request body is empty; send a JSON object', { path: '' });
  if (e.code === 'FST_ERR_BAD_URL') return new AppError('invalid_request', 'the URL is malformed (bad percent-encoding)', { path: '' });
  if (e.code === 'FST_ERR_MAX_PARAM_LENGTH' || e.statusCode === 414) return new AppError('invalid_request', 'a path parameter is too long', { path: '' });
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return new AppError('invalid_request', 'request body is not valid JSON (keys named __proto__ or constructor are refused too)', { path: '' });
  if (e.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return new AppError('invalid_request', 'request body size does not match Content-Length', { path: '' });
  if (e.code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE') return new AppError('invalid_request', 'a request with a body needs a Content-Type header (application/json)', { path: '' });
  // Anything else Fastify rejects as a client error: its wording, not a guess at the cause.
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) return new AppError('invalid_request', `malformed request: ${e.message}`, { path: '' });
  return new AppError('internal', 'internal error');
}

// A database failover answers 503 with Retry-After, not 500: the client's request was fine.
const DB_UNAVAILABLE = new AppError('unavailable', 'the database is unavailable; try again', { retryable: true, retryAfterSec: 1 });

// Messages and paths echo the client's keys and values; a 1 MiB key must not make a 2 MiB error.
const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max)}…` : s);
function clipped(body: { code: ErrorCode; message: string; path?: string }) {
  return body.path === undefined ? { ...body, message: clip(body.message, 1000) } : { ...body, message: clip(body.message, 1000), path: clip(body.path, 300) };
}

/** Fastify error handler: maps, logs server faults, answers `{error:{code,message,path?}}`. */
export function handleError(e: unknown, req: FastifyRequest, reply: FastifyReply): void {
  const err = isAppError(e) ? e : isTransientDbError(e) ? DB_UNAVAILABLE : fromFastify(e as FastifyError, req.url);
  const status = statusOf(err.code);
  if (status >= 500) req.log.error({ err: { ...errorLog(e), code: err.code } }, 'request failed');
  if (err.retryAfterSec !== undefined) void reply.header('retry-after', String(err.retryAfterSec));
  // A server fault's own message may name hosts, indexes or engine internals: it goes to the log.
  const body = status === 500 ? { code: err.code, message: 'internal error; see the server log' } : clipped(err.toJSON());
  void reply.status(status).send({ error: body });
}
