import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

export type { DB };
/** What repo functions take first: the pool-backed db or a caller-owned transaction. */
export type Db = Kysely<DB> | Transaction<DB>;

// int8 (counts, versions) arrive as strings; keep them so, callers convert where they need numbers.
/** Creates the kysely instance over a pg pool. The caller owns `destroy()`. */
export function createDb(databaseUrl: string, max = 10): { db: Kysely<DB>; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, application_name: 'syncdex' });
  // An idle client erroring (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool };
}
