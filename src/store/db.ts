import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { callbackPool } from './callback-pool.js';
import type { DB } from './schema.js';
import { SEARCH_STATEMENTS, type StatementCacheLimits } from './statement-cache.js';

export type { DB };
/** What repo functions take first: the pool-backed db or a caller-owned transaction. */
export type Db = Kysely<DB> | Transaction<DB>;

/**
 * Longest a transaction may sit idle, waiting on our own code. The longest legitimate wait (a
 * page write waiting for the write before it) takes seconds to a few minutes (shippers call the
 * engine outside any transaction); a wait Postgres cannot see as a deadlock (two writes
 * waiting on each other through JavaScript) would otherwise hold its locks forever. Ending the
 * session makes it a transient error: the run retries from its checkpoint.
 */
export const IDLE_IN_TRANSACTION_MS = 10 * 60_000;

/** Options of one pool: its statement timeout, whether it may name statements, and its per-connection statement cache (statement-cache.ts). */
export interface DbOptions {
  readonly statementTimeoutMs?: number;
  readonly preparedStatements?: boolean;
  readonly statements?: StatementCacheLimits;
  /** Leave jsonb values as their JSON text (the search pool: documents go into answers unparsed). */
  readonly jsonbAsText?: boolean;
  /** Connections of a second pool for statements marked as planned once (callback-pool.ts `generic`); 0 or absent: none. */
  readonly genericMax?: number;
}

const JSONB_OID = 3802;

const asText = (text: string): string => text;

/** pg's type parsers, with jsonb left as the text Postgres sent. */
const JSONB_AS_TEXT = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === JSONB_OID && format !== 'binary' ? asText : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

// int8 (counts, versions) arrive as strings; keep them so, callers convert where they need numbers.
/** Creates the kysely instance over a pg pool. The caller owns `destroy()`. */
export function createDb(databaseUrl: string, max = 10, opts: DbOptions = {}): { db: Kysely<DB>; pool: pg.Pool } {
  const pool = pgPool(databaseUrl, max, opts);
  const genericMax = opts.genericMax ?? 0;
  const generic = genericMax > 0 ? pgPool(databaseUrl, genericMax, opts) : undefined;
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: callbackPool(pool, { prepared: opts.preparedStatements !== false, statements: opts.statements, generic }) }) });
  return { db, pool };
}

function pgPool(databaseUrl: string, max: number, opts: DbOptions): pg.Pool {
  const timeout = opts.statementTimeoutMs === undefined ? {} : { statement_timeout: opts.statementTimeoutMs };
  const types = opts.jsonbAsText === true ? { types: JSONB_AS_TEXT } : {};
  const pool = new pg.Pool({ connectionString: databaseUrl, max, application_name: 'syncdex', idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS, ...timeout, ...types });
  // An idle client erroring (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // pg-pool only listens for errors on idle clients. A checked-out client whose server goes
  // away (failover, pg_terminate_backend) emits 'error' with no listener, which would crash the
  // process; the query in flight still rejects, and callback-pool.ts has the pool drop the dead
  // client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * The pool searches run on: its own, so a slow search can neither exceed its time nor take the
 * connections that auth, probes and writes need; its connections name the search shapes they
 * repeat, each execution planned for its own values (statement-cache.ts), and up to 4 more plan
 * the statements marked as planned once (plan-marker.ts). It reads jsonb as JSON text: the
 * Postgres backend's hits carry their documents unparsed (search/json-hit.ts).
 */
export function createSearchDb(databaseUrl: string, opts: { statementTimeoutMs: number; preparedStatements?: boolean }): Kysely<DB> {
  // Without named statements nothing is planned once: marked statements run on the 8 as well.
  return createDb(databaseUrl, 8, { ...opts, statements: SEARCH_STATEMENTS, jsonbAsText: true, genericMax: opts.preparedStatements === false ? 0 : 4 }).db;
}
