/**
 * Which Postgres failures are worth retrying. A failover, a restart, a dropped connection, a
 * deadlock or a serialization conflict says nothing about the request or the run: the same work
 * succeeds a moment later. Everything else (constraint violations, bad SQL) is a bug or bad data.
 */
import { AppError } from '../errors.js';

// SQLSTATE classes and codes: https://www.postgresql.org/docs/current/errcodes-appendix.html
const TRANSIENT_CODES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '25P03', // idle_in_transaction_session_timeout (the session was ended; see db.ts)
  '53300', // too_many_connections
  '55P03', // lock_not_available
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement_timeout)
]);
const NODE_NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
// node-postgres reports a socket closed under a query with these messages and no code.
const CLOSED = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** True when `e` is a database or connection failure that a retry can get past. */
export function isTransientDbError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  // Class 08 is connection trouble, except 08P01: a protocol violation is a bug, and retrying it loops.
  const connection = typeof code === 'string' && code.startsWith('08') && code !== '08P01';
  if (typeof code === 'string' && (TRANSIENT_CODES.has(code) || connection || NODE_NET_CODES.has(code))) return true;
  return CLOSED.test(e.message);
}

/** A transient database failure as a retryable `unavailable`; null for anything else. */
export function transientDbError(e: unknown): AppError | null {
  if (!isTransientDbError(e)) return null;
  return new AppError('unavailable', 'the database is unavailable; try again', { retryable: true, detail: (e as Error).message, cause: e });
}
